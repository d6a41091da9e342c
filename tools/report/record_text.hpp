// A record as the HTML report shows it (tools/report/html_parts.cpp), from its field table
// (ref/record.hpp): each field's name and value as text, in the table's order.
#pragma once

#include "ref/io/writer.hpp"
#include "ref/record.hpp"

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace lo::report {

/// A nested record as text: each field's name and value, a record or text as JSON, an array of
/// records as `[JSON, JSON]`, a vocabulary's value as its spelling; set apart by "; " when the
/// record holds records (a contract descriptor), else by ", " (a numerical policy).
template <class K> std::string recordText(const typename RecordTable<K>::Value &r) {
  bool nested = false;
  forEachField<K>([&](const auto &f, auto) {
    using T = std::remove_cvref_t<decltype(r.*f.member)>;
    nested = nested || Recorded<T> || IsVector<T>::value;
  });
  return io::writtenText([&](io::Sink &s) {
    bool first = true;
    forEachField<K>([&](const auto &f, auto) {
      using T = std::remove_cvref_t<decltype(r.*f.member)>;
      const T &v = r.*f.member;
      s << (first ? "" : nested ? "; " : ", ") << f.name << ' ';
      first = false;
      if constexpr (IsVector<T>::value) {
        // Each item, not only their count (a provenance-only difference is then seen).
        const char *before = "";
        s << '[';
        for (const auto &x : v) {
          s << before;
          before = ", ";
          io::writeFieldValue<typename T::value_type>(s, x);
        }
        s << ']';
      } else if constexpr (std::is_enum_v<T>) {
        s << spelling(v);
      } else {
        io::writeFieldValue(s, v);
      }
    });
  });
}

/// The fields of a record (a capsule's rows of a capsule finding's table), in the order of its
/// table (docs/spec.md §2.2), each as text.
template <class K>
std::vector<std::pair<std::string_view, std::string>>
fieldTexts(const typename RecordTable<K>::Value &c) {
  std::vector<std::pair<std::string_view, std::string>> out;
  forEachField<K>([&](const auto &f, auto) {
    using T = std::remove_cvref_t<decltype(c.*f.member)>;
    const T &v = c.*f.member;
    if constexpr (Recorded<T>)
      out.emplace_back(f.name, recordText<T>(v));
    else if constexpr (std::is_enum_v<T>)
      out.emplace_back(f.name, std::string(spelling(v)));
    else if constexpr (std::is_same_v<T, bool>)
      out.emplace_back(f.name, v ? "true" : "false");
    else
      out.emplace_back(f.name, v);
  });
  return out;
}

} // namespace lo::report
