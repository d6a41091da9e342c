// The scanner of the readers' direct path (docs/performance.md, "The direct path"; used by
// ref/io/direct_reader.cpp and ref/io/graph_reader.cpp): one pass over a document's text without
// simdjson's index, taking only what it judges exactly as the strict reader does and declining
// (`Decline`) on anything else. Internal to the readers.
#pragma once

#include "ref/io/density.hpp"
#include "ref/io/error.hpp"
#include "ref/io/reader_detail.hpp"
#include "ref/io/strict_json.hpp"
#include "ref/opkind.hpp"
#include "ref/record.hpp"

#include <array>
#include <cstring>
#include <optional>
#include <vector>

namespace lo::io::detail {

/// Thrown to decline a text; caught at the direct path's entry points, never outside them.
struct Decline {};

[[noreturn]] inline void decline() { throw Decline{}; }

/// The fewest bytes of a capsules table the direct path hands to the strict reader on its own
/// whatever the document's size; a larger table must be at most an eighth of the document (its
/// copy and index stay within the memory of docs/performance.md).
constexpr std::size_t kTableFloorBytes = std::size_t{64} << 10;
/// The entries of a set of a memo of texts read before (Scanner::SetMemo).
constexpr std::size_t kMemoWays = 4;
/// The texts after a kernel's node id (a group's node ids) kept for the next ones (Scanner::Tails):
/// 2^kTailSetBits sets, chosen by the first kTailKeyBytes bytes.
constexpr unsigned kTailSetBits = 8;
constexpr std::size_t kTailKeyBytes = 32;
/// The most numbers a text with holes (Scanner::Holed) has holes for.
constexpr std::size_t kMostHoles = 8;
/// The text `{"NAME":` that opens an object whose first key is NAME: its JSON tokens.
constexpr std::size_t kOpeningTokens = 3;

/// What `read()` gives, or nothing when it declines, or when the strict reader refuses a part it
/// was handed on its own: the direct path's entry points.
template <class Read> auto declinable(Read &&read) -> std::optional<decltype(read())> {
  try {
    return read();
  } catch (const Decline &) {
  } catch (const InputError &) {
  }
  return std::nullopt;
}

/// The cursor over one document's text, the tokens it has read (for the density limit), and the
/// memos of what repeats.
class Scanner {
public:
  /// Where the cursor stands, and the tokens read so far: to measure from.
  struct Mark {
    const char *at;
    std::size_t tokens;
  };

  /// A kind read, and the JSON tokens of its text.
  struct KnownKind {
    KindId id{};
    std::size_t tokens = 0;
  };

  Scanner(const Source &source, Interner &interner, Edition edition)
      : source_(source), interner_(interner), edition_(edition), p_(source.text.data()),
        end_(source.text.data() + source.text.size()) {
    if (source.text.size() > kMaxDocumentBytes)
      decline();
    dense_ = source.text.size() > kDenseFloorBytes;
  }

  // --- Tokens ----------------------------------------------------------------------------------

  void ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t'))
      ++p_;
  }

  /// The structural character `c` after whitespace, else decline.
  void expect(char c) {
    ws();
    if (p_ == end_ || *p_ != c)
      decline();
    ++p_;
    ++tokens_;
  }

  /// Whether the structural character `c` follows (after whitespace); taken when it does.
  bool take(char c) {
    ws();
    if (p_ == end_ || *p_ != c)
      return false;
    ++p_;
    ++tokens_;
    return true;
  }

  /// A string without an escape or a control character: its bytes.
  std::string_view string() {
    ws();
    if (p_ == end_ || *p_ != '"')
      decline();
    const char *s = ++p_;
    const auto *close =
        static_cast<const char *>(std::memchr(s, '"', static_cast<std::size_t>(end_ - s)));
    if (!close)
      decline();
    bool plain = true; // no escape and no control character: a loop the compiler vectorises
    for (const char *q = s; q < close; ++q)
      plain &= *q != '\\' && static_cast<unsigned char>(*q) >= 0x20;
    if (!plain)
      decline();
    p_ = close + 1;
    ++tokens_;
    const std::string_view out(s, static_cast<std::size_t>(close - s));
    if (out.size() > kMaxStringBytes)
      decline();
    return out;
  }

  /// A natural below `limit`, written as digits without a leading zero and followed by what may
  /// follow a value in an object or an array.
  std::uint64_t natural(std::uint64_t limit) {
    ws();
    lastNumber_ = p_;
    std::uint64_t n = 0;
    if (!digitsAt(p_, limit, n))
      decline();
    if (p_ < end_ && *p_ != ',' && *p_ != '}' && *p_ != ']' && *p_ != ' ' && *p_ != '\n' &&
        *p_ != '\r' && *p_ != '\t')
      decline();
    ++tokens_;
    return n;
  }

  /// The digits of a natural at `at`, as natural takes them (at least one, no leading zero, at most
  /// 19: below 2^63 fits, and nothing longer does), below `limit`: then `n`, and `at` past them.
  bool digitsAt(const char *&at, std::uint64_t limit, std::uint64_t &n) const {
    const char *s = at;
    n = 0;
    while (at < end_ && *at >= '0' && *at <= '9') {
      if (at - s == 19)
        return false;
      n = n * 10 + static_cast<std::uint64_t>(*at - '0');
      ++at;
    }
    return at != s && !(*s == '0' && at - s > 1) && n < limit;
  }

  /// Where the digits of the last natural read start (natural).
  const char *lastNumber() const { return lastNumber_; }

  /// A text read before with holes where its numbers stood (Scanner::takeHoled): the text, and
  /// each hole's digits (offsets into it, in order) with the limit a number there must be below.
  struct Holed {
    std::string_view text;
    std::array<std::uint32_t, kMostHoles> begin{}, end{};
    std::array<std::uint64_t, kMostHoles> limit{};
    std::size_t holes = 0;
    std::size_t tokens = 0;
  };

  /// Whether the text at the cursor is `h.text` but for the numbers in its holes, each written as
  /// natural writes one and below its hole's limit; then taken, and the numbers are `numbers`.
  /// The text around each hole is the same, so its tokens are those of `h.text` with other numbers
  /// in them: it reads as `h.text` read, with these numbers.
  bool takeHoled(const Holed &h, std::array<std::uint64_t, kMostHoles> &numbers) {
    const char *at = p_;
    std::size_t from = 0;
    for (std::size_t i = 0; i <= h.holes; ++i) {
      const std::size_t to = i < h.holes ? h.begin[i] : h.text.size();
      const std::size_t n = to - from;
      if (static_cast<std::size_t>(end_ - at) < n || std::memcmp(at, h.text.data() + from, n) != 0)
        return false;
      at += n;
      if (i == h.holes)
        break;
      if (!digitsAt(at, h.limit[i], numbers[i]))
        return false;
      from = h.end[i];
    }
    p_ = at;
    tokens_ += h.tokens;
    return true;
  }

  /// A memo of texts read before, each entry with what its text gave: 2^`bits` sets of kMemoWays
  /// entries, the set chosen by the caller from the text (memoSlot), each set keeping its newest.
  template <class Entry> class SetMemo {
  public:
    explicit SetMemo(unsigned bits)
        : bits_(bits), entries_(kMemoWays << bits), next_(std::size_t{1} << bits) {}
    unsigned bits() const { return bits_; }
    std::span<const Entry> set(std::size_t s) const {
      return std::span(entries_).subspan(s * kMemoWays, kMemoWays);
    }
    /// Keeps `e` in set `s`, in place of the oldest there.
    void remember(std::size_t s, Entry e) {
      entries_[s * kMemoWays + next_[s]++ % kMemoWays] = std::move(e);
    }

  private:
    unsigned bits_;
    std::vector<Entry> entries_;
    std::vector<std::uint8_t> next_;
  };

  /// Texts with holes read before, each with what it gave (an empty text: no entry yet).
  template <class V> struct HoledEntry {
    Holed holed;
    V value{};
  };
  template <class V> using HoledTexts = SetMemo<HoledEntry<V>>;

  /// The entry of set `set` of `texts` whose text, but for its numbers, is at the cursor: taken,
  /// and its numbers in `numbers`; else null.
  template <class V>
  const HoledEntry<V> *takeHoledIn(const HoledTexts<V> &texts, std::size_t set,
                                   std::array<std::uint64_t, kMostHoles> &numbers) {
    for (const auto &e : texts.set(set))
      if (!e.holed.text.empty() && takeHoled(e.holed, numbers))
        return &e;
    return nullptr;
  }

  /// The holes of a text being read from `start`: `number(limit)` right after each natural that
  /// is a hole; `holed()` once the text is read (none when it had more than kMostHoles).
  class HoleRecorder {
  public:
    HoleRecorder(const Scanner &s, Mark start) : s_(s), start_(start) {}
    void number(std::uint64_t limit) {
      if (h_.holes == kMostHoles) {
        fits_ = false;
        return;
      }
      h_.begin[h_.holes] = static_cast<std::uint32_t>(s_.lastNumber() - start_.at);
      h_.end[h_.holes] = static_cast<std::uint32_t>(s_.mark().at - start_.at);
      h_.limit[h_.holes++] = limit;
    }
    std::size_t holes() const { return h_.holes; }
    std::optional<Holed> holed() const {
      if (!fits_)
        return std::nullopt;
      Holed out = h_;
      out.text = s_.since(start_);
      out.tokens = s_.tokensSince(start_);
      return out;
    }

  private:
    const Scanner &s_;
    Mark start_;
    Holed h_;
    bool fits_ = true;
  };

  /// A value of vocabulary `E` in the edition.
  template <class E> E enumValue() {
    const auto e = lookupSpelling<E>(string());
    if (!e || !inEdition(*e, edition_))
      decline();
    return *e;
  }

  /// The text of the object or array at the cursor, up to `longest` bytes (bracketedText; declines
  /// when longer or unclosed); the cursor moves past it.
  std::string_view compound(std::size_t longest) {
    ws();
    const std::string_view text = bracketedText(p_, end_, longest);
    if (text.empty())
      decline();
    p_ += text.size();
    return text;
  }

  /// The root object ends the text: whitespace only after it; then the density limit of
  /// docs/errors.md ("Limits"), with the tokens counted as they were read.
  void end() {
    ws();
    if (p_ != end_)
      decline();
    if (denserThanLimit(tokens_, source_.text.size()))
      decline();
  }

  // --- Values of the documents -----------------------------------------------------------------

  /// The `format` field: exactly `format`.
  void format(std::string_view format) {
    if (string() != format)
      decline();
  }

  /// The `version` field: 1.
  void version() {
    if (natural(2) != 1)
      decline();
  }

  /// The capsules table, read on its own by the strict reader.
  void capsules() {
    const std::string_view text = compound(std::max(kTableFloorBytes, source_.text.size() / 8));
    if (text.front() != '{')
      decline();
    tokens_ += jsonTokens(text);
    table_.emplace(readCapsuleTableDocument(alone(text), interner_, edition_, parser_));
  }

  /// A kind: a bare kind's spelling, or an object, read on its own the first time its text is met.
  KindId kind() {
    ws();
    // The kind before, again (a group's kinds, a run's kernels): its text compared.
    if (takeText(lastKind_.text, lastKind_.known.tokens))
      return lastKind_.known.id;
    const Mark start = mark();
    const KnownKind known = newKind();
    lastKind_ = {since(start), known};
    return known.id;
  }

  /// A kind other than the one before.
  KnownKind newKind() {
    if (*p_ == '"') {
      const auto tag = lookupSpelling<KindTag>(string());
      if (!tag || !inEdition(*tag, edition_) || !isBare(*tag))
        decline();
      return {Interner::bareKind(*tag), 1};
    }
    // A kind read before is found by the text up to its first `}`: a text read before is a whole
    // object, so the same bytes here are that object, whatever its first `}` closes.
    if (const void *close =
            std::memchr(p_, '}', std::min(kLongestKindText, static_cast<std::size_t>(end_ - p_)))) {
      const std::string_view upTo(
          p_, static_cast<std::size_t>(static_cast<const char *>(close) + 1 - p_));
      const KnownKind *known = recentKinds_.find(upTo);
      if (!known)
        if (auto it = kinds_.find(upTo); it != kinds_.end()) {
          recentKinds_.remember(it->first, it->second);
          known = &it->second;
        }
      if (known) {
        p_ += upTo.size();
        tokens_ += known->tokens;
        return *known;
      }
    }
    const std::string_view text = compound(kLongestKindText);
    if (text.front() != '{')
      decline();
    auto it = kinds_.find(text);
    if (it == kinds_.end()) {
      if (kinds_.size() == kMostKindTexts)
        decline();
      const KnownKind known{readKindDocument(alone(text), interner_, edition_, parser_),
                            jsonTokens(text)};
      it = kinds_.emplace(text, known).first;
    }
    recentKinds_.remember(it->first, it->second);
    tokens_ += it->second.tokens;
    return it->second;
  }

  /// A `capsule` field: a key of the table read before.
  CapsuleId capsuleRef() {
    const std::string_view key = string();
    if (!table_)
      decline();
    if (const CapsuleId *id = recentKeys_.find(key))
      return *id;
    auto it = table_->find(key);
    if (it == table_->end())
      decline();
    recentKeys_.remember(it->first, it->second);
    return it->second;
  }

  /// The fields of an object of record `K` in the edition, each read by `onField(i)` (field i of
  /// the table); every one the edition requires, none it lacks, none twice.
  template <class K, class F> void recordFields(F &&onField) {
    std::uint32_t seen = 0;
    objectFields(fieldNames<K>(), recordAllowed<K>(), seen, onField);
    recordDone<K>(seen);
  }

  /// The fields of record `K` after the value of one of them (`seen` so far; `next` is tried
  /// first), up to the closing brace; then recordDone.
  template <class K, class F>
  void recordFieldsAfter(std::uint32_t seen, std::size_t next, F &&onField) {
    fieldsAfter(fieldNames<K>(), recordAllowed<K>(), seen, onField, next, false);
    recordDone<K>(seen);
  }

  /// The fields of record `K` the edition has; declines unless every one it requires is `seen`.
  template <class K> std::uint32_t recordAllowed() const {
    return kEditionMasks<K>.allowed[static_cast<std::size_t>(edition_)];
  }
  template <class K> void recordDone(std::uint32_t seen) const {
    if ((kEditionMasks<K>.required[static_cast<std::size_t>(edition_)] & ~seen) != 0)
      decline();
  }

  /// The fields of an object among `names` (bit i: `names[i]`), those of `allowed` only, none
  /// twice; `onField(i)` reads the value of each. `seen` receives their bits.
  template <class Names, class F>
  void objectFields(const Names &names, std::uint32_t allowed, std::uint32_t &seen, F &&onField) {
    expect('{');
    if (!take('}'))
      fieldsAfter(names, allowed, seen, onField, 0, true);
  }

  /// The fields of an object after its `{` and before its first field (`opened`), or after the
  /// value of a field; `names[next]` is the key tried first. Up to the closing brace.
  template <class Names, class F>
  void fieldsAfter(const Names &names, std::uint32_t allowed, std::uint32_t &seen, F &&onField,
                   std::size_t next, bool opened) {
    if (opened || take(','))
      do {
        const std::size_t i = keyIndex(names, next);
        if (!(allowed & fieldBit(i)) || (seen & fieldBit(i)))
          decline();
        seen |= fieldBit(i);
        onField(i);
        next = i + 1;
      } while (take(','));
    expect('}');
  }

  /// The index in `names` of the key at the cursor, written without an escape, its colon taken;
  /// `names[hint]` is tried first. Declines on any other key (the strict reader names it).
  template <class Names> std::size_t keyIndex(const Names &names, std::size_t hint) {
    ws();
    if (p_ == end_ || *p_ != '"')
      decline();
    const char *k = p_ + 1;
    const std::size_t n = std::size(names);
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t i = (hint + j) % n;
      if (startsWith(k, names[i]) && k + names[i].size() < end_ && k[names[i].size()] == '"') {
        p_ = k + names[i].size() + 1;
        ++tokens_;
        expect(':');
        return i;
      }
    }
    decline();
  }

  /// Whether the text at `at` starts with `word`.
  bool startsWith(const char *at, std::string_view word) const {
    if (static_cast<std::size_t>(end_ - at) < word.size())
      return false;
    for (std::size_t i = 0; i < word.size(); ++i) // a few bytes: no call to memcmp
      if (at[i] != word[i])
        return false;
    return true;
  }

  Mark mark() const { return {p_, tokens_}; }
  /// The text from `m` to the cursor, and its tokens.
  std::string_view since(Mark m) const {
    return std::string_view(m.at, static_cast<std::size_t>(p_ - m.at));
  }
  std::size_t tokensSince(Mark m) const { return tokens_ - m.tokens; }

  /// Whether `word` (structural characters and keys, `tokens` of them) follows, after whitespace;
  /// taken when it does.
  bool takeWord(std::string_view word, std::size_t tokens) {
    ws();
    if (!startsWith(p_, word))
      return false;
    p_ += word.size();
    tokens_ += tokens;
    return true;
  }

  /// A text read before (a kernel's or a group's fields after its first ones), its tokens and what
  /// it gave (an empty text: no entry yet).
  template <class V> struct TailEntry {
    std::string_view text;
    std::size_t tokens = 0;
    V value{};
  };
  template <class V> using Tails = SetMemo<TailEntry<V>>;

  /// The entry of `tails` whose text is at the cursor, taken; else null. `set` receives the set the
  /// text belongs to (none when fewer than kTailKeyBytes bytes are left), chosen by those bytes
  /// and `salt` (what else tells such texts apart: a group's length).
  template <class V>
  const TailEntry<V> *takeTail(const Tails<V> &tails, std::optional<std::size_t> &set,
                               std::uint64_t salt = 0) {
    set.reset();
    if (static_cast<std::size_t>(end_ - p_) < kTailKeyBytes)
      return nullptr;
    static_assert(kTailKeyBytes == 32);
    std::uint64_t w[4];
    std::memcpy(w, p_, sizeof w);
    set = memoSlot(tails.bits(), salt, w[0], w[1], w[2], w[3]);
    for (const auto &e : tails.set(*set))
      if (takeText(e.text, e.tokens))
        return &e;
    return nullptr;
  }

  /// The text `{"NAME":` that opens an object whose first key is `name` (kOpeningTokens tokens).
  static std::string opening(std::string_view name) { return "{\"" + std::string(name) + "\":"; }

  /// Whether the text at the cursor is `text` (whose tokens are `tokens`); taken when it is.
  bool takeText(std::string_view text, std::size_t tokens) {
    if (text.empty() || static_cast<std::size_t>(end_ - p_) < text.size() ||
        std::memcmp(p_, text.data(), text.size()) != 0)
      return false;
    p_ += text.size();
    tokens_ += tokens;
    return true;
  }

  /// The elements of an array, each read by `each()`. A document denser than the limit of
  /// docs/errors.md ("Limits") so far is declined (denseSoFar).
  template <class F> void elements(F &&each) {
    expect('[');
    if (take(']'))
      return;
    do {
      if (dense_ && denseSoFar())
        decline();
      each();
    } while (take(','));
    expect(']');
  }

  /// Whether the text read so far, and 1 MiB more, holds more tokens than the density limit
  /// allows it: a text dense from its start is declined before what it holds is read (the strict
  /// reader refuses it before its index is built), a text dense in one stretch is left to it.
  bool denseSoFar() const {
    const auto read = static_cast<std::size_t>(p_ - source_.text.data());
    return tokens_ * 8 > (read + kDenseFloorBytes) * kMaxTokensPerEightBytes;
  }

  /// How many naturals the array at the cursor holds, counted in its text (io::numberCount).
  std::size_t numberCount() {
    ws();
    return io::numberCount(p_, end_);
  }

  std::size_t size() const { return source_.text.size(); }
  const char *textEnd() const { return end_; }
  Edition edition() const { return edition_; }
  Interner &interner() { return interner_; }

private:
  /// `text` as a document of its own, with the strict reader's padding.
  const Source &alone(std::string_view text) {
    alone_.name = source_.name;
    alone_.text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    alone_.text.assign(text);
    return alone_;
  }

  const Source &source_;
  Interner &interner_;
  Edition edition_;
  const char *p_;
  const char *end_;
  std::size_t tokens_ = 0;
  const char *lastNumber_ = nullptr;
  bool dense_ = false; // the document is long enough for the density limit
  Source alone_;
  od::parser parser_;
  std::optional<KeyTable> table_;
  RecentTexts<CapsuleId> recentKeys_;
  RecentTexts<KnownKind> recentKinds_;
  struct {
    std::string_view text;
    KnownKind known;
  } lastKind_;
  std::unordered_map<std::string_view, KnownKind, KeyedHash> kinds_;
};

} // namespace lo::io::detail
