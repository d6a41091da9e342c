// The JSON Schema of a record from its field table (ref/record.hpp), for lo_schema_gen
// (tests/schema/schema_gen.cpp) and the tests that add a field to a table (unit.RecordTable): the
// fields an edition has, those it requires, and for a tagged record one branch per tag.
#pragma once

#include "ref/capsule.hpp"
#include "ref/edition.hpp"
#include "ref/lowering.hpp"
#include "ref/record.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace lo::schema {

/// A JSON value as the generator builds it: raw JSON text of a scalar, an array or an object
/// (members in order).
struct Json {
  enum Kind { raw, array, object } kind = raw;
  std::string text;
  std::vector<std::string> names; // an array's are empty
  std::vector<Json> values;
  void add(std::string name, Json value) {
    names.push_back(std::move(name));
    values.push_back(std::move(value));
  }
};
using Members = std::vector<std::pair<std::string, Json>>;

inline Json str(std::string_view s) {
  Json j;
  j.text = "\"" + std::string(s) + "\""; // the spellings and names here need no escape
  return j;
}
inline Json rawJson(std::string_view s) {
  Json j;
  j.text = s;
  return j;
}
inline Json arr(std::vector<Json> items = {}) {
  Json j;
  j.kind = Json::array;
  for (auto &x : items)
    j.add("", std::move(x));
  return j;
}
inline Json obj(Members members = {}) {
  Json j;
  j.kind = Json::object;
  for (auto &m : members)
    j.add(std::move(m.first), std::move(m.second));
  return j;
}
inline Json ref(std::string_view def) {
  return obj({{"$ref", str("#/$defs/" + std::string(def))}});
}

/// Writes `j` as the template's style: two spaces a level; an array of scalars on one line.
inline void print(std::string &out, const Json &j, int indent) {
  if (j.kind == Json::raw) {
    out += j.text;
    return;
  }
  const bool isArray = j.kind == Json::array;
  if (j.values.empty()) {
    out += isArray ? "[]" : "{}";
    return;
  }
  const bool flat = isArray && std::all_of(j.values.begin(), j.values.end(),
                                           [](const Json &v) { return v.kind == Json::raw; });
  out += isArray ? "[" : "{";
  for (std::size_t i = 0; i < j.values.size(); ++i) {
    if (flat) {
      out += i ? ", " : "";
    } else {
      out += i ? ",\n" : "\n";
      out.append(static_cast<std::size_t>(indent + 2), ' ');
    }
    if (!isArray)
      out += "\"" + j.names[i] + "\": ";
    print(out, j.values[i], indent + 2);
  }
  if (!flat) {
    out += "\n";
    out.append(static_cast<std::size_t>(indent), ' ');
  }
  out += isArray ? "]" : "}";
}

// --- Records -------------------------------------------------------------------------------------

/// The definition of common.schema.json that a field's C++ type refers to.
template <class T> constexpr std::string_view defName() {
  using namespace lo;
  if constexpr (std::is_same_v<T, BackendOp>)
    return "BackendOp";
  else if constexpr (std::is_same_v<T, Provider>)
    return "Provider";
  else if constexpr (std::is_same_v<T, Device>)
    return "Device";
  else if constexpr (std::is_same_v<T, TrustLevel>)
    return "TrustLevel";
  else if constexpr (std::is_same_v<T, VJPMode>)
    return "VJPMode";
  else if constexpr (std::is_same_v<T, TensorLayout>)
    return "TensorLayout";
  else if constexpr (std::is_same_v<T, Rounding>)
    return "Rounding";
  else if constexpr (std::is_same_v<T, Subnormals>)
    return "Subnormals";
  else if constexpr (std::is_same_v<T, Contraction>)
    return "Contraction";
  else if constexpr (std::is_same_v<T, Reduction>)
    return "Reduction";
  else if constexpr (std::is_same_v<T, ContractClaim>)
    return "ContractClaim";
  else if constexpr (std::is_same_v<T, ContractEvidence>)
    return "ContractEvidence";
  else if constexpr (std::is_same_v<T, ContractProvenance>)
    return "ContractProvenance";
  else if constexpr (std::is_same_v<T, ContractDescriptor>)
    return "ContractDescriptor";
  else if constexpr (std::is_same_v<T, NumericalPolicy>)
    return "NumericalPolicy";
  else if constexpr (std::is_same_v<T, NodeId>)
    return "NodeId";
  else if constexpr (std::is_same_v<T, KindId>)
    return "Kind";
  else if constexpr (std::is_same_v<T, CapsuleId>)
    return "CapsuleRef";
  else if constexpr (std::is_same_v<T, GroupingKind>)
    return "GroupingKind";
  else
    static_assert(sizeof(T) == 0, "a field type without a definition in common.schema.json");
}

template <class T> Json typeSchema() {
  if constexpr (lo::IsOptional<T>::value)
    return typeSchema<typename T::value_type>();
  else if constexpr (lo::IsVector<T>::value)
    return obj({{"type", str("array")}, {"items", typeSchema<typename T::value_type>()}});
  else if constexpr (std::is_same_v<T, std::string>)
    return obj({{"type", str("string")}});
  else if constexpr (std::is_same_v<T, bool>)
    return obj({{"type", str("boolean")}});
  else
    return ref(defName<T>());
}

/// An object's members for the fields of `K` that `keep(field)` selects in edition `e`.
template <class K, class P> Members objectOf(Edition e, P &&keep, Json tagValue) {
  Json properties = obj(), required = arr();
  lo::forEachField<K>([&](const auto &f, auto i) {
    if (!f.inEdition(e) || !keep(f))
      return;
    using T = typename std::remove_cvref_t<decltype(f)>::Type;
    if constexpr (i == 0 && lo::Tagged<K>)
      properties.add(std::string(f.name), tagValue);
    else
      properties.add(std::string(f.name), typeSchema<T>());
    if (f.requiredInEdition(e))
      required.add("", str(f.name));
  });
  Members out{{"type", str("object")}, {"properties", std::move(properties)}};
  if (!required.values.empty())
    out.emplace_back("required", std::move(required));
  out.emplace_back("additionalProperties", rawJson("false"));
  return out;
}

template <class K> Members recordMembers(Edition e) {
  if constexpr (lo::Tagged<K>) {
    using Tag = typename lo::RecordTable<K>::Tag;
    Json branches = arr();
    for (Tag t : lo::valuesOf<Tag>(e))
      branches.add("", obj(objectOf<K>(
                           e, [&](const auto &f) { return f.forTag(t); },
                           obj({{"const", str(lo::spelling(t))}}))));
    return {{"oneOf", std::move(branches)}};
  } else {
    return objectOf<K>(
        e, [](const auto &) { return true; }, Json{});
  }
}

/// The members of record `K`'s definition in edition `e`, as JSON text (`"type": ..., ...`).
template <class K> std::string recordSchemaText(Edition e) {
  std::string out;
  for (const auto &[name, value] : recordMembers<K>(e)) {
    out += out.empty() ? "" : ", ";
    out += "\"" + name + "\": ";
    print(out, value, 0);
  }
  return out;
}

} // namespace lo::schema
