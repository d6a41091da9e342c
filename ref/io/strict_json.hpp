// The strict JSON layer of every reader (simdjson On-Demand): what docs/spec.md §2.1 asks of any
// document, whatever its shape. Objects are read against named field tables (an unknown or a
// repeated field is an error, a missing required one too), numbers are whole where a natural is
// expected, strings are UTF-8 without raw control characters and at most kMaxStringBytes long,
// nesting is at most kMaxDepth levels, and nothing may follow the document. Every rejection is an
// InputError with the source's name, the line and column, and the JSON pointer of the value
// (docs/spec.md §4.5, docs/errors.md).
//
// The document readers (ref/io/reader.cpp, ref/io/contract_reader.cpp) and the readers of the
// tools' own files (a gate result, a suite manifest, a worker's answer) are built on it.
#pragma once

#include "ref/edition.hpp"
#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/source.hpp"
#include "ref/vocab.hpp"

#include <simdjson.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lo::io {

namespace od = simdjson::ondemand;

/// `parseSpelling`, by a hash table built once per vocabulary: a reader looks up an op and a kind
/// for every kernel, and a scan compares the text with up to 46 spellings.
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

// quote(): ref/io/escape.hpp.

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

/// The bit of field `i` of a field table.
constexpr std::uint32_t fieldBit(std::size_t i) { return std::uint32_t{1} << i; }

/// The bits of the first `n` fields of a field table: every field of a table of `n`, required.
constexpr std::uint32_t allFieldBits(std::size_t n) { return fieldBit(n) - 1; }

/// The bytes of index pages the readers of this process have given back so far (JsonReader's
/// array loops; docs/performance.md, "Hostile inputs").
std::size_t indexBytesReleased();

/// The elements of the array whose `[` is at `at` (before `end`), counted in its text when it
/// holds only numbers; else 0 (the array is then read into a growing vector, and refused at its
/// first element that is not a natural).
inline std::size_t numberCount(const char *at, const char *end) {
  if (!at || at >= end || *at != '[')
    return 0;
  std::size_t commas = 0;
  bool any = false;
  for (const char *p = at + 1; p < end; ++p) {
    const char c = *p;
    if (c == ']')
      return any ? commas + 1 : 0;
    if (c == ',')
      ++commas;
    else if ((c >= '0' && c <= '9') || c == '-')
      any = true;
    else if (c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '.' && c != 'e' && c != 'E' &&
             c != '+')
      return 0;
  }
  return 0;
}

/// One JSON document read strictly. Every `fail*` throws an InputError.
class JsonReader {
public:
  /// Reads `source` with its own parser.
  explicit JsonReader(const Source &source) : JsonReader(source, nullptr, 0) {}

  /// Reads `source` with `parser` when given (one parser reused for the lines of a stream, grown
  /// when a line needs it); `lineBase` is added to the line numbers of messages.
  JsonReader(const Source &source, od::parser *parser, std::size_t lineBase);

  JsonReader(const JsonReader &) = delete;
  JsonReader &operator=(const JsonReader &) = delete;

  [[noreturn]] void failAtOffset(std::size_t offset, std::string pointer, std::string message);

  /// Fails at a location inside the document, with the current JSON pointer.
  [[noreturn]] void fail(const char *at, std::string message);

  /// Fails at the value a pointer names, found again by a fresh pass (used for the checks that can
  /// be made only after the value was read: its position is needed only when there is an error).
  [[noreturn]] void failAtPointer(const std::string &pointer, std::string message);

  /// Fails with simdjson's error `err`, in words, at `at` (null: where the reader stands).
  [[noreturn]] void failSimd(simdjson::error_code err, const char *at);

  /// Where `v` starts in the document, or null.
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

  /// Steps into a field (or an element) for as long as it lives.
  struct Enter {
    JsonReader &r;
    Enter(JsonReader &reader, std::string_view key) : r(reader) { r.push({key, 0, false}); }
    Enter(JsonReader &reader, std::size_t index) : r(reader) { r.push({{}, index, true}); }
    ~Enter() { --r.depth_; }
    Enter(const Enter &) = delete;
  };

  /// The JSON pointer of the current value.
  std::string pointer() const;

  /// Whether the key that starts at `raw` (after its quote) is `name`, written without escapes.
  /// The document's padding makes reading past its end safe.
  static bool rawKeyIs(const char *raw, std::string_view name) {
    // Names are a few bytes: compared in place, not through a call to memcmp.
    for (std::size_t i = 0; i < name.size(); ++i)
      if (raw[i] != name[i])
        return false;
    return raw[name.size()] == '"';
  }

  /// A field's key, read in place when it has no escape (the common case), else unescaped.
  std::string_view key(od::field &field) {
    const char *raw = field.key().raw();
    const char *end = bytes().data() + bytes().size();
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
        fail(location(v), expected(what, shape));
      failSimd(err, location(v));
    }
    return out;
  }

  /// "expected WHAT (SHAPE)", or "expected SHAPE" when SHAPE begins with WHAT (an element read as
  /// "a natural number" is not "a natural number (a natural number)").
  static std::string expected(std::string_view what, std::string_view shape) {
    if (shape.substr(0, what.size()) == what)
      return "expected " + std::string(shape);
    return "expected " + std::string(what) + " (" + std::string(shape) + ")";
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
        fail(location(v), expected(what, "a string"));
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

  /// The value's text as written, cut after 40 bytes with "...", for a message.
  std::string token(od::value &v);

  /// A natural number (a whole number, no fraction or exponent, below 2^64); with `limit`, below
  /// it (2^63: "below 2^63" in the message).
  std::uint64_t natural(od::value &v, std::string_view what, std::uint64_t limit = 0) {
    std::uint64_t n = 0;
    // Where the number starts, taken only when it can be needed: a failed read stays at it.
    const char *at = limit ? location(v) : nullptr;
    if (v.get_uint64().get(n))
      failNatural(v, at ? at : location(v), what, limit);
    if (limit && n >= limit)
      fail(at, "expected " + std::string(what) + " below 2^63, found " + std::to_string(n));
    return n;
  }

  /// Calls `each(value)` for every element of an array, with the JSON pointer at the element;
  /// `each(value, index)` when it takes the index too.
  template <class F> void elements(od::value &v, std::string_view what, F &&each) {
    std::size_t i = 0;
    od::array a = array(v, what);
    Behind behind(iter_->position());
    for (auto item : a) {
      if (address(iter_->position()) >= behind.done + kIndexReleaseBytes && keep_ == 0)
        releaseBehind(behind);
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

  /// `keyedFields` over an object already entered (`object`), which `rewind` can read again.
  template <class F> void objectFields(od::object &obj, F &&each) {
    for (auto result : obj) {
      od::field field;
      if (auto err = std::move(result).get(field))
        failSimd(err, nullptr);
      const char *keyAt = field.key().raw() - 1;
      // In place when the key has no escape: read twice after `rewind`, a key is unescaped into
      // the parser's string buffer only when it has an escape.
      const std::string_view key = this->key(field);
      Enter e(*this, key);
      each(keyAt, key, field.value());
    }
  }

  /// While it lives, no array's loop gives back index pages (elements): an object read twice
  /// (`rewind`) holds one from before its first read to its rewind.
  struct KeepIndex {
    JsonReader &r;
    explicit KeepIndex(JsonReader &reader) : r(reader) { ++r.keep_; }
    ~KeepIndex() { --r.keep_; }
    KeepIndex(const KeepIndex &) = delete;
  };

  /// Back to the first field of `obj`, to read it again (the values not read the first time were
  /// skipped, never materialised); `kept` has held the index since `obj` was entered.
  void rewind(od::object &obj, const KeepIndex &kept) {
    (void)kept;
    bool empty = false;
    if (auto err = obj.reset().get(empty))
      failSimd(err, nullptr);
  }

  /// An array of naturals, held at 8 bytes an element: the elements are counted in the text
  /// first (numberCount), then read into a list of that size (a vector, a NodeIdList), each
  /// checked as it comes.
  template <class List = std::vector<std::uint64_t>>
  List naturals(od::value &v, std::string_view what, std::uint64_t limit = 0) {
    List out;
    out.reserve(numberCount(location(v)));
    elements(v, what, [&](od::value &x) { out.push_back(natural(x, "a natural number", limit)); });
    return out;
  }

  std::size_t numberCount(const char *at) const {
    return io::numberCount(at, bytes().data() + bytes().size());
  }

  /// The edition the document is judged by (docs/spec.md §1.6): the reader's caller chooses it,
  /// never the document.
  Edition edition() const { return edition_; }
  void setEdition(Edition e) { edition_ = e; }

  /// A value of a vocabulary, spelled as ref/vocab.hpp spells it and in the reader's edition;
  /// `what` names the expected string in a type error. A value of another edition is refused with
  /// the edition it fits ("... valid in edition 2026-07: use --edition 2026-07").
  template <class E> E enumValue(od::value &v, std::string_view what = Vocabulary<E>::name) {
    const char *at = location(v);
    std::string_view s = string(v, what);
    if (auto e = lookupSpelling<E>(s)) {
      if (inEdition(*e, edition_))
        return *e;
      notInEdition(at, Vocabulary<E>::name, s, editionsOf(*e));
    }
    fail(at, "unknown " + std::string(Vocabulary<E>::name) + " " + quote(s) +
                 "; expected one of: " + joinedSpellings<E>(edition_));
  }

  /// Fails: `what` `text` is a spelling of editions `fits`, not of the reader's edition.
  [[noreturn]] void notInEdition(const char *at, std::string_view what, std::string_view text,
                                 EditionSet fits);

  /// Iterates an object's fields, checking them against `fields`; `onField(index, value)` reads
  /// each. Unknown and repeated names are rejected; a missing required one is reported at the end.
  /// Returns the fields present (bit i: `set.names[i]`).
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
      if (index == set.names.size())
        failUnknownField(keyAt, key, what, set);
      if (seen & fieldBit(index))
        fail(keyAt, "duplicate field " + quote(key) + " in " + std::string(what));
      seen |= fieldBit(index);
      onField(index, field.value());
    }
    std::uint32_t missing = set.required & ~seen;
    if (missing) {
      std::size_t index = static_cast<std::size_t>(std::countr_zero(missing));
      fail(start, "missing field " + quote(set.names[index]) + " in " + std::string(what));
    }
    return seen;
  }

  /// `fields` on the root value, then nothing after it (expectEnd).
  template <class F> void rootFields(std::string_view what, const FieldSet &set, F &&onField) {
    od::value rootValue;
    if (auto err = doc_.get_value().get(rootValue))
      failSimd(err, nullptr);
    fields(rootValue, what, set, onField);
    expectEnd();
  }

  /// rootFields for a document whose fields 0 and 1 are `format` (expectFormat) and `version`
  /// (expectVersion), checked here; `onField(i, value)` reads the others.
  template <class F>
  void documentFields(std::string_view what, std::string_view format, const FieldSet &set,
                      F &&onField) {
    rootFields(what, set, [&](std::size_t i, od::value v) {
      if (i == 0)
        expectFormat(v, format);
      else if (i == 1)
        expectVersion(v);
      else
        onField(i, std::move(v));
    });
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
    const std::uint32_t wrong = ((required & ~seen) | (seen & ~allowed)) & ~fieldBit(0);
    if (!wrong)
      return;
    const auto i = static_cast<std::size_t>(std::countr_zero(wrong));
    if (!(seen & fieldBit(i)))
      fail(start, "missing field " + quote(names[i]) + " in " + what());
    failAtPointer(pointer() + "/" + std::string(names[i]),
                  "field " + quote(names[i]) + " does not belong to " + what());
  }

  /// `format` must be the string `format`.
  void expectFormat(od::value &v, std::string_view format);

  /// `version` must be 1.
  void expectVersion(od::value &v);

  /// After the root value, any further token is trailing data (a second document, say).
  void expectEnd();

  od::document &doc() { return doc_; }
  /// The document's bytes.
  std::string_view bytes() const { return source_.text; }

private:
  /// "expected WHAT (a natural number...), found TOKEN".
  [[noreturn]] void failNatural(od::value &v, const char *at, std::string_view what,
                                std::uint64_t limit);
  [[noreturn]] void failUnknownField(const char *keyAt, std::string_view key, std::string_view what,
                                     const FieldSet &set);
  std::size_t lastOffset();
  /// Where the value `pointer` names starts, or null. Keys are compared unescaped (simdjson's
  /// at_pointer compares them as written, so a key with an escape on the path was not found).
  static const char *locate(od::document &d, std::string_view pointer);

  static std::uintptr_t address(const std::uint32_t *token) {
    return reinterpret_cast<std::uintptr_t>(token);
  }
  /// Index bytes kept behind the token the reader stands at (what simdjson may look back at).
  static constexpr std::uintptr_t kKeepBytes = 64 * sizeof(std::uint32_t);
  /// The part of an array's index its loop may give back, by address: from kKeepBytes after its
  /// first element's first token up to `done`, given back so far.
  struct Behind {
    explicit Behind(const std::uint32_t *first) : done(address(first) + kKeepBytes) {}
    std::uintptr_t done;
  };
  /// Gives back the whole index pages from `b.done` to kKeepBytes before the current token.
  void releaseBehind(Behind &b);

  const Source &source_;
  std::unique_ptr<simdjson::padded_string> owned_;
  simdjson::padded_string_view view_;
  od::parser ownParser_;
  od::parser *parser_;
  std::size_t lineBase_ = 0;
  Edition edition_ = kNewestEdition;
  od::document doc_;
  /// doc_'s iterator: where the reader stands in the index (a member simdjson keeps private).
  const od::json_iterator *iter_ = nullptr;
  std::size_t keep_ = 0; // KeepIndex guards alive
  // One step per level of nesting, and simdjson stops at kMaxDepth levels.
  std::array<Step, kMaxDepth + 2> path_;
  std::size_t depth_ = 0;
  void push(Step s) {
    if (depth_ == path_.size()) [[unlikely]]
      failTooDeep();
    path_[depth_++] = s;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void failTooDeep();
};

} // namespace lo::io
