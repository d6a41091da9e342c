#include "ref/io/reader.hpp"

#include "ref/hash.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/input.hpp"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <memory>
#include <span>
#include <unordered_map>

#include <sys/stat.h>

namespace lo::io {

namespace od = simdjson::ondemand;

namespace {

constexpr std::string_view kPlanFormat = "nn-backend/graph-execution-plan";
constexpr std::string_view kLoweringFormat = "nn-backend/graph-lowering-plan";
constexpr std::string_view kAuditFormat = "nn-backend/execution-audit";

/// Capsule keys come from the input: keyed hashing (ref/hash.hpp), searched by string_view.
using KeyTable = std::unordered_map<std::string, CapsuleId, KeyedHash, std::equal_to<>>;

/// `parseSpelling`, by a hash table built once per vocabulary: the reader looks up an op and a
/// kind for every kernel, and a scan compares the text with up to 46 spellings.
template <class E> std::optional<E> lookupSpelling(std::string_view s) {
  static constexpr auto hash = [](std::string_view t) -> std::size_t {
    return t.empty() ? 0 : (t.size() * 131 + t[0] * 31 + t[t.size() / 2] * 7 + t.back()) & 255;
  };
  struct Table {
    std::array<std::uint8_t, 256> slot{}; // index + 1 of the spelling in the slot, 0 when empty
    Table() {
      const auto &all = Vocabulary<E>::spellings;
      for (std::size_t i = 0; i < all.size(); ++i) {
        std::size_t h = hash(all[i]);
        while (slot[h])
          h = (h + 1) & 255;
        slot[h] = static_cast<std::uint8_t>(i + 1);
      }
    }
  };
  static_assert(vocabularySize<E>() < 128);
  static const Table table;
  for (std::size_t h = hash(s); table.slot[h]; h = (h + 1) & 255)
    if (Vocabulary<E>::spellings[table.slot[h] - 1u] == s)
      return static_cast<E>(table.slot[h] - 1u);
  return std::nullopt;
}

/// Offset of the first raw control character (below U+0020) inside a string of `text`, or
/// `text.size()`. Used only to place an error.
std::size_t firstRawControlInString(std::string_view text) {
  bool inString = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (inString && c < 0x20)
      return i;
    if (escaped)
      escaped = false;
    else if (inString && c == '\\')
      escaped = true;
    else if (c == '"')
      inString = !inString;
  }
  return text.size();
}

/// `s` quoted for a message as it is, cut after kMaxEchoBytes bytes (at a character boundary) with
/// "..." (a 50 MB key must not make a 50 MB message). The renderer that shows the message escapes
/// it (ref/io/escape.hpp, docs/spec.md §3.5).
std::string quote(std::string_view s) {
  const bool cut = s.size() > kMaxEchoBytes;
  if (cut) {
    std::size_t n = kMaxEchoBytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
      --n; // not inside a UTF-8 sequence
    s = s.substr(0, n);
  }
  return "\"" + std::string(s) + (cut ? "\"..." : "\"");
}

/// A capsule reference that names a key of a table not read yet (JSON objects are unordered).
struct PendingKey {
  std::size_t index; // kernel or group index
  std::string key;
};

/// The names an object may have, and which of them it must have.
struct FieldSet {
  std::span<const std::string_view> names;
  std::uint32_t required; // bit i: names[i] is required
};

/// The bits of the fields `names` in the field table `table` (bit i: `table[i]`), so that what a
/// reader requires or allows is written with the fields' names:
/// `fieldBits(kClaimFields, {"tag", "op"})`. A name the table lacks does not compile.
template <std::size_t N>
consteval std::uint32_t fieldBits(const std::string_view (&table)[N],
                                  std::initializer_list<std::string_view> names) {
  static_assert(N <= 32, "a field table has at most 32 fields");
  std::uint32_t bits = 0;
  for (std::string_view name : names) {
    std::size_t i = 0;
    while (i < N && table[i] != name)
      ++i;
    if (i == N)
      throw "fieldBits: a name that is not in the field table";
    bits |= std::uint32_t{1} << i;
  }
  return bits;
}

class Reader {
public:
  /// Reads `source` with its own parser.
  /// Reads `source`, interning what it reads in `interner` (none for a reader that only looks).
  explicit Reader(const Source &source, Interner *interner = nullptr)
      : Reader(source, interner, nullptr, 0) {}

  /// Reads `source` with `parser` when given (one parser reused for the lines of a stream, grown
  /// when a line needs it); `lineBase` is added to the line numbers of messages.
  Reader(const Source &source, Interner *interner, od::parser *parser, std::size_t lineBase)
      : interner(interner), source_(source), parser_(parser ? parser : &ownParser_),
        lineBase_(lineBase) {
    if (source.text.size() > kMaxDocumentBytes)
      throw InputError(source.name, 1, 1, "", "document is larger than the limit of 4 GiB");
    if (source.text.capacity() >= source.text.size() + simdjson::SIMDJSON_PADDING) {
      view_ = simdjson::padded_string_view(source.text.data(), source.text.size(),
                                           source.text.capacity());
    } else {
      owned_ = std::make_unique<simdjson::padded_string>(source.text);
      view_ = simdjson::padded_string_view(*owned_);
    }
    if (source.text.size() >= 3 && source.text.compare(0, 3, "\xEF\xBB\xBF") == 0)
      failAtOffset(0, "", "a byte-order mark is not allowed: the document must be plain UTF-8");
    const std::size_t capacity = std::max<std::size_t>(source.text.size(), 64);
    if (parser_->capacity() < capacity || parser != parser_)
      if (auto err = parser_->allocate(
              parser ? std::max(capacity, 2 * parser_->capacity()) : capacity, kMaxDepth))
        throw InputError(source.name, std::string("cannot allocate the parser: ") +
                                          simdjson::error_message(err));
    if (auto err = parser_->iterate(view_).get(doc_))
      // The document is not open: place the error at the bad byte (UTF-8) or at its start.
      failSimd(err, source.text.data() +
                        (err == simdjson::UTF8_ERROR        ? firstInvalidUtf8(source.text)
                         : err == simdjson::UNESCAPED_CHARS ? firstRawControlInString(source.text)
                                                            : 0));
  }

  [[noreturn]] void failAtOffset(std::size_t offset, std::string pointer, std::string message) {
    auto [line, column] = lineColumn(source_.text, offset);
    throw InputError(source_.name, line + lineBase_, column, std::move(pointer),
                     std::move(message));
  }

  /// Fails at a location inside the document, with the current JSON pointer.
  [[noreturn]] void fail(const char *at, std::string message) {
    std::size_t offset = at ? static_cast<std::size_t>(at - source_.text.data()) : lastOffset();
    failAtOffset(offset, pointer(), std::move(message));
  }

  /// Fails at the value a pointer names, found again by a fresh pass (used for the checks that can
  /// be made only after the value was read: its position is needed only when there is an error).
  [[noreturn]] void failAtPointer(const std::string &pointer, std::string message) {
    std::size_t offset = 0;
    od::parser again;
    od::document d;
    if (!again.iterate(view_).get(d))
      if (const char *at = locate(d, pointer))
        offset = static_cast<std::size_t>(at - source_.text.data());
    failAtOffset(offset, pointer, std::move(message));
  }

  /// Where the value `pointer` names starts, or null. Keys are compared unescaped (simdjson's
  /// at_pointer compares them as written, so a key with an escape on the path was not found).
  static const char *locate(od::document &d, std::string_view pointer) {
    od::value v;
    if (d.get_value().get(v))
      return nullptr;
    while (!pointer.empty()) {
      pointer.remove_prefix(1); // the '/'
      const std::size_t slash = pointer.find('/');
      const std::string_view raw = pointer.substr(0, slash);
      pointer = slash == std::string_view::npos ? std::string_view() : pointer.substr(slash);
      std::string token; // RFC 6901: ~1 is '/', ~0 is '~'
      for (std::size_t i = 0; i < raw.size(); ++i)
        if (raw[i] == '~' && i + 1 < raw.size())
          token += raw[++i] == '1' ? '/' : '~';
        else
          token += raw[i];
      od::json_type type;
      if (v.type().get(type))
        return nullptr;
      bool found = false;
      if (type == od::json_type::object) {
        od::object obj;
        if (v.get_object().get(obj))
          return nullptr;
        for (auto result : obj) {
          od::field field;
          std::string_view key;
          if (std::move(result).get(field) || field.unescaped_key().get(key))
            return nullptr;
          if (key == token) {
            v = field.value();
            found = true;
            break;
          }
        }
      } else if (type == od::json_type::array) {
        std::size_t index = 0;
        auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
        od::array arr;
        if (ec != std::errc() || end != token.data() + token.size() || v.get_array().get(arr))
          return nullptr;
        for (auto item : arr) {
          if (index-- == 0) {
            if (item.get(v))
              return nullptr;
            found = true;
            break;
          }
        }
      }
      if (!found)
        return nullptr;
    }
    const char *at = nullptr;
    return v.current_location().get(at) ? nullptr : at;
  }

  [[noreturn]] void failSimd(simdjson::error_code err, const char *at) {
    std::string what;
    switch (err) {
    case simdjson::UTF8_ERROR: what = "invalid UTF-8"; break;
    case simdjson::DEPTH_ERROR:
      what = "nesting deeper than " + std::to_string(kMaxDepth) + " levels";
      break;
    case simdjson::UNCLOSED_STRING: what = "unclosed string"; break;
    case simdjson::UNESCAPED_CHARS: what = "unescaped control character in a string"; break;
    case simdjson::EMPTY: what = "empty document: expected a JSON object"; break;
    case simdjson::SCALAR_DOCUMENT_AS_VALUE:
      what = "expected a JSON object, found a single number, string, true, false or null";
      break;
    default: what = std::string("malformed JSON (") + simdjson::error_message(err) + ")";
    }
    fail(at, what);
  }

  std::size_t lastOffset() {
    const char *at = nullptr;
    if (!doc_.current_location().get(at))
      return static_cast<std::size_t>(at - source_.text.data());
    return source_.text.size();
  }

  const char *location(od::value &v) {
    const char *at = nullptr;
    if (v.current_location().get(at))
      return nullptr;
    return at;
  }

  // --- JSON pointer --------------------------------------------------------------------------

  // The path to the current value is a stack of keys and indices, spelled as a JSON pointer only
  // when a message needs it (building it for every field was a fifth of the reading time). A key
  // is a view into the document or the parser's string buffer, both alive while it is read.
  struct Step {
    std::string_view key;
    std::size_t index;
    bool isIndex;
  };

  struct Enter {
    Reader &r;
    Enter(Reader &reader, std::string_view key) : r(reader) { r.push({key, 0, false}); }
    Enter(Reader &reader, std::size_t index) : r(reader) { r.push({{}, index, true}); }
    ~Enter() { --r.depth_; }
    Enter(const Enter &) = delete;
  };

  std::string pointer() const {
    std::string out;
    for (const Step &s : std::span(path_.data(), depth_)) {
      out += '/';
      if (s.isIndex)
        out += std::to_string(s.index);
      else if (s.key.find_first_of("~/") == std::string_view::npos)
        out += s.key;
      else
        out += pointerToken(s.key);
    }
    return out;
  }

  /// Whether the key that starts at `raw` (after its quote) is `name`, written without escapes.
  /// The document's padding makes reading past its end safe.
  static bool rawKeyIs(const char *raw, std::string_view name) {
    return std::memcmp(raw, name.data(), name.size()) == 0 && raw[name.size()] == '"';
  }

  /// A field's key, read in place when it has no escape (the common case), else unescaped.
  std::string_view key(od::field &field) {
    const char *raw = field.key().raw();
    const char *end = source_.text.data() + source_.text.size();
    const char *p = raw;
    while (p < end && *p != '"' && *p != '\\')
      ++p;
    if (p < end && *p == '"')
      return std::string_view(raw, static_cast<std::size_t>(p - raw));
    std::string_view k;
    if (auto err = field.unescaped_key().get(k))
      failSimd(err, raw - 1);
    return k;
  }

  // --- Values --------------------------------------------------------------------------------

  /// The value as a T (an object, an array, a boolean); another JSON type is "expected WHAT
  /// (SHAPE)", any other error simdjson's.
  template <class T> T typed(od::value &v, std::string_view what, std::string_view shape) {
    T out{};
    if (auto err = v.get<T>().get(out)) {
      if (err == simdjson::INCORRECT_TYPE)
        fail(location(v), "expected " + std::string(what) + " (" + std::string(shape) + ")");
      failSimd(err, location(v));
    }
    return out;
  }

  od::object object(od::value &v, std::string_view what) {
    return typed<od::object>(v, what, "a JSON object");
  }

  od::array array(od::value &v, std::string_view what) {
    return typed<od::array>(v, what, "a JSON array");
  }

  std::string_view string(od::value &v, std::string_view what) {
    // In place when the string has no escape (the common case): no copy to the string buffer.
    const std::string_view token = v.raw_json_token();
    if (token.size() >= 2 && token.front() == '"' && token.find('\\') == std::string_view::npos) {
      const std::size_t close = token.rfind('"');
      if (close > 0 && close - 1 <= kMaxStringBytes && !v.get_raw_json_string().error())
        return token.substr(1, close - 1);
    }
    std::string_view s;
    if (auto err = v.get_string().get(s)) {
      if (err == simdjson::INCORRECT_TYPE)
        fail(location(v), "expected " + std::string(what) + " (a string)");
      failSimd(err, location(v));
    }
    if (s.size() > kMaxStringBytes)
      fail(location(v),
           "string longer than the limit of " + std::to_string(kMaxStringBytes) + " bytes");
    return s;
  }

  bool boolean(od::value &v, std::string_view what) {
    return typed<bool>(v, what, "true or false");
  }

  std::string token(od::value &v) {
    std::string_view raw = v.raw_json_token();
    while (!raw.empty() &&
           (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\t' || raw.back() == '\r'))
      raw.remove_suffix(1);
    if (raw.size() > 40)
      return std::string(raw.substr(0, 40)) + "...";
    return std::string(raw);
  }

  std::uint64_t natural(od::value &v, std::string_view what, std::uint64_t limit = 0) {
    std::uint64_t n = 0;
    const char *at = location(v);
    if (v.get_uint64().get(n)) {
      od::json_type type;
      if (!v.type().get(type) && type == od::json_type::number)
        fail(at, "expected " + std::string(what) + " (a natural number" +
                     (limit ? " below 2^63" : "") + "), found " + token(v));
      fail(at, "expected " + std::string(what) + " (a natural number), found " + token(v));
    }
    if (limit && n >= limit)
      fail(at, "expected " + std::string(what) + " below 2^63, found " + std::to_string(n));
    return n;
  }

  /// Calls `each(value)` for every element of an array, with the JSON pointer at the element;
  /// `each(value, index)` when it takes the index too.
  template <class F> void elements(od::value &v, std::string_view what, F &&each) {
    std::size_t i = 0;
    for (auto item : array(v, what)) {
      Enter e(*this, i);
      od::value x;
      if (auto err = item.get(x))
        failSimd(err, nullptr);
      if constexpr (std::is_invocable_v<F &, od::value &, std::size_t>)
        each(x, i);
      else
        each(x);
      ++i;
    }
  }

  /// Calls `each(keyAt, key, value)` for every field of an object, its key unescaped and `keyAt`
  /// where the key starts (its quote), with the JSON pointer at the field.
  template <class F> void keyedFields(od::value &v, std::string_view what, F &&each) {
    for (auto result : object(v, what)) {
      od::field field;
      if (auto err = std::move(result).get(field))
        failSimd(err, nullptr);
      const char *keyAt = field.key().raw() - 1;
      std::string_view key;
      if (auto err = field.unescaped_key().get(key))
        failSimd(err, keyAt);
      Enter e(*this, key);
      each(keyAt, key, field.value());
    }
  }

  /// An array of naturals, returned at its exact size (8 bytes an element: a candidate's ids cost
  /// no more than that, whatever the growth of the vector they were read into).
  std::vector<std::uint64_t> naturals(od::value &v, std::string_view what,
                                      std::uint64_t limit = 0) {
    scratch_.clear();
    elements(v, what,
             [&](od::value &x) { scratch_.push_back(natural(x, "a natural number", limit)); });
    std::vector<std::uint64_t> out(scratch_.begin(), scratch_.end());
    if (scratch_.capacity() > kScratchKept)
      std::vector<std::uint64_t>().swap(scratch_);
    return out;
  }
  std::vector<std::uint64_t> scratch_;
  static constexpr std::size_t kScratchKept = 1 << 16;

  /// A value of a vocabulary, spelled as ref/vocab.hpp spells it; `what` names the expected
  /// string in a type error.
  template <class E> E enumValue(od::value &v, std::string_view what = Vocabulary<E>::name) {
    const char *at = location(v);
    std::string_view s = string(v, what);
    if (auto e = lookupSpelling<E>(s))
      return *e;
    fail(at, "unknown " + std::string(Vocabulary<E>::name) + " " + quote(s) +
                 "; expected one of: " + joinedSpellings<E>());
  }

  /// Iterates an object's fields, checking them against `fields`; `onField(index, value)` reads
  /// each. Unknown and repeated names are rejected; a missing required one is reported at the end.
  template <class F>
  std::uint32_t fields(od::value &v, std::string_view what, const FieldSet &set, F &&onField) {
    const char *start = location(v);
    std::uint32_t seen = 0;
    for (auto result : object(v, what)) {
      od::field field;
      if (auto err = std::move(result).get(field))
        failSimd(err, nullptr);
      const char *keyAt = field.key().raw() - 1;
      // The key is compared in place with each name (a key with an escape matches none of them
      // this way, and is then unescaped and compared again).
      std::size_t index = 0;
      while (index < set.names.size() && !rawKeyIs(keyAt + 1, set.names[index]))
        ++index;
      std::string_view key;
      if (index < set.names.size()) {
        key = set.names[index];
      } else {
        key = this->key(field);
        index = 0;
        while (index < set.names.size() && set.names[index] != key)
          ++index;
      }
      Enter e(*this, key);
      if (index == set.names.size()) {
        std::string expected;
        for (auto n : set.names)
          expected += (expected.empty() ? "" : ", ") + std::string(n);
        fail(keyAt, "unknown field " + quote(key) + " in " + std::string(what) +
                        "; expected one of: " + expected);
      }
      if (seen & (1u << index))
        fail(keyAt, "duplicate field " + quote(key) + " in " + std::string(what));
      seen |= 1u << index;
      onField(index, field.value());
    }
    std::uint32_t missing = set.required & ~seen;
    if (missing) {
      std::size_t index = static_cast<std::size_t>(std::countr_zero(missing));
      fail(start, "missing field " + quote(set.names[index]) + " in " + std::string(what));
    }
    return seen;
  }

  /// The fields of a tagged object after its `tag` (bit 0 of `names`), `seen` of them present,
  /// against what its tag asks for: every `required` one present ("missing field F in WHAT", at
  /// `start`), none outside `allowed` ("field F does not belong to WHAT", at the field). The first
  /// field in the order of `names` that breaks either rule is reported. `what()` spells WHAT ("a
  /// relu claim"), only for a message.
  template <class What>
  void checkTagFields(const char *start, std::span<const std::string_view> names,
                      std::uint32_t seen, std::uint32_t required, std::uint32_t allowed,
                      What &&what) {
    const std::uint32_t wrong = ((required & ~seen) | (seen & ~allowed)) & ~std::uint32_t{1};
    if (!wrong)
      return;
    const auto i = static_cast<std::size_t>(std::countr_zero(wrong));
    if (!(seen & (1u << i)))
      fail(start, "missing field " + quote(names[i]) + " in " + what());
    failAtPointer(pointer() + "/" + std::string(names[i]),
                  "field " + quote(names[i]) + " does not belong to " + what());
  }

  void expectFormat(od::value &v, std::string_view format) {
    const char *at = location(v);
    std::string_view s = string(v, "format");
    if (s != format)
      fail(at, "format is " + quote(s) + ", expected " + quote(format));
  }

  void expectVersion(od::value &v) {
    const char *at = location(v);
    std::uint64_t n = natural(v, "version");
    if (n != 1)
      fail(at, "version " + std::to_string(n) + " is not supported; expected 1");
  }

  void expectEnd() {
    // After the root value, any further token is trailing data (a second document, say).
    const char *at = nullptr;
    if (!doc_.current_location().get(at))
      fail(at, "trailing data after the JSON document");
  }

  od::document &doc() { return doc_; }
  Interner *interner = nullptr;

  // --- Domain values -------------------------------------------------------------------------

  ContractClaim claim(od::value &v);
  ContractEvidence evidence(od::value &v);
  std::vector<ContractProvenance> provenance(od::value &v);
  ContractDescriptor descriptor(od::value &v);
  NumericalPolicy numericalPolicy(od::value &v);
  enum class CapsuleShape { capsule, auditRow };
  KernelCapsule capsule(od::value &v, CapsuleShape shape);
  KindId kind(od::value &v);
  KindId parseKind(od::value &v, const char *start);
  std::string_view objectText(const char *start) const;
  /// The capsules table; `order`, when given, receives its keys and capsules in file order.
  KeyTable capsuleTable(od::value &v,
                        std::vector<std::pair<std::string, CapsuleId>> *order = nullptr);
  /// One kernel of a plan. A capsule key is looked up in `table` when there is one, else left in
  /// `key` for later (the table may come after the kernels).
  PlannedNodeKernel kernel(od::value &kv, const KeyTable *table, std::optional<std::string> &key);
  /// One group of a lowering; a capsule key as for `kernel`.
  LoweredKernelGroup group(od::value &gv, const KeyTable *table, std::optional<std::string> &key);
  /// A `capsule` field: an inline capsule, or a key looked up in `table` (or left in `key` when
  /// there is no table yet).
  CapsuleId capsuleRef(od::value &x, const KeyTable *table, std::optional<std::string> &key);
  /// The fields a kernel and a group share, `op` (field 2 of both) and `capsule` (field 3).
  void opOrCapsule(std::size_t f, od::value &x, BackendOp &op, CapsuleId &capsule,
                   const KeyTable *table, std::optional<std::string> &key) {
    if (f == 2)
      op = enumValue<BackendOp>(x);
    else
      capsule = capsuleRef(x, table, key);
  }

  template <class F> void rootFields(std::string_view what, const FieldSet &set, F &&onField);

  /// The capsule of `key`, named at `pointer`, in `table`; `document` ("the plan") says in the
  /// message what has no table when there is none.
  CapsuleId capsuleOfKey(const std::string &pointer, const std::string &key, const KeyTable *table,
                         std::string_view document) {
    auto it = table ? table->find(key) : KeyTable::const_iterator{};
    if (!table || it == table->end())
      failAtPointer(pointer, "capsule key " + quote(key) +
                                 (table ? std::string(" is not in the capsules table")
                                        : " names a capsule, but " + std::string(document) +
                                              " has no capsules table"));
    return it->second;
  }

  /// The capsule keys read before the table (`/ARRAY/INDEX/capsule`), each resolved as it would
  /// have been had the table come first: `resolved(index, capsule)`.
  template <class F>
  void resolvePending(const std::vector<PendingKey> &pending, const KeyTable *table,
                      std::string_view array, std::string_view document, F &&resolved) {
    for (const auto &p : pending)
      resolved(p.index,
               capsuleOfKey("/" + std::string(array) + "/" + std::to_string(p.index) + "/capsule",
                            p.key, table, document));
  }

private:
  const Source &source_;
  std::unique_ptr<simdjson::padded_string> owned_;
  simdjson::padded_string_view view_;
  od::parser ownParser_;
  od::parser *parser_;
  std::size_t lineBase_ = 0;
  od::document doc_;
  // One step per level of nesting, and simdjson stops at kMaxDepth levels.
  std::array<Step, kMaxDepth + 2> path_;
  std::size_t depth_ = 0;
  void push(Step s) {
    if (depth_ == path_.size())
      fail(nullptr, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    path_[depth_++] = s;
  }
  std::string_view lastKey_; // the capsule key looked up last, its table and its capsule
  const KeyTable *lastKeyTable_ = nullptr;
  CapsuleId lastKeyId_{};
  /// Kinds with parameters repeat (the same reshape, layernorm, conv2d): the text of each one read
  /// is kept with its id, and the same text again is not parsed again. At most kKindCacheSize.
  std::unordered_map<std::string_view, KindId, KeyedHash> kindCache_;
  static constexpr std::size_t kKindCacheSize = 4096;
};

template <class F>
void Reader::rootFields(std::string_view what, const FieldSet &set, F &&onField) {
  od::value rootValue;
  if (auto err = doc_.get_value().get(rootValue))
    failSimd(err, nullptr);
  fields(rootValue, what, set, onField);
  expectEnd();
}

// --- Contract descriptors ----------------------------------------------------------------------

constexpr std::string_view kClaimFields[] = {"tag", "op", "layout", "spec", "mode"};
// The fields of kClaimFields each claim tag has (in the order of the claim tags, docs/spec.md
// §1.5).
constexpr std::uint32_t kClaimShape[] = {
    fieldBits(kClaimFields, {"tag", "op"}),                  // shapeSafety
    fieldBits(kClaimFields, {"tag", "op", "layout"}),        // layoutCompatibility
    fieldBits(kClaimFields, {"tag", "op", "spec"}),          // valueRefinement
    fieldBits(kClaimFields, {"tag", "op", "spec", "mode"})}; // vjpRefinement
static_assert(std::size(kClaimShape) == vocabularySize<ClaimTag>());

ContractClaim Reader::claim(od::value &v) {
  ContractClaim c;
  std::optional<std::size_t> tag;
  const char *start = location(v);
  const std::uint32_t seen =
      fields(v, "a contract claim", FieldSet{kClaimFields, fieldBits(kClaimFields, {"tag"})},
             [&](std::size_t i, od::value x) {
               switch (i) {
               case 0: tag = static_cast<std::size_t>(enumValue<ClaimTag>(x, "a claim tag")); break;
               case 1: c.op = enumValue<BackendOp>(x); break;
               case 2: c.layout = enumValue<TensorLayout>(x); break;
               case 3: c.spec = std::string(string(x, "a spec name")); break;
               case 4: c.mode = enumValue<VJPMode>(x); break;
               }
             });
  c.tag = static_cast<ContractClaim::Tag>(*tag);
  checkTagFields(start, kClaimFields, seen, kClaimShape[*tag], kClaimShape[*tag],
                 [&] { return "a " + std::string(spelling(c.tag)) + " claim"; });
  return c;
}

constexpr std::string_view kEvidenceFields[] = {"tag", "name", "reason"};

ContractEvidence Reader::evidence(od::value &v) {
  ContractEvidence e;
  std::optional<std::size_t> tag;
  const char *start = location(v);
  const std::uint32_t seen =
      fields(v, "contract evidence", FieldSet{kEvidenceFields, fieldBits(kEvidenceFields, {"tag"})},
             [&](std::size_t i, od::value x) {
               if (i == 0)
                 tag = static_cast<std::size_t>(enumValue<EvidenceTag>(x, "an evidence tag"));
               else
                 e.text = std::string(string(x, i == 1 ? "a name" : "a reason"));
             });
  e.tag = static_cast<ContractEvidence::Tag>(*tag);
  // notProvided has no text; trustedBoundary has a `reason`; every other tag a `name`.
  const std::uint32_t wanted = e.tag == ContractEvidence::Tag::notProvided ? 0u
                               : e.tag == ContractEvidence::Tag::trustedBoundary
                                   ? fieldBits(kEvidenceFields, {"reason"})
                                   : fieldBits(kEvidenceFields, {"name"});
  checkTagFields(start, kEvidenceFields, seen, wanted, wanted,
                 [&] { return std::string(spelling(e.tag)) + " evidence"; });
  return e;
}

constexpr std::string_view kProvenanceFields[] = {"tag", "path", "symbol", "buildTarget", "text"};
// Required and allowed fields of kProvenanceFields per tag (in the order of the provenance tags).
constexpr std::uint32_t kProvenanceRequired[] = {
    fieldBits(kProvenanceFields, {"tag", "path"}),           // sourceFile
    fieldBits(kProvenanceFields, {"tag", "path", "symbol"}), // nativeSymbol
    fieldBits(kProvenanceFields, {"tag", "text"})};          // note
constexpr std::uint32_t kProvenanceAllowed[] = {
    fieldBits(kProvenanceFields, {"tag", "path"}),
    fieldBits(kProvenanceFields, {"tag", "path", "symbol", "buildTarget"}),
    fieldBits(kProvenanceFields, {"tag", "text"})};
static_assert(std::size(kProvenanceRequired) == vocabularySize<ProvenanceTag>());

std::vector<ContractProvenance> Reader::provenance(od::value &v) {
  std::vector<ContractProvenance> out;
  elements(v, "provenance", [&](od::value &x) {
    ContractProvenance p;
    std::optional<std::size_t> tag;
    const char *start = location(x);
    const std::uint32_t seen = fields(
        x, "a provenance item", FieldSet{kProvenanceFields, fieldBits(kProvenanceFields, {"tag"})},
        [&](std::size_t i, od::value y) {
          switch (i) {
          case 0:
            tag = static_cast<std::size_t>(enumValue<ProvenanceTag>(y, "a provenance tag"));
            break;
          case 1: p.path = std::string(string(y, "a path")); break;
          case 2: p.symbol = std::string(string(y, "a symbol")); break;
          case 3: p.buildTarget = std::string(string(y, "a build target")); break;
          case 4: p.path = std::string(string(y, "a note")); break;
          }
        });
    p.tag = static_cast<ContractProvenance::Tag>(*tag);
    checkTagFields(start, kProvenanceFields, seen, kProvenanceRequired[*tag],
                   kProvenanceAllowed[*tag],
                   [&] { return "a " + std::string(spelling(p.tag)) + " provenance item"; });
    out.push_back(std::move(p));
  });
  return out;
}

constexpr std::string_view kDescriptorFields[] = {"claim", "summary", "evidence", "provenance"};

ContractDescriptor Reader::descriptor(od::value &v) {
  ContractDescriptor d;
  fields(
      v, "a contract descriptor",
      FieldSet{kDescriptorFields, fieldBits(kDescriptorFields, {"claim", "summary", "evidence"})},
      [&](std::size_t i, od::value x) {
        switch (i) {
        case 0: d.claim = claim(x); break;
        case 1: d.summary = std::string(string(x, "a summary")); break;
        case 2: d.evidence = evidence(x); break;
        case 3: d.provenance = provenance(x); break;
        }
      });
  return d;
}

constexpr std::string_view kPolicyFields[] = {"rounding", "subnormals", "contraction", "reduction"};

NumericalPolicy Reader::numericalPolicy(od::value &v) {
  NumericalPolicy p;
  fields(v, "a numerical policy", FieldSet{kPolicyFields, 0}, [&](std::size_t i, od::value x) {
    switch (i) {
    case 0: p.rounding = enumValue<Rounding>(x); break;
    case 1: p.subnormals = enumValue<Subnormals>(x); break;
    case 2: p.contraction = enumValue<Contraction>(x); break;
    case 3: p.reduction = enumValue<Reduction>(x); break;
    }
  });
  return p;
}

// --- Capsules ----------------------------------------------------------------------------------

constexpr std::string_view kCapsuleFields[] = {"name",           "op",
                                               "provider",       "device",
                                               "trustLevel",     "supportsForward",
                                               "vjpMode",        "shapeContract",
                                               "layoutContract", "valueContract",
                                               "vjpContract",    "numericalPolicy",
                                               "notes"};
constexpr std::uint32_t kCapsuleRequired =
    fieldBits(kCapsuleFields, {"name", "op", "provider", "device", "trustLevel", "shapeContract",
                               "layoutContract", "valueContract", "vjpContract"});

// An audit row has the audited fields of a capsule, with `capsuleName` for `name`.
constexpr std::string_view kAuditRowFields[] = {
    "capsuleName",   "op",          "provider",       "device",
    "trustLevel",    "vjpMode",     "shapeContract",  "layoutContract",
    "valueContract", "vjpContract", "numericalPolicy"};
constexpr std::uint32_t kAuditRowRequired =
    fieldBits(kAuditRowFields, {"capsuleName", "op", "provider", "device", "trustLevel",
                                "shapeContract", "layoutContract", "valueContract", "vjpContract"});

// The audit row's fields, as indexes into kCapsuleFields (it lacks supportsForward and notes).
constexpr std::size_t kAuditRowAsCapsule[] = {0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11};
static_assert(std::size(kAuditRowAsCapsule) == std::size(kAuditRowFields));

KernelCapsule Reader::capsule(od::value &v, CapsuleShape shape) {
  KernelCapsule c;
  const bool row = shape == CapsuleShape::auditRow;
  const FieldSet set = row ? FieldSet{kAuditRowFields, kAuditRowRequired}
                           : FieldSet{kCapsuleFields, kCapsuleRequired};
  fields(v, row ? "an audit row" : "a capsule", set, [&](std::size_t i, od::value x) {
    switch (row ? kAuditRowAsCapsule[i] : i) { // the index into kCapsuleFields
    case 0: c.name = std::string(string(x, "a capsule name")); break;
    case 1: c.op = enumValue<BackendOp>(x); break;
    case 2: c.provider = enumValue<Provider>(x); break;
    case 3: c.device = enumValue<Device>(x); break;
    case 4: c.trustLevel = enumValue<TrustLevel>(x); break;
    case 5: c.supportsForward = boolean(x, "supportsForward"); break;
    case 6: c.vjpMode = enumValue<VJPMode>(x); break;
    case 7: c.shapeContract = descriptor(x); break;
    case 8: c.layoutContract = descriptor(x); break;
    case 9: c.valueContract = descriptor(x); break;
    case 10: c.vjpContract = descriptor(x); break;
    case 11: c.numericalPolicy = numericalPolicy(x); break;
    case 12: c.notes = std::string(string(x, "notes")); break;
    }
  });
  return c;
}

KeyTable Reader::capsuleTable(od::value &v, std::vector<std::pair<std::string, CapsuleId>> *order) {
  KeyTable table;
  keyedFields(v, "the capsules table", [&](const char *keyAt, std::string_view key, od::value &x) {
    std::string name(key);
    if (table.count(name))
      fail(keyAt, "duplicate capsule key " + quote(name));
    CapsuleId id = interner->intern(capsule(x, CapsuleShape::capsule));
    if (order)
      order->emplace_back(name, id);
    table.emplace(std::move(name), id);
  });
  return table;
}

// --- Kinds -------------------------------------------------------------------------------------

KindId Reader::kind(od::value &v) {
  od::json_type type;
  if (auto err = v.type().get(type))
    failSimd(err, location(v));
  if (type == od::json_type::string) {
    const char *at = location(v);
    std::string_view s = string(v, "a kind");
    auto tag = lookupSpelling<KindTag>(s);
    if (!tag)
      fail(at, "unknown kind " + quote(s) + "; expected one of: " + joinedSpellings<KindTag>());
    if (!isBare(*tag))
      fail(at,
           "kind " + quote(s) + " has parameters and must be written as an object with a \"tag\"");
    return Interner::bareKind(*tag);
  }
  if (type != od::json_type::object)
    fail(location(v), "expected a kind (a string or an object with a \"tag\")");
  const char *start = location(v);
  const std::string_view text = objectText(start);
  if (!text.empty())
    if (auto it = kindCache_.find(text); it != kindCache_.end())
      return it->second; // the caller's object iteration skips the unread value
  const KindId id = parseKind(v, start);
  // Cached only when the object the parser read ends where the scan of its text ended.
  if (!text.empty() && kindCache_.size() < kKindCacheSize) {
    const char *after = nullptr, *end = text.data() + text.size();
    const char *limit = source_.text.data() + source_.text.size();
    while (end < limit && (*end == ' ' || *end == '\n' || *end == '\t' || *end == '\r'))
      ++end;
    if (!doc_.current_location().get(after) && after == end)
      kindCache_.emplace(text, id);
  }
  return id;
}

std::string_view Reader::objectText(const char *start) const {
  // The text of the object at `start`, found by matching brackets outside strings; empty when it
  // is longer than 512 bytes or not found.
  const char *end = source_.text.data() + source_.text.size();
  if (!start || start >= end || *start != '{')
    return {};
  int depth = 0;
  bool inString = false;
  for (const char *p = start; p < end && p < start + 512; ++p) {
    const char c = *p;
    if (inString) {
      if (c == '\\')
        ++p;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return std::string_view(start, static_cast<std::size_t>(p + 1 - start));
    }
  }
  return {};
}

KindId Reader::parseKind(od::value &v, const char *start) {
  struct Param {
    std::string name;
    bool isArray;
    std::vector<std::uint64_t> values;
  };
  std::vector<Param> params;
  std::optional<KindTag> tag;
  keyedFields(v, "a kind", [&](const char *keyAt, std::string_view key, od::value &x) {
    if (key == "tag") {
      if (tag)
        fail(keyAt, "duplicate field \"tag\" in a kind");
      const char *at = location(x);
      std::string_view s = string(x, "a kind tag");
      tag = parseSpelling<KindTag>(s);
      if (!tag)
        fail(at, "unknown kind " + quote(s) + "; expected one of: " + joinedSpellings<KindTag>());
      return;
    }
    // A kind has at most kMaxKindParams parameters: stop before the duplicate check below turns
    // quadratic on an object with many fields.
    static const std::size_t kMaxKindParams = [] {
      std::size_t m = 0;
      for (std::size_t t = 0; t < vocabularySize<KindTag>(); ++t)
        m = std::max(m, signature(static_cast<KindTag>(t)).params.size());
      return m;
    }();
    for (const auto &p : params) // at most kMaxKindParams
      if (p.name == key)
        fail(keyAt, "duplicate field " + quote(key) + " in a kind");
    if (params.size() == kMaxKindParams)
      fail(keyAt, "too many fields in a kind: no kind has more than " +
                      std::to_string(kMaxKindParams) + " parameters besides \"tag\"");
    od::json_type t;
    if (auto err = x.type().get(t))
      failSimd(err, location(x));
    Param p{std::string(key), t == od::json_type::array, {}};
    if (p.isArray)
      p.values = naturals(x, "a shape");
    else
      p.values.push_back(natural(x, "a kind parameter"));
    params.push_back(std::move(p));
  });
  if (!tag)
    fail(start, "missing field \"tag\" in a kind");
  const KindSignature &sig = signature(*tag);
  OpKind k{*tag, std::vector<std::vector<std::uint64_t>>(sig.params.size())};
  std::vector<bool> have(sig.params.size(), false);
  for (auto &p : params) {
    std::size_t i = 0;
    while (i < sig.params.size() && sig.params[i].name != p.name)
      ++i;
    if (i == sig.params.size())
      failAtPointer(pointer() + "/" + pointerToken(p.name),
                    "kind " + quote(spelling(*tag)) + " has no parameter " + quote(p.name));
    const bool wantArray = sig.params[i].type == ParamType::naturals;
    if (wantArray != p.isArray)
      failAtPointer(
          pointer() + "/" + pointerToken(p.name),
          "parameter " + quote(p.name) + " of kind " + quote(spelling(*tag)) +
              (wantArray ? " must be an array of naturals" : " must be a natural number"));
    k.params[i] = std::move(p.values);
    have[i] = true;
  }
  for (std::size_t i = 0; i < sig.params.size(); ++i)
    if (!have[i])
      fail(start,
           "missing parameter " + quote(sig.params[i].name) + " of kind " + quote(spelling(*tag)));
  return interner->intern(std::move(k));
}

std::string opMessage(BackendOp op) { return quote(spelling(op)); }

// --- GraphExecutionPlan ------------------------------------------------------------------------

constexpr std::string_view kPlanFields[] = {"format", "version", "capsules", "kernels"};
constexpr std::string_view kKernelFields[] = {"nodeId", "kind", "op", "capsule"};

CapsuleId Reader::capsuleRef(od::value &x, const KeyTable *table, std::optional<std::string> &key) {
  od::json_type t;
  if (auto err = x.type().get(t))
    failSimd(err, location(x));
  if (t == od::json_type::object)
    return interner->intern(capsule(x, CapsuleShape::capsule));
  const char *at = location(x);
  std::string_view s = string(x, "a capsule key or an inline capsule");
  if (table && s == lastKey_ && lastKeyTable_ == table)
    return lastKeyId_; // a run of kernels names the same key: look it up once
  if (!table) {
    key = std::string(s);
    return CapsuleId{};
  }
  auto it = table->find(s);
  if (it == table->end())
    fail(at, "capsule key " + quote(s) + " is not in the capsules table");
  lastKey_ = it->first;
  lastKeyTable_ = table;
  lastKeyId_ = it->second;
  return it->second;
}

PlannedNodeKernel Reader::kernel(od::value &kv, const KeyTable *table,
                                 std::optional<std::string> &key) {
  PlannedNodeKernel k;
  fields(kv, "a kernel",
         FieldSet{kKernelFields, fieldBits(kKernelFields, {"nodeId", "kind", "op", "capsule"})},
         [&](std::size_t f, od::value x) {
           if (f == 0)
             k.nodeId = natural(x, "a nodeId", kNodeIdLimit);
           else if (f == 1)
             k.kind = kind(x);
           else
             opOrCapsule(f, x, k.op, k.capsule, table, key);
         });
  // "A valid plan also has ... `op` equal to the op its kind maps to".
  const OpKind &kd = interner->kind(k.kind);
  auto mapped = opOf(kd);
  if (!mapped)
    failAtPointer(pointer() + "/kind",
                  "kind " + quote(spelling(kd.tag)) + " has no runtime work and is never planned");
  if (*mapped != k.op)
    failAtPointer(pointer() + "/op", "op " + opMessage(k.op) + " is not the op of kind " +
                                         quote(spelling(kd.tag)) + ", which maps to " +
                                         opMessage(*mapped));
  return k;
}

} // namespace

GraphExecutionPlan readExecutionPlan(const Source &source, Interner &interner) {
  Reader r(source, &interner);
  GraphExecutionPlan plan;
  std::optional<KeyTable> table;
  std::vector<PendingKey> pending;

  // `capsulePointer()` spells the pointer to the kernel's capsule, only for a message.
  auto checkCapsuleOp = [&](std::size_t i, auto &&capsulePointer) {
    const auto &k = plan.kernels[i];
    const KernelCapsule &c = interner.capsule(k.capsule);
    if (c.op != k.op)
      r.failAtPointer(capsulePointer(), "capsule " + quote(c.name) + " implements op " +
                                            opMessage(c.op) + ", but the kernel's op is " +
                                            opMessage(k.op));
  };

  r.rootFields("a GraphExecutionPlan", FieldSet{kPlanFields, fieldBits(kPlanFields, {"kernels"})},
               [&](std::size_t i, od::value v) {
                 switch (i) {
                 case 0: r.expectFormat(v, kPlanFormat); break;
                 case 1: r.expectVersion(v); break;
                 case 2: table = r.capsuleTable(v); break;
                 case 3: {
                   // No kernel is shorter than 48 bytes, so this is room for all of them; the
                   // pages never written are never resident, and the vector is never copied.
                   plan.kernels.reserve(source.text.size() / 48);
                   r.elements(v, "the kernels array", [&](od::value &kv, std::size_t index) {
                     std::optional<std::string> key;
                     plan.kernels.push_back(r.kernel(kv, table ? &*table : nullptr, key));
                     if (key)
                       pending.push_back({index, std::move(*key)});
                     else
                       checkCapsuleOp(index, [&] { return r.pointer() + "/capsule"; });
                   });
                   break;
                 }
                 }
               });

  r.resolvePending(
      pending, table ? &*table : nullptr, "kernels", "the plan", [&](std::size_t i, CapsuleId c) {
        plan.kernels[i].capsule = c;
        checkCapsuleOp(i, [&] { return "/kernels/" + std::to_string(i) + "/capsule"; });
      });

  // "unique nodeIds": a plan in increasing order needs no extra memory; any other is sorted.
  bool increasing = true;
  for (std::size_t i = 1; i < plan.kernels.size() && increasing; ++i)
    increasing = plan.kernels[i - 1].nodeId < plan.kernels[i].nodeId;
  if (!increasing) {
    std::vector<std::pair<NodeId, std::size_t>> ids;
    ids.reserve(plan.kernels.size());
    for (std::size_t i = 0; i < plan.kernels.size(); ++i)
      ids.emplace_back(plan.kernels[i].nodeId, i);
    std::sort(ids.begin(), ids.end());
    std::optional<std::pair<std::size_t, std::size_t>>
        dup; // (first, later) with the earliest later
    for (std::size_t i = 1; i < ids.size(); ++i)
      if (ids[i].first == ids[i - 1].first && (!dup || ids[i].second < dup->second))
        dup = std::pair{ids[i - 1].second, ids[i].second};
    if (dup)
      r.failAtPointer("/kernels/" + std::to_string(dup->second) + "/nodeId",
                      "duplicate nodeId " + std::to_string(plan.kernels[dup->second].nodeId) +
                          " (first at /kernels/" + std::to_string(dup->first) + "/nodeId)");
  }
  return plan;
}

// --- GraphLoweringPlan -------------------------------------------------------------------------

namespace {
constexpr std::string_view kLoweringFields[] = {"format",   "version", "mode", "equality",
                                                "capsules", "groups",  "audit"};
constexpr std::string_view kGroupFields[] = {"nodeIds", "kinds", "op", "capsule", "groupingKind"};
constexpr std::string_view kAuditFields[] = {"format",
                                             "version",
                                             "kernels",
                                             "capsuleNames",
                                             "trustLevels",
                                             "trustedExternalOps",
                                             "hasTrustedExternal"};
} // namespace

LoweredKernelGroup Reader::group(od::value &gv, const KeyTable *table,
                                 std::optional<std::string> &key) {
  LoweredKernelGroup g;
  fields(gv, "a group",
         FieldSet{kGroupFields,
                  fieldBits(kGroupFields, {"nodeIds", "kinds", "op", "capsule", "groupingKind"})},
         [&](std::size_t f, od::value x) {
           switch (f) {
           case 0: g.nodeIds = naturals(x, "nodeIds", kNodeIdLimit); break;
           case 1: elements(x, "kinds", [&](od::value &kv) { g.kinds.push_back(kind(kv)); }); break;
           case 4: g.groupingKind = enumValue<GroupingKind>(x); break;
           default: opOrCapsule(f, x, g.op, g.capsule, table, key);
           }
         });
  return g;
}

LoweringDocument readLoweringPlan(const Source &source, Interner &interner) {
  Reader r(source, &interner);
  LoweringDocument out;
  std::optional<KeyTable> table;
  std::vector<PendingKey> pending;

  auto readAudit = [&](od::value v) {
    AuditDocument a;
    r.fields(v, "an ExecutionAudit",
             FieldSet{kAuditFields,
                      fieldBits(kAuditFields, {"kernels", "capsuleNames", "trustLevels",
                                               "trustedExternalOps", "hasTrustedExternal"})},
             [&](std::size_t i, od::value x) {
               switch (i) {
               case 0: r.expectFormat(x, kAuditFormat); break;
               case 1: r.expectVersion(x); break;
               case 2:
                 r.elements(x, "the audit rows", [&](od::value &row) {
                   a.audit.kernels.push_back(KernelAudit{
                       interner.intern(r.capsule(row, Reader::CapsuleShape::auditRow))});
                 });
                 break;
               case 3:
                 r.elements(x, "capsuleNames", [&](od::value &s) {
                   a.capsuleNames.emplace_back(r.string(s, "a capsule name"));
                 });
                 break;
               case 4:
                 r.elements(x, "trustLevels", [&](od::value &s) {
                   a.trustLevels.push_back(r.enumValue<TrustLevel>(s));
                 });
                 break;
               case 5:
                 r.elements(x, "trustedExternalOps", [&](od::value &s) {
                   a.trustedExternalOps.push_back(r.enumValue<BackendOp>(s));
                 });
                 break;
               case 6: a.hasTrustedExternal = r.boolean(x, "hasTrustedExternal"); break;
               }
             });
    out.audit = std::move(a);
  };

  r.rootFields("a GraphLoweringPlan",
               FieldSet{kLoweringFields, fieldBits(kLoweringFields, {"groups"})},
               [&](std::size_t i, od::value v) {
                 switch (i) {
                 case 0: r.expectFormat(v, kLoweringFormat); break;
                 case 1: r.expectVersion(v); break;
                 case 2: out.mode = r.enumValue<Mode>(v); break;
                 case 3: out.equality = r.enumValue<Equality>(v); break;
                 case 4: table = r.capsuleTable(v); break;
                 case 5: {
                   r.elements(v, "the groups array", [&](od::value &gv, std::size_t index) {
                     std::optional<std::string> key;
                     out.plan.groups.push_back(r.group(gv, table ? &*table : nullptr, key));
                     if (key)
                       pending.push_back({index, std::move(*key)});
                   });
                   break;
                 }
                 case 6: readAudit(v); break;
                 }
               });

  r.resolvePending(pending, table ? &*table : nullptr, "groups", "the file",
                   [&](std::size_t i, CapsuleId c) { out.plan.groups[i].capsule = c; });
  return out;
}

// --- Lines of a stream (ref/io/stream.hpp) ----------------------------------------------------

namespace {
constexpr std::string_view kStreamHeaderFields[] = {"format", "version", "capsules", "mode",
                                                    "equality"};
} // namespace

struct LineReader::Impl {
  Source line;
  od::parser parser;
  Interner *interner = nullptr;
  std::optional<KeyTable> table;
  std::vector<std::pair<std::string, CapsuleId>> order;

  /// Copies a line into a buffer with simdjson's padding.
  const Source &load(std::string_view text) {
    line.text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    line.text.assign(text);
    return line;
  }
};

LineReader::LineReader(std::string name, Interner &interner) : impl_(std::make_unique<Impl>()) {
  impl_->line.name = std::move(name);
  impl_->interner = &interner;
}

LineReader::~LineReader() = default;

const std::vector<std::pair<std::string, CapsuleId>> &
LineReader::readHeader(std::string_view text, std::size_t lineNumber, std::string_view format,
                       StreamDeclaration *declared) {
  Reader r(impl_->load(text), impl_->interner, &impl_->parser, lineNumber - 1);
  // A plan stream's header has format, version and capsules; a lowering stream's also mode and
  // equality.
  const std::size_t fields = declared ? 5 : 3;
  r.rootFields(
      "a stream header",
      FieldSet{std::span(kStreamHeaderFields, fields), fieldBits(kStreamHeaderFields, {"format"})},
      [&](std::size_t i, od::value v) {
        switch (i) {
        case 0: r.expectFormat(v, format); break;
        case 1: r.expectVersion(v); break;
        case 2: impl_->table = r.capsuleTable(v, &impl_->order); break;
        case 3: declared->mode = r.enumValue<Mode>(v); break;
        case 4: declared->equality = r.enumValue<Equality>(v); break;
        }
      });
  return impl_->order;
}

namespace {

/// One record line (a kernel or a group) read by `read(reader, value, table, key)`; then
/// `validate(reader, record)` for what is checked after the shape. A capsule key needs the
/// header's table.
template <class Impl, class Read, class Validate>
auto readRecord(Impl &impl, std::string_view text, std::size_t lineNumber, Read &&read,
                Validate &&validate) {
  Reader r(impl.load(text), impl.interner, &impl.parser, lineNumber - 1);
  od::value v;
  if (auto err = r.doc().get_value().get(v))
    r.failSimd(err, nullptr);
  std::optional<std::string> key;
  auto record = read(r, v, impl.table ? &*impl.table : nullptr, key);
  r.expectEnd();
  if (key) // read only when the header has no table
    r.capsuleOfKey("/capsule", *key, nullptr, "the stream header");
  validate(r, record);
  return record;
}

} // namespace

LoweredKernelGroup LineReader::readGroup(std::string_view text, std::size_t lineNumber) {
  return readRecord(
      *impl_, text, lineNumber,
      [](Reader &r, od::value &v, const KeyTable *table, std::optional<std::string> &key) {
        return r.group(v, table, key);
      },
      [](Reader &, const LoweredKernelGroup &) {});
}

PlannedNodeKernel LineReader::readKernel(std::string_view text, std::size_t lineNumber) {
  return readRecord(
      *impl_, text, lineNumber,
      [](Reader &r, od::value &v, const KeyTable *table, std::optional<std::string> &key) {
        return r.kernel(v, table, key);
      },
      [&](Reader &r, const PlannedNodeKernel &k) {
        const KernelCapsule &c = impl_->interner->capsule(k.capsule);
        if (c.op != k.op)
          r.failAtPointer("/capsule", "capsule " + quote(c.name) + " implements op " +
                                          opMessage(c.op) + ", but the kernel's op is " +
                                          opMessage(k.op));
      });
}

// --- Sources and detection ---------------------------------------------------------------------

Source loadSource(const std::string &path) {
  InputFile f(path);
  Source s;
  s.name = f.name();
  // A regular file over the size limit is rejected before it is read.
  if (f.regular() && f.size() > kMaxDocumentBytes)
    throw InputError(s.name, 1, 1, "", "document is larger than the limit of 4 GiB");
  int error = 0;
  auto failIfError = [&](std::size_t at) { // placed after the bytes read so far
    if (error) {
      auto [line, column] = lineColumn(s.text, at);
      f.readFailed(error, line, column);
    }
  };
  // A regular file is read straight into one buffer of its size and simdjson's padding: no
  // regrowing, no second copy (for a large plan, most of the cost of loading it).
  if (f.regular() && f.size() > 0) {
    const auto size = static_cast<std::size_t>(f.size());
    s.text.reserve(size + simdjson::SIMDJSON_PADDING);
    s.text.resize(size);
    std::size_t got = 0;
    while (got < size) {
      const std::size_t n = f.readSome(s.text.data() + got, size - got, error);
      failIfError(got);
      if (n == 0)
        break; // the file shrank while it was read
      got += n;
    }
    s.text.resize(got);
  }
  char buf[1 << 16];
  for (;;) {
    const std::size_t n = f.readSome(buf, sizeof buf, error);
    failIfError(s.text.size());
    if (n == 0)
      break;
    if (s.text.size() + n > kMaxDocumentBytes)
      throw InputError(s.name, 1, 1, "", "document is larger than the limit of 4 GiB");
    s.text.append(buf, n);
  }
  s.text.reserve(s.text.size() + simdjson::SIMDJSON_PADDING);
  return s;
}

Source sourceFromString(std::string name, std::string_view text) {
  Source s{std::move(name), {}};
  s.text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  s.text.assign(text);
  return s;
}

DocumentKind detectDocumentKind(const Source &source) {
  Reader r(source);
  // Through the root value, as the readers do: trailing data is then the reader's to report.
  od::value root;
  od::object obj;
  if (auto err = r.doc().get_value().get(root))
    r.failSimd(err, nullptr);
  if (auto err = root.get_object().get(obj)) {
    if (err == simdjson::INCORRECT_TYPE)
      r.failAtOffset(0, "", "expected a GraphExecutionPlan or a GraphLoweringPlan (a JSON object)");
    r.failSimd(err, nullptr);
  }
  std::optional<DocumentKind> byKey;
  for (auto result : obj) {
    od::field field;
    if (auto err = std::move(result).get(field))
      r.failSimd(err, nullptr);
    std::string_view key;
    if (auto err = field.unescaped_key().get(key))
      r.failSimd(err, nullptr);
    if (key == "format") {
      std::string_view f;
      if (!field.value().get_string().get(f)) {
        if (f == kPlanFormat)
          return DocumentKind::executionPlan;
        if (f == kLoweringFormat)
          return DocumentKind::loweringPlan;
      }
      r.failAtPointer("/format",
                      "format is neither " + quote(kPlanFormat) + " nor " + quote(kLoweringFormat));
    }
    if (key == "kernels" && !byKey)
      byKey = DocumentKind::executionPlan;
    if (key == "groups" && !byKey)
      byKey = DocumentKind::loweringPlan;
  }
  if (!byKey)
    r.failAtOffset(
        0, "",
        "neither a GraphExecutionPlan (no \"kernels\") nor a GraphLoweringPlan (no \"groups\")");
  return *byKey;
}

} // namespace lo::io
