#include "ref/io/strict_json.hpp"

#include "ref/io/density.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/input.hpp"

#include <algorithm>
#include <charconv>

#include <atomic>
#include <sys/mman.h>

namespace lo::io {

namespace {

// simdjson keeps a document's iterator (where it stands in the structural index) private. An
// explicit instantiation may name a private member ([temp.spec.general]): `iteratorOf` returns
// the pointer to it. Written for simdjson 3.0; another version is checked again before use.
static_assert(simdjson::SIMDJSON_VERSION_MAJOR == 3 && simdjson::SIMDJSON_VERSION_MINOR == 0,
              "JsonReader reads simdjson 3.0's document iterator: check it for this version");
struct DocumentIterator {
  using Member = od::json_iterator od::document::*;
  friend Member iteratorOf(DocumentIterator);
};
template <class Tag, typename Tag::Member M> struct Expose {
  friend typename Tag::Member iteratorOf(Tag) { return M; }
};
template struct Expose<DocumentIterator, &od::document::iter>;

std::atomic<std::size_t> indexReleased{0};

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

} // namespace

JsonReader::JsonReader(const Source &source, od::parser *parser, std::size_t lineBase)
    : source_(source), parser_(parser ? parser : &ownParser_), lineBase_(lineBase) {
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
  if (source.text.size() > kDenseFloorBytes) {
    const std::size_t tokens = jsonTokens(source.text);
    if (denserThanLimit(tokens, source.text.size()))
      failAtOffset(0, "",
                   "document too dense: " + std::to_string(tokens) + " JSON tokens in " +
                       std::to_string(source.text.size()) + " bytes, above the limit of " +
                       std::to_string(kMaxTokensPerEightBytes) +
                       " in every 8 bytes for a document longer than " +
                       std::to_string(kDenseFloorBytes >> 20) + " MiB");
  }
  const std::size_t capacity = std::max<std::size_t>(source.text.size(), 64);
  if (parser_->capacity() < capacity || parser != parser_)
    if (auto err = parser_->allocate(
            parser ? std::max(capacity, 2 * parser_->capacity()) : capacity, kMaxDepth))
      throw InputError(source.name,
                       std::string("cannot allocate the parser: ") + simdjson::error_message(err));
  if (auto err = parser_->iterate(view_).get(doc_))
    // The document is not open: place the error at the bad byte (UTF-8) or at its start.
    failSimd(err, source.text.data() + (err == simdjson::UTF8_ERROR ? firstInvalidUtf8(source.text)
                                        : err == simdjson::UNESCAPED_CHARS
                                            ? firstRawControlInString(source.text)
                                            : 0));
  iter_ = &(doc_.*iteratorOf(DocumentIterator{}));
}

std::size_t indexBytesReleased() { return indexReleased.load(std::memory_order_relaxed); }

void JsonReader::releaseBehind(Behind &b) {
  constexpr std::uintptr_t page = 4096;
  const std::uintptr_t from = (b.done + page - 1) & ~(page - 1);
  const std::uintptr_t to = (address(iter_->position()) - kKeepBytes) & ~(page - 1);
  if (to <= from)
    return;
  // The pages hold only tokens of this array's elements before the current one: no reader and no
  // simdjson call looks at them again, and a page given back reads as zeros if one did.
  if (::madvise(reinterpret_cast<void *>(from), to - from, MADV_DONTNEED) == 0)
    indexReleased.fetch_add(to - from, std::memory_order_relaxed);
  b.done = to;
}

void JsonReader::notInEdition(const char *at, std::string_view what, std::string_view text,
                              EditionSet fits) {
  fail(at, std::string(what) + " " + quote(text) + " is not in edition " +
               std::string(spelling(edition_)) + "; " + editionHint(fits, edition_));
}

void JsonReader::failAtOffset(std::size_t offset, std::string pointer, std::string message) {
  auto [line, column] = lineColumn(source_.text, offset);
  throw InputError(source_.name, line + lineBase_, column, std::move(pointer), std::move(message));
}

void JsonReader::failTooDeep() {
  fail(nullptr, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
}

void JsonReader::fail(const char *at, std::string message) {
  std::size_t offset = at ? static_cast<std::size_t>(at - source_.text.data()) : lastOffset();
  failAtOffset(offset, pointer(), std::move(message));
}

void JsonReader::failAtPointer(const std::string &pointer, std::string message) {
  // The reader's own parser indexes the document again (a second parser would hold a second
  // index beside the first): nothing reads the first pass's document after a failure.
  std::size_t offset = 0;
  od::document d;
  if (!parser_->iterate(view_).get(d))
    if (const char *at = locate(d, pointer))
      offset = static_cast<std::size_t>(at - source_.text.data());
  failAtOffset(offset, pointer, std::move(message));
}

const char *JsonReader::locate(od::document &d, std::string_view pointer) {
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

void JsonReader::failSimd(simdjson::error_code err, const char *at) {
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

std::size_t JsonReader::lastOffset() {
  const char *at = nullptr;
  if (!doc_.current_location().get(at))
    return static_cast<std::size_t>(at - source_.text.data());
  return source_.text.size();
}

std::string JsonReader::pointer() const {
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

std::string JsonReader::token(od::value &v) {
  std::string_view raw = v.raw_json_token();
  while (!raw.empty() &&
         (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\t' || raw.back() == '\r'))
    raw.remove_suffix(1);
  if (raw.size() > kMaxTokenBytes)
    return std::string(raw.substr(0, kMaxTokenBytes)) + "...";
  return std::string(raw);
}

void JsonReader::failNatural(od::value &v, const char *at, std::string_view what,
                             std::uint64_t limit) {
  od::json_type type;
  if (!v.type().get(type) && type == od::json_type::number && limit)
    fail(at, expected(what, "a natural number below 2^63") + ", found " + token(v));
  fail(at, expected(what, "a natural number") + ", found " + token(v));
}

void JsonReader::failUnknownField(const char *keyAt, std::string_view key, std::string_view what,
                                  const FieldSet &set) {
  std::string expected;
  for (auto n : set.names)
    expected += (expected.empty() ? "" : ", ") + std::string(n);
  fail(keyAt, "unknown field " + quote(key) + " in " + std::string(what) +
                  "; expected one of: " + expected);
}

void JsonReader::expectFormat(od::value &v, std::string_view format) {
  const char *at = location(v);
  std::string_view s = string(v, "format");
  if (s != format)
    fail(at, "format is " + quote(s) + ", expected " + quote(format));
}

void JsonReader::expectVersion(od::value &v) {
  const char *at = location(v);
  std::uint64_t n = natural(v, "version");
  if (n != 1)
    fail(at, "version " + std::to_string(n) + " is not supported; expected 1");
}

void JsonReader::expectEnd() {
  const char *at = nullptr;
  if (!doc_.current_location().get(at))
    fail(at, "trailing data after the JSON document");
}

// --- Sources -------------------------------------------------------------------------------------

void loadSource(const std::string &path, Source &s) {
  InputFile f(path);
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
  // regrowing, no second copy (for a large plan, most of the cost of loading it). The buffer `s`
  // has is kept when it is large enough: its pages are not faulted in and zeroed again, and only
  // what lies beyond its old length is zeroed before it is read over.
  if (f.regular() && f.size() > 0) {
    const auto size = static_cast<std::size_t>(f.size());
    if (s.text.capacity() < size + simdjson::SIMDJSON_PADDING) {
      std::string().swap(s.text); // not copied into the larger one
      s.text.reserve(size + simdjson::SIMDJSON_PADDING);
    }
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
  } else {
    s.text.clear();
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
}

Source loadSource(const std::string &path) {
  Source s;
  loadSource(path, s);
  return s;
}

Source sourceFromString(std::string name, std::string_view text) {
  Source s{std::move(name), {}};
  s.text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  s.text.assign(text);
  return s;
}

} // namespace lo::io
