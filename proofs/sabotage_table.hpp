// A sabotage enumeration (proofs/encoding.hpp `Sabotage`, proofs/selection.hpp
// `SelectionSabotage`) declared from its X-macro, X(enumerator, spelling, what it breaks), whose
// first row is `none`: the enumeration, and the table of its rows the spellings are read from.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lo::proofs {

struct SabotageRow {
  std::string_view spelling, what;
};

template <class E, std::size_t N> struct SabotageTable {
  std::array<SabotageRow, N> rows;

  std::string_view spelling(E s) const { return rows[static_cast<std::size_t>(s)].spelling; }
  std::string_view describe(E s) const { return rows[static_cast<std::size_t>(s)].what; }
  /// Every value but `none`.
  std::vector<E> all() const {
    std::vector<E> out;
    for (std::size_t i = 1; i < N; ++i)
      out.push_back(static_cast<E>(i));
    return out;
  }
};

template <class E, std::size_t N>
constexpr SabotageTable<E, N> sabotageTable(const std::array<SabotageRow, N> &rows) {
  return {rows};
}

/// `sabotageTable<E>(std::array{LO_XS(LO_SABOTAGE_ROW)})`.
#define LO_SABOTAGE_ROW(name, spelling, what) SabotageRow{spelling, what},

#define LO_SABOTAGE_ENUMERATOR(name, spelling, what) name,
/// `enum class NAME : std::uint8_t` with the enumerators of the X-macro LIST, and the spelling, the
/// description and the list of every value but `none` that the implementation defines from its
/// table.
#define LO_DECLARE_SABOTAGES(NAME, LIST, ALL)                                                      \
  enum class NAME : std::uint8_t { LIST(LO_SABOTAGE_ENUMERATOR) };                                 \
  std::string_view spelling(NAME s);                                                               \
  std::string_view describe(NAME s);                                                               \
  std::vector<NAME> ALL();

} // namespace lo::proofs
