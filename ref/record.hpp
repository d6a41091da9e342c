// Records as field tables: each record of the files (docs/spec.md §2.2) is declared once, as the
// vocabularies are (ref/vocab.hpp), by a `RecordTable` of its fields: each field's JSON name, its
// member (whose C++ type and default member initializer are the field's type and default), the
// editions that have it and those in which it is required (elsewhere it is defaulted, or optional
// when its type is std::optional), the tags that have it (for a tagged record), and whether it
// takes part in contract equality and in identity. The readers, the writers, contract equality and
// its hash, and the checks' field-by-field messages walk these tables (`forEachField`) rather than
// a list of their own.
#pragma once

#include "ref/edition.hpp"
#include "ref/hash.hpp"
#include "ref/vocab.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace lo {

/// The table of a record; `RecordTable<K>::Value` is the C++ type it reads and writes (the record
/// itself, or, for a view such as an audit row, the type it is a view of).
template <class K> struct RecordTable;

/// What a field is besides its presence.
enum FieldFlags : std::uint8_t {
  kFieldPlain = 0,
  /// Part of a capsule's identity (docs/spec.md §1.3: name, op, provider, device).
  kFieldIdentity = 1,
  /// Another JSON spelling of the member of an earlier field, for other tags (evidence `reason`
  /// beside `name`): read and written, but compared and hashed once, as the earlier field.
  kFieldAlias = 2,
  /// Text a message shows as the input spells it, unquoted (a name, a spec; docs/spec.md §3.5).
  kFieldVerbatim = 4,
  /// Not compared by contract equality, nor hashed.
  kFieldOutsideContract = 8,
};

/// Bits of tag values (a tagged record's fields say which tags have them).
using TagSet = std::uint64_t;
inline constexpr TagSet kEveryTag = ~TagSet{0};
template <class Tag> constexpr TagSet tagBits(std::initializer_list<Tag> tags) {
  TagSet bits = 0;
  for (Tag t : tags)
    bits |= TagSet{1} << static_cast<unsigned>(t);
  return bits;
}

/// One field of a record `R`: `member` of C++ type `T`, spelled `name` in JSON.
template <class R, class T> struct Field {
  using Record = R;
  using Type = T;
  std::string_view name;
  T R::*member;
  /// The value a type error expects, for text and booleans ("a capsule name"); the vocabulary's
  /// name for an enumeration, the field's name when empty.
  std::string_view noun = {};
  EditionSet editions = kEveryEdition;
  EditionSet requiredIn = kEveryEdition;
  TagSet tags = kEveryTag;
  std::uint8_t flags = kFieldPlain;

  /// Only in `set` (and required only there).
  constexpr Field only(EditionSet set) const {
    Field f = *this;
    f.editions = set;
    f.requiredIn &= set;
    return f;
  }
  /// Required in `set`, defaulted (or optional) in the other editions that have it.
  constexpr Field requiredOnlyIn(EditionSet set) const {
    Field f = *this;
    f.requiredIn = set & editions;
    return f;
  }
  constexpr Field defaulted() const { return requiredOnlyIn(0); }
  constexpr Field forTags(TagSet set) const {
    Field f = *this;
    f.tags = set;
    return f;
  }
  constexpr Field says(std::string_view what) const {
    Field f = *this;
    f.noun = what;
    return f;
  }
  constexpr Field with(std::uint8_t flag) const {
    Field f = *this;
    f.flags = static_cast<std::uint8_t>(f.flags | flag);
    return f;
  }

  constexpr bool has(std::uint8_t flag) const { return (flags & flag) != 0; }
  constexpr bool inEdition(Edition e) const { return (editions & editionBit(e)) != 0; }
  constexpr bool requiredInEdition(Edition e) const { return (requiredIn & editionBit(e)) != 0; }
  template <class Tag> constexpr bool forTag(Tag t) const {
    return (tags >> static_cast<unsigned>(t)) & 1u;
  }
  std::string_view typeNoun() const { return noun.empty() ? name : noun; }
};

/// A field, required in every edition and for every tag (narrowed by its builders).
template <class R, class T> constexpr Field<R, T> field(std::string_view name, T R::*member) {
  return Field<R, T>{name, member};
}

// --- Kinds of field type ------------------------------------------------------------------------

template <class T>
concept Enumerated = std::is_enum_v<T> && requires {
  Vocabulary<T>::spellings;
};
template <class T>
concept Recorded = requires {
  RecordTable<T>::fields;
};
template <class T> struct IsVector : std::false_type {};
template <class T> struct IsVector<std::vector<T>> : std::true_type {};
/// A group's node ids (ref/node_id_list.hpp) are an array like any other.
class NodeIdList;
template <> struct IsVector<NodeIdList> : std::true_type {};
template <class T> struct IsOptional : std::false_type {};
template <class T> struct IsOptional<std::optional<T>> : std::true_type {};

/// The number of fields of record `K`.
template <class K> constexpr std::size_t fieldCount() {
  return std::tuple_size_v<std::remove_cvref_t<decltype(RecordTable<K>::fields)>>;
}

/// Calls `f(field, index)` (index a std::integral_constant) for each field of record `K`, in
/// order.
template <class K, class F> constexpr void forEachField(F &&f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::get<I>(RecordTable<K>::fields), std::integral_constant<std::size_t, I>{}), ...);
  }
  (std::make_index_sequence<fieldCount<K>()>{});
}

/// Calls `f(field)` for field `i` of record `K` (a run-time index).
template <class K, class F> inline void withField(std::size_t i, F &&f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (void)((i == I ? (f(std::get<I>(RecordTable<K>::fields)), true) : false) || ...);
  }
  (std::make_index_sequence<fieldCount<K>()>{});
}

/// The JSON names of the fields of `K`, in order.
template <class K> constexpr auto fieldNames() {
  std::array<std::string_view, fieldCount<K>()> names{};
  forEachField<K>([&](const auto &f, auto i) { names[i] = f.name; });
  return names;
}

/// The fields (bit i: field i) of `K` that `keep(field)` selects.
template <class K, class P> constexpr std::uint32_t fieldMask(P &&keep) {
  static_assert(fieldCount<K>() <= 32, "a record has at most 32 fields");
  std::uint32_t bits = 0;
  forEachField<K>([&](const auto &f, auto i) {
    if (keep(f))
      bits |= std::uint32_t{1} << i;
  });
  return bits;
}

/// Per edition: the fields of `K` that the edition has, and those it requires.
template <class K> struct EditionMasks {
  std::array<std::uint32_t, vocabularySize<Edition>()> allowed{}, required{};
  constexpr EditionMasks() {
    for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e) {
      const Edition ed = static_cast<Edition>(e);
      allowed[e] = fieldMask<K>([&](const auto &f) { return f.inEdition(ed); });
      required[e] = fieldMask<K>([&](const auto &f) { return f.requiredInEdition(ed); });
    }
  }
};
template <class K> inline constexpr EditionMasks<K> kEditionMasks{};

/// Per edition and tag of a tagged record (`RecordTable<K>::Tag`): the fields the tag has in the
/// edition, and those it requires there.
template <class K> struct TagMasks {
  using Tag = typename RecordTable<K>::Tag;
  static constexpr std::size_t kTags = vocabularySize<Tag>();
  std::array<std::array<std::uint32_t, kTags>, vocabularySize<Edition>()> allowed{}, required{};
  constexpr TagMasks() {
    for (std::size_t e = 0; e < vocabularySize<Edition>(); ++e)
      for (std::size_t t = 0; t < kTags; ++t) {
        const Edition ed = static_cast<Edition>(e);
        const Tag tag = static_cast<Tag>(t);
        allowed[e][t] =
            fieldMask<K>([&](const auto &f) { return f.forTag(tag) && f.inEdition(ed); });
        required[e][t] =
            fieldMask<K>([&](const auto &f) { return f.forTag(tag) && f.requiredInEdition(ed); });
      }
  }
};
template <class K> inline constexpr TagMasks<K> kTagMasks{};

/// Whether the record `K` is tagged (its field 0 is its tag).
template <class K>
concept Tagged = requires {
  typename RecordTable<K>::Tag;
};

/// The number of members of an aggregate `T` (a record's C++ type), so that a table can be held to
/// cover its record: every member a field, no field without a member.
struct AnyMember {
  template <class T> operator T() const { return T{}; } // only in unevaluated contexts
};
template <class T, class... A> constexpr std::size_t memberCount() {
  if constexpr (requires { T{A{}..., AnyMember{}}; })
    return memberCount<T, A..., AnyMember>();
  else
    return sizeof...(A);
}

/// The fields of `K` that are not another spelling of an earlier field's member.
template <class K> constexpr std::size_t memberFieldCount() {
  std::size_t n = 0;
  forEachField<K>([&](const auto &f, auto) { n += !f.has(kFieldAlias); });
  return n;
}

/// The fields of a record `r` of table `K` that a writer writes, in the table's order, each with
/// its value (`f(field, value)`): of a tagged record, those its tag has; an optional field when it
/// has a value; with `edition`, only the fields that edition has (without, every field: the seed's
/// shape). The one choice of the JSON writer and the speller (docs/spec.md §2.2).
template <class K, class F>
void forEachWrittenField(const typename RecordTable<K>::Value &r, F &&f,
                         std::optional<Edition> edition = std::nullopt) {
  forEachField<K>([&](const auto &field, auto) {
    if (edition && !field.inEdition(*edition))
      return;
    if constexpr (Tagged<K>)
      if (!field.forTag(r.*std::get<0>(RecordTable<K>::fields).member))
        return;
    const auto &value = r.*field.member;
    if constexpr (IsOptional<std::remove_cvref_t<decltype(value)>>::value)
      if (!value)
        return;
    f(field, value);
  });
}

// --- Derived: contract equality, identity and their hash -----------------------------------------

template <class T> bool fieldValuesEqual(const T &a, const T &b);

/// Contract equality of two records of table `K`: every field that takes part in it equal
/// (docs/spec.md §1.3: equality `contract`).
template <class K>
bool recordsEqual(const typename RecordTable<K>::Value &a,
                  const typename RecordTable<K>::Value &b) {
  // A record's own table covers it: every member a field (a view's table need not).
  if constexpr (std::is_same_v<K, typename RecordTable<K>::Value>)
    static_assert(memberCount<K>() == memberFieldCount<K>(), "a member without a field");
  bool equal = true;
  forEachField<K>([&](const auto &f, auto) {
    if (equal && !f.has(kFieldAlias | kFieldOutsideContract))
      equal = fieldValuesEqual(a.*f.member, b.*f.member);
  });
  return equal;
}

/// Equal in the identity fields of `K` only (equality `identity`).
template <class K>
bool identitiesEqual(const typename RecordTable<K>::Value &a,
                     const typename RecordTable<K>::Value &b) {
  bool equal = true;
  forEachField<K>([&](const auto &f, auto) {
    if (equal && f.has(kFieldIdentity))
      equal = fieldValuesEqual(a.*f.member, b.*f.member);
  });
  return equal;
}

/// A record's `operator==`, declared in the record: contract equality by its table.
#define LO_RECORD_EQUALITY(Type)                                                                   \
  inline bool Type::operator==(const Type &o) const { return recordsEqual<Type>(*this, o); }

template <class T> bool fieldValuesEqual(const T &a, const T &b) {
  if constexpr (Recorded<T>) {
    return recordsEqual<T>(a, b);
  } else if constexpr (IsVector<T>::value) {
    if (a.size() != b.size())
      return false;
    auto j = b.begin();
    for (const auto &x : a)
      if (!fieldValuesEqual<typename T::value_type>(x, *j++))
        return false;
    return true;
  } else {
    return a == b;
  }
}

/// Feeds the fields of a record to a keyed hash, consistently with `recordsEqual` (or, with
/// `identityOnly`, with `identitiesEqual`): an enumeration as its index + 1, a boolean, a text
/// (length then bytes), an optional as its presence then its value, an array as its size then its
/// elements.
template <class K>
void hashRecord(SipHasher &h, const typename RecordTable<K>::Value &r, bool identityOnly = false);

template <class T> void hashFieldValue(SipHasher &h, const T &v) {
  if constexpr (Recorded<T>) {
    hashRecord<T>(h, v);
  } else if constexpr (IsVector<T>::value) {
    h.word(v.size());
    for (const auto &x : v)
      hashFieldValue(h, x);
  } else if constexpr (IsOptional<T>::value) {
    h.word(v.has_value());
    if (v)
      hashFieldValue(h, *v);
  } else if constexpr (std::is_enum_v<T>) {
    h.word(static_cast<std::uint64_t>(v) + 1);
  } else if constexpr (std::is_same_v<T, bool>) {
    h.word(v);
  } else {
    h.bytes(v);
  }
}

template <class K>
void hashRecord(SipHasher &h, const typename RecordTable<K>::Value &r, bool identityOnly) {
  forEachField<K>([&](const auto &f, auto) {
    if (identityOnly ? f.has(kFieldIdentity) : !f.has(kFieldAlias | kFieldOutsideContract))
      hashFieldValue(h, r.*f.member);
  });
}

} // namespace lo
