// The reader of a record from its table (ref/record.hpp): a capsule, a contract descriptor, a
// claim, evidence, provenance, a numerical policy, an audit row, on the strict JSON layer; for the
// capsules of the documents (ref/io/reader.cpp) and for the reports of a gate result (docs/spec.md
// §6.5). It reads the value `v` of `r`'s document and fails through `r` (an InputError at the
// value, with its JSON pointer): a field its record lacks is unknown, a field another edition has
// is named with that edition, a required one missing is named (docs/spec.md §2.2).
#pragma once

#include "ref/capsule.hpp"
#include "ref/io/strict_json.hpp"
#include "ref/record.hpp"

#include <vector>

namespace lo::io {

namespace detail {

/// Fails: field `name` of `what` is in editions `fits`, not in the reader's.
[[noreturn]] void failFieldNotInEdition(JsonReader &r, std::string_view name, std::string_view what,
                                        EditionSet fits);
/// Fails at `start`: field `name`, required in the reader's edition, is missing from `what`;
/// `otherwise` are the editions that do without it.
[[noreturn]] void failMissingInEdition(JsonReader &r, const char *start, std::string_view name,
                                       std::string_view what, EditionSet otherwise);

/// The first field (bit) of `bits`.
inline std::size_t firstField(std::uint32_t bits) {
  return static_cast<std::size_t>(std::countr_zero(bits));
}

/// The fields of `K` whose requirement differs between editions (bit i: field i).
template <class K>
constexpr std::uint32_t kEditionDependent = fieldMask<K>([](const auto &f) {
  return f.requiredIn != 0 && f.requiredIn != kEveryEdition;
});

/// The editions field `i` of `K` is in, and those that do not require it.
template <class K> EditionSet editionsOfField(std::size_t i) {
  EditionSet set = 0;
  withField<K>(i, [&](const auto &f) { set = f.editions; });
  return set;
}
template <class K> EditionSet editionsWithout(std::size_t i) {
  EditionSet set = 0;
  withField<K>(i, [&](const auto &f) { set = kEveryEdition & ~f.requiredIn; });
  return set;
}

} // namespace detail

template <class K> typename RecordTable<K>::Value readRecord(JsonReader &r, od::value &v);

/// The fields of an untagged record of table `K` in `v`, each value handed to `onField(i, x)`
/// (field i of the table): a field the reader's edition lacks is named with the editions that have
/// it, a required one missing is named. Returns the fields seen (bit i: field i).
template <class K, class F> std::uint32_t readFields(JsonReader &r, od::value &v, F &&onField) {
  static constexpr auto names = fieldNames<K>();
  constexpr auto &masks = kEditionMasks<K>;
  const std::size_t e = static_cast<std::size_t>(r.edition());
  const std::uint32_t seen =
      r.fields(v, RecordTable<K>::what,
               FieldSet{names, masks.required[e] & ~detail::kEditionDependent<K>}, onField);
  if (const std::uint32_t other = seen & ~masks.allowed[e]) [[unlikely]]
    detail::failFieldNotInEdition(r, names[detail::firstField(other)], RecordTable<K>::what,
                                  detail::editionsOfField<K>(detail::firstField(other)));
  if (const std::uint32_t missing = masks.required[e] & ~seen & detail::kEditionDependent<K>)
      [[unlikely]]
    detail::failMissingInEdition(r, nullptr, names[detail::firstField(missing)],
                                 RecordTable<K>::what,
                                 detail::editionsWithout<K>(detail::firstField(missing)));
  return seen;
}

/// One field's value, by its type: a record by its table, an array of records, text, a boolean,
/// a value of a vocabulary (in the reader's edition).
template <class F, class T> void readFieldValue(JsonReader &r, od::value &x, const F &f, T &out) {
  if constexpr (Recorded<T>) {
    out = readRecord<T>(r, x);
  } else if constexpr (IsVector<T>::value) {
    out.clear();
    r.elements(x, f.typeNoun(),
               [&](od::value &y) { out.push_back(readRecord<typename T::value_type>(r, y)); });
  } else if constexpr (std::is_enum_v<T>) {
    out = r.enumValue<T>(x, f.noun.empty() ? Vocabulary<T>::name : f.noun);
  } else if constexpr (std::is_same_v<T, bool>) {
    out = r.boolean(x, f.typeNoun());
  } else {
    out = std::string(r.string(x, f.typeNoun()));
  }
}

/// The record of table `K` in `v`.
template <class K> typename RecordTable<K>::Value readRecord(JsonReader &r, od::value &v) {
  using Table = RecordTable<K>;
  static constexpr auto names = fieldNames<K>();
  typename Table::Value out{};
  const std::size_t e = static_cast<std::size_t>(r.edition());
  const auto onField = [&](std::size_t i, od::value x) {
    withField<K>(i, [&](const auto &f) { readFieldValue(r, x, f, out.*f.member); });
  };
  if constexpr (Tagged<K>) {
    // Field 0 is the tag; which other fields there are is the tag's (and the edition's).
    const char *start = r.location(v);
    const std::uint32_t seen = r.fields(v, Table::what, FieldSet{names, fieldBit(0)}, onField);
    const auto tag = static_cast<std::size_t>(out.*std::get<0>(Table::fields).member);
    std::uint32_t anyEdition = 0;
    for (const auto &masks : kTagMasks<K>.allowed)
      anyEdition |= masks[tag];
    const std::uint32_t allowed = kTagMasks<K>.allowed[e][tag];
    const std::uint32_t required = kTagMasks<K>.required[e][tag];
    const auto what = [&] {
      return std::string(Table::tagPrefix) +
             std::string(spelling(out.*std::get<0>(Table::fields).member)) +
             std::string(Table::tagSuffix);
    };
    if (const std::uint32_t other = seen & anyEdition & ~allowed)
      detail::failFieldNotInEdition(r, names[detail::firstField(other)], what(),
                                    detail::editionsOfField<K>(detail::firstField(other)));
    if (const std::uint32_t missing = required & ~seen & detail::kEditionDependent<K>)
      detail::failMissingInEdition(r, start, names[detail::firstField(missing)], what(),
                                   detail::editionsWithout<K>(detail::firstField(missing)));
    r.checkTagFields(start, names, seen, required, allowed, what);
  } else {
    readFields<K>(r, v, onField);
  }
  return out;
}

// The records a document's reader reads are instantiated once, in ref/io/contract_reader.cpp
// (each of them instantiated in every reader cost about 10 s of compiling a reader).
#define LO_RECORD_READERS(X)                                                                       \
  X(KernelCapsule) X(ContractDescriptor) X(ContractClaim) X(ContractEvidence)                      \
      X(ContractProvenance) X(NumericalPolicy)
#define LO_EXTERN_READER(K)                                                                        \
  extern template RecordTable<K>::Value readRecord<K>(JsonReader &, od::value &);
LO_RECORD_READERS(LO_EXTERN_READER)
#undef LO_EXTERN_READER

} // namespace lo::io
