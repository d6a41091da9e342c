// A small ordered JSON tree for building malformed variants of valid documents: remove a field,
// replace a value, and write the document back out, keys in their original order.
#pragma once

#include <simdjson.h>

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lo::hardening {

struct JsonField;

struct Json {
  enum class Type { null, boolean, number, string, array, object } type = Type::null;
  std::string text; // number: its literal; string: its value; boolean: "true" or "false"
  std::vector<Json> items;
  // An object's fields, in order. (Not std::pair<std::string, Json>: clang 14 with libstdc++
  // rejects a pair of the class being defined, so the field type is completed after Json.)
  std::vector<JsonField> fields;

  static Json number(std::string literal);
  static Json string(std::string value);
  static Json boolean(bool b);
  static Json array(std::vector<Json> items);
  static Json object(std::vector<std::pair<std::string, Json>> fields);

  Json *find(const std::string &key);
  Json &operator[](const std::string &key) { return *find(key); }
  Json &operator[](std::size_t i) { return items.at(i); }
};

struct JsonField {
  std::string first;
  Json second;
  JsonField(std::string key, Json value) : first(std::move(key)), second(std::move(value)) {}
};

inline Json Json::number(std::string literal) { return {Type::number, std::move(literal), {}, {}}; }
inline Json Json::string(std::string value) { return {Type::string, std::move(value), {}, {}}; }
inline Json Json::boolean(bool b) { return {Type::boolean, b ? "true" : "false", {}, {}}; }
inline Json Json::array(std::vector<Json> items) { return {Type::array, {}, std::move(items), {}}; }
inline Json Json::object(std::vector<std::pair<std::string, Json>> pairs) {
  Json j{Type::object, {}, {}, {}};
  j.fields.reserve(pairs.size());
  for (auto &[k, v] : pairs)
    j.fields.emplace_back(std::move(k), std::move(v));
  return j;
}

inline Json *Json::find(const std::string &key) {
  for (auto &[k, v] : fields)
    if (k == key)
      return &v;
  return nullptr;
}

inline std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

/// Compact JSON on one line (so that a byte offset is a column).
inline std::string dump(const Json &j) {
  switch (j.type) {
  case Json::Type::null: return "null";
  case Json::Type::boolean:
  case Json::Type::number: return j.text;
  case Json::Type::string: return quoted(j.text);
  case Json::Type::array: {
    std::string out = "[";
    for (std::size_t i = 0; i < j.items.size(); ++i)
      out += (i ? "," : "") + dump(j.items[i]);
    return out + "]";
  }
  case Json::Type::object: {
    std::string out = "{";
    for (std::size_t i = 0; i < j.fields.size(); ++i)
      out += (i ? "," : "") + quoted(j.fields[i].first) + ":" + dump(j.fields[i].second);
    return out + "}";
  }
  }
  return {};
}

inline Json fromDom(simdjson::dom::element e) {
  using T = simdjson::dom::element_type;
  switch (e.type()) {
  case T::ARRAY: {
    std::vector<Json> items;
    for (auto x : e.get_array())
      items.push_back(fromDom(x));
    return Json::array(std::move(items));
  }
  case T::OBJECT: {
    std::vector<std::pair<std::string, Json>> fields;
    for (auto f : e.get_object())
      fields.emplace_back(std::string(f.key), fromDom(f.value));
    return Json::object(std::move(fields));
  }
  case T::STRING: return Json::string(std::string(e.get_string().value()));
  case T::UINT64: return Json::number(std::to_string(e.get_uint64().value()));
  case T::INT64: return Json::number(std::to_string(e.get_int64().value()));
  case T::DOUBLE: {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", e.get_double().value());
    return Json::number(buf);
  }
  case T::BOOL: return Json::boolean(e.get_bool().value());
  case T::NULL_VALUE: return {};
  }
  return {};
}

inline Json parse(const std::string &text) {
  simdjson::dom::parser parser;
  return fromDom(parser.parse(simdjson::padded_string(text)).value());
}

/// Calls `visit(pointer, value)` for every value of the tree, depth first, parents first.
inline void walk(Json &j, const std::string &pointer,
                 const std::function<void(const std::string &, Json &)> &visit) {
  visit(pointer, j);
  if (j.type == Json::Type::array)
    for (std::size_t i = 0; i < j.items.size(); ++i)
      walk(j.items[i], pointer + "/" + std::to_string(i), visit);
  if (j.type == Json::Type::object)
    for (auto &[k, v] : j.fields)
      walk(v, pointer + "/" + k, visit);
}

/// The value at a JSON pointer (keys without `~` or `/`).
inline Json &at(Json &root, const std::string &pointer) {
  Json *j = &root;
  std::size_t pos = 1;
  while (pos <= pointer.size() && pointer.size() > 0) {
    std::size_t next = pointer.find('/', pos);
    if (next == std::string::npos)
      next = pointer.size();
    const std::string token = pointer.substr(pos, next - pos);
    j = j->type == Json::Type::array ? &j->items.at(std::stoul(token)) : j->find(token);
    pos = next + 1;
  }
  return *j;
}

} // namespace lo::hardening
