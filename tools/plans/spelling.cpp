#include "tools/plans/spelling.hpp"

#include "ref/io/writer.hpp"
#include "tools/plans/choices.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace lo::plans {

namespace {

// --- a JSON value with the freedom the format allows ---------------------------------------------

struct Member;

struct Value {
  enum class Type : std::uint8_t { boolean, number, string, array, object } type = Type::object;
  bool boolean = false;
  std::uint64_t number = 0;
  std::string text; // a string's decoded text
  std::vector<Value> items;
  std::vector<Member> members;
};

/// An object member; `omittable` when leaving it out means the same (it holds the default).
struct Member {
  std::string key;
  Value value;
  bool omittable = false;
};

Value str(std::string_view s) {
  Value v;
  v.type = Value::Type::string;
  v.text = s;
  return v;
}
Value num(std::uint64_t n) {
  Value v;
  v.type = Value::Type::number;
  v.number = n;
  return v;
}
Value boolean(bool b) {
  Value v;
  v.type = Value::Type::boolean;
  v.boolean = b;
  return v;
}
Value array(std::vector<Value> items = {}) {
  Value v;
  v.type = Value::Type::array;
  v.items = std::move(items);
  return v;
}
template <class E> Value enumValue(E e) { return str(spelling(e)); }

struct Object {
  Value v;
  Object &add(std::string key, Value value, bool omittable = false) {
    v.members.push_back({std::move(key), std::move(value), omittable});
    return *this;
  }
};

// --- the spec's records as values ---------------------------------------------------------------

template <class K> Value recordValue(const typename RecordTable<K>::Value &r, Edition edition);

/// One field's value in edition `edition`, by its type (as the writer writes it,
/// ref/io/writer.hpp).
template <class T> Value fieldValue(const T &v, Edition edition) {
  if constexpr (Recorded<T>) {
    return recordValue<T>(v, edition);
  } else if constexpr (IsVector<T>::value) {
    std::vector<Value> items;
    for (const auto &x : v)
      items.push_back(fieldValue(x, edition));
    return array(std::move(items));
  } else if constexpr (IsOptional<T>::value) {
    return fieldValue(*v, edition);
  } else if constexpr (std::is_enum_v<T>) {
    return enumValue(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return boolean(v);
  } else {
    return str(v);
  }
}

/// A record as its table gives it in edition `edition` (docs/spec.md §2.2): the fields the
/// writer writes, in its order; a field the edition does not require is omittable when it holds
/// its default.
template <class K> Value recordValue(const typename RecordTable<K>::Value &r, Edition edition) {
  [[maybe_unused]] static const typename RecordTable<K>::Value defaults{};
  Object o;
  forEachWrittenField<K>(
      r,
      [&](const auto &f, const auto &value) {
        o.add(std::string(f.name), fieldValue(value, edition),
              !f.requiredInEdition(edition) && fieldValuesEqual(value, defaults.*f.member));
      },
      edition);
  return o.v;
}

Value capsuleValue(const KernelCapsule &c, Edition edition) {
  return recordValue<KernelCapsule>(c, edition);
}

/// A kind as a bare string or as an object; readers take both (docs/spec.md §2.3).
Value kindValue(const OpKind &kind, bool asObject) {
  if (isBare(kind.tag) && !asObject)
    return enumValue(kind.tag);
  Object o;
  o.add("tag", enumValue(kind.tag));
  const KindSignature &sig = signature(kind.tag);
  for (std::size_t i = 0; i < sig.params.size(); ++i) {
    const auto &values = kind.params[i];
    if (sig.params[i].type == ParamType::natural) {
      o.add(std::string(sig.params[i].name), num(values.empty() ? 0 : values.front()));
    } else if (sig.params[i].type == ParamType::hardMask) {
      // A HardMask `{"shape": [..], "allowed": [true, false, ..]}`: its members in any order too.
      const HardMaskView mask = decodeHardMask(values);
      std::vector<Value> shape, allowed;
      for (auto n : mask.shape)
        shape.push_back(num(n));
      for (auto b : mask.allowed)
        allowed.push_back(boolean(b != 0));
      Object m;
      m.add("shape", array(std::move(shape))).add("allowed", array(std::move(allowed)));
      o.add(std::string(sig.params[i].name), m.v);
    } else if (sig.params[i].type == ParamType::text) {
      o.add(std::string(sig.params[i].name), str(decodeText(values)));
    } else if (sig.params[i].type == ParamType::shapes) {
      std::vector<Value> shapes;
      for (auto shape : decodeShapes(values)) {
        std::vector<Value> dims;
        for (auto n : shape)
          dims.push_back(num(n));
        shapes.push_back(array(std::move(dims)));
      }
      o.add(std::string(sig.params[i].name), array(std::move(shapes)));
    } else {
      std::vector<Value> items;
      for (auto n : values)
        items.push_back(num(n));
      o.add(std::string(sig.params[i].name), array(std::move(items)));
    }
  }
  return o.v;
}

// --- printing with the spelling freedom ----------------------------------------------------------

/// How often each freedom is taken in one plan, in 1/8ths. A plan draws its own mix, so that some
/// plans use one freedom always and others never, and most mix both spellings.
struct Style {
  std::uint64_t omit = 4;       // leave out a member that holds its default
  std::uint64_t shuffle = 4;    // shuffle the members of an object
  std::uint64_t escape = 1;     // spell some characters of a string with escapes
  std::uint64_t kindObject = 4; // write a kind without parameters as {"tag": ...}
  std::uint64_t secondKey = 4;  // give a capsule of the table a second key
  std::uint64_t stray = 1;      // place a capsule against the plan's placement
  std::uint64_t space = 1;      // white space between tokens
  bool format = true, version = true;
};

Style drawStyle(Rng &rng) {
  Style s;
  const std::uint64_t levels[] = {0, 2, 4, 6, 8};
  s.omit = 2 + rng.below(5); // 2..6: both spellings of a default are frequent
  s.shuffle = levels[rng.below(5)];
  s.escape = rng.chance(1, 3) ? 0 : 1 + rng.below(4);
  s.kindObject = levels[rng.below(5)];
  s.secondKey = rng.chance(1, 3) ? 0 : 2 + rng.below(5);
  s.stray = rng.chance(1, 2) ? 0 : 1 + rng.below(3);
  s.space = rng.below(3);
  s.format = !rng.chance(1, 4);
  s.version = !rng.chance(1, 4);
  return s;
}

/// A boolean or a number appended as JSON spells it (the one spelling of both printers below);
/// false for another value.
bool scalar(std::string &out, const Value &v) {
  if (v.type == Value::Type::boolean)
    out += v.boolean ? "true" : "false";
  else if (v.type == Value::Type::number)
    out += std::to_string(v.number);
  else
    return false;
  return true;
}

class Printer {
public:
  Printer(Rng &rng, const Style &style) : rng_(rng), style_(style) {}

  void value(const Value &v) {
    if (scalar(out_, v))
      return;
    if (v.type == Value::Type::string)
      string(v.text);
    else if (v.type == Value::Type::array)
      array(v.items);
    else
      object(v.members);
  }

  void array(const std::vector<Value> &items) {
    out_ += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i)
        comma();
      value(items[i]);
    }
    out_ += ']';
  }

  /// An object: members that hold their default left out or kept, the rest in a shuffled order.
  void object(const std::vector<Member> &members) {
    std::vector<const Member *> kept;
    for (const Member &m : members)
      if (!(m.omittable && take(style_.omit)))
        kept.push_back(&m);
    if (take(style_.shuffle))
      for (std::size_t i = kept.size(); i > 1; --i) // Fisher-Yates with the portable generator
        std::swap(kept[i - 1], kept[rng_.below(i)]);
    out_ += '{';
    for (std::size_t i = 0; i < kept.size(); ++i) {
      if (i)
        comma();
      member(kept[i]->key, kept[i]->value);
    }
    out_ += '}';
  }

  void member(std::string_view key, const Value &v) {
    string(key);
    out_ += ':';
    space();
    value(v);
  }

  /// A JSON string of `s`: what must be escaped is, and with the style's chance some other ASCII
  /// characters are too (`\u0041` for `A`, `\/` for `/`), so the text differs and the string not.
  void string(std::string_view s) {
    const bool escapeSome = take(style_.escape);
    out_ += '"';
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += ch;
      } else if (c == '\n') {
        out_ += "\\n";
      } else if (c == '\t') {
        out_ += rng_.chance(1, 2) ? "\\t" : "\\u0009";
      } else if (c < 0x20) {
        unicode(c);
      } else if (escapeSome && c < 0x80 && rng_.chance(1, 3)) {
        if (c == '/' && rng_.chance(1, 2))
          out_ += "\\/";
        else
          unicode(c);
      } else {
        out_ += ch;
      }
    }
    out_ += '"';
  }

  void raw(std::string_view s) { out_ += s; }
  void comma() {
    out_ += ',';
    space();
  }
  void space() {
    if (style_.space && rng_.chance(style_.space, 8))
      out_ += rng_.chance(1, 2) ? " " : "\n  ";
  }
  bool take(std::uint64_t eighths) { return eighths && rng_.chance(eighths, 8); }
  Rng &rng() { return rng_; }
  std::string &text() { return out_; }

private:
  void unicode(unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, rng_.chance(1, 2) ? "\\u%04x" : "\\u%04X", c);
    out_ += buf;
  }

  Rng &rng_;
  const Style &style_;
  std::string out_;
};

/// A generator for one part of the plan, from the plan's seed and what identifies the part, so
/// that a kernel keeps its spelling when `diff` shrinks the plan around it.
Rng partRng(std::uint64_t seed, std::uint64_t part) {
  Rng mix(seed ^ (part * 0x9e3779b97f4a7c15ULL));
  return Rng(mix.next());
}

/// FNV-1a: a portable hash of a key's text.
std::uint64_t textHash(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s)
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

/// The document: its members in `order` ("format", "version", "capsules", "kernels"), the table's
/// entries (`"KEY":{...}`) and the kernels already spelled.
std::string document(Printer &p, const std::vector<std::string> &order,
                     const std::vector<std::string> &entries,
                     const std::vector<std::string> &kernels) {
  p.raw("{\n");
  for (std::size_t m = 0; m < order.size(); ++m) {
    p.raw(m ? ",\n  " : "  ");
    const std::string &name = order[m];
    if (name == "format") {
      p.member(name, str("nn-backend/graph-execution-plan"));
    } else if (name == "version") {
      p.member(name, num(1));
    } else {
      const bool table = name == "capsules";
      const std::vector<std::string> &items = table ? entries : kernels;
      p.string(name);
      p.raw(table ? ": {" : ": [");
      for (std::size_t i = 0; i < items.size(); ++i) {
        p.raw(i ? ",\n    " : "\n    ");
        p.raw(items[i]);
      }
      p.raw(items.empty() ? "" : "\n  ");
      p.raw(table ? "}" : "]");
    }
  }
  p.raw("\n}\n");
  return std::move(p.text());
}

} // namespace

std::string spelledPlanJson(const Interner &interner, const GraphExecutionPlan &plan,
                            Placement placement, std::uint64_t seed, Edition edition) {
  Rng rng(seed);
  const Style style = drawStyle(rng);
  Printer p(rng, style);

  // Where each kernel's capsule goes: the plan's placement, and with the style's chance the other.
  std::vector<bool> inlined(plan.kernels.size());
  for (std::size_t i = 0; i < inlined.size(); ++i) {
    Rng r = partRng(seed, plan.kernels[i].nodeId);
    Printer q(r, style);
    const bool base = placement == Placement::inline_ ||
                      (placement == Placement::mixed && plan.kernels[i].nodeId % 2 == 1);
    inlined[i] = q.take(style.stray) ? !base : base;
  }

  // The table: the written keys, and for some capsules a second key to the same capsule, which
  // readers accept (docs/spec.md §2.5, "Capsule keys").
  std::vector<CapsuleId> keyed;
  for (std::size_t i = 0; i < inlined.size(); ++i)
    if (!inlined[i])
      keyed.push_back(plan.kernels[i].capsule);
  const io::CapsuleKeys canonical(interner, keyed);
  std::unordered_map<CapsuleId, std::vector<std::string>> keys;
  std::set<std::string> taken;
  for (CapsuleId id : canonical.order())
    taken.insert(canonical.key(id));
  std::vector<std::pair<std::string, CapsuleId>> table;
  for (CapsuleId id : canonical.order()) {
    keys[id].push_back(canonical.key(id));
    table.emplace_back(canonical.key(id), id);
    Rng r = partRng(seed, textHash(canonical.key(id)));
    if (Printer(r, style).take(style.secondKey)) {
      std::string alt = canonical.key(id) + " (also)";
      for (int n = 2; taken.count(alt); ++n)
        alt = canonical.key(id) + " (also " + std::to_string(n) + ")";
      taken.insert(alt);
      keys[id].push_back(alt);
      table.emplace_back(alt, id);
    }
  }

  // The kernels, each spelled from its own generator.
  std::vector<std::string> kernels;
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    const PlannedNodeKernel &k = plan.kernels[i];
    Rng r = partRng(seed, k.nodeId ^ 0x6b65726e656cULL);
    Printer q(r, style);
    Object o;
    o.add("nodeId", num(k.nodeId))
        .add("kind", kindValue(interner.kind(k.kind), q.take(style.kindObject)))
        .add("op", enumValue(k.op));
    if (inlined[i]) {
      o.add("capsule", capsuleValue(interner.capsule(k.capsule), edition));
    } else {
      const auto &names = keys.at(k.capsule);
      o.add("capsule", str(names[r.below(names.size())]));
    }
    q.value(o.v);
    kernels.push_back(std::move(q.text()));
  }

  // The table's entries, each key's capsule spelled on its own: two keys of one capsule differ
  // in text.
  std::vector<std::string> entries;
  for (const auto &[key, id] : table) {
    Rng r = partRng(seed, textHash(key) ^ 0x7461626c65ULL);
    Printer q(r, style);
    q.member(key, capsuleValue(interner.capsule(id), edition));
    entries.push_back(std::move(q.text()));
  }

  // The document: format and version present or not, members in any order.
  std::vector<std::string> order;
  if (style.format)
    order.push_back("format");
  if (style.version)
    order.push_back("version");
  if (!table.empty() || rng.chance(1, 8))
    order.push_back("capsules");
  order.push_back("kernels");
  if (p.take(style.shuffle))
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[rng.below(i)]);
  return document(p, order, entries, kernels);
}

namespace {

/// `v` without the members that hold their default which `omit` leaves out; `depth` 0 is the
/// capsule's own members.
Value pruned(const Value &v, Omit omit, int depth = 0) {
  Value out = v;
  if (v.type == Value::Type::object) {
    out.members.clear();
    const bool leaveOut = omit == Omit::all || (omit == Omit::top && depth == 0) ||
                          (omit == Omit::nested && depth > 0);
    for (const Member &m : v.members)
      if (!(m.omittable && leaveOut))
        out.members.push_back({m.key, pruned(m.value, omit, depth + 1), m.omittable});
  } else if (v.type == Value::Type::array) {
    for (Value &item : out.items)
      item = pruned(item, omit, depth + 1);
  }
  return out;
}

/// Prints a value as a chosen spelling says: members reversed or not, its escapes, pretty or
/// without white space.
class ChosenPrinter {
public:
  explicit ChosenPrinter(const PlanText &text) : text_(text) {}

  void value(const Value &v, int indent = 0) {
    const std::string sep = text_.pretty ? "\n" + std::string(2 * (indent + 1), ' ') : "";
    const std::string end = text_.pretty ? "\n" + std::string(2 * indent, ' ') : "";
    if (scalar(out, v))
      return;
    switch (v.type) {
    case Value::Type::boolean:
    case Value::Type::number: break;
    case Value::Type::string: string(v.text); break;
    case Value::Type::array:
      out += '[';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        out += (i ? "," : "") + sep;
        value(v.items[i], indent + 1);
      }
      out += (v.items.empty() ? "" : end) + "]";
      break;
    case Value::Type::object: {
      std::vector<const Member *> members;
      for (const Member &m : v.members)
        members.push_back(&m);
      if (text_.reverseFields)
        std::reverse(members.begin(), members.end());
      out += '{';
      for (std::size_t i = 0; i < members.size(); ++i) {
        out += (i ? "," : "") + sep;
        string(members[i]->key);
        out += text_.pretty ? ": " : ":";
        value(members[i]->value, indent + 1);
      }
      out += (members.empty() ? "" : end) + "}";
      break;
    }
    }
  }

  std::string out;

private:
  void string(std::string_view s) {
    out += '"';
    for (std::size_t i = 0; i < s.size();) {
      const auto c = static_cast<unsigned char>(s[i]);
      const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      const std::string_view ch = s.substr(i, n);
      i += n;
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20) {
        unicode(c);
      } else if (c == '/' && text_.escapes != Escapes::none) {
        out += "\\/";
      } else if (text_.escapes == Escapes::unicode &&
                 (c > 0x7E || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
        std::uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
        for (std::size_t k = 1; k < ch.size(); ++k)
          cp = cp << 6 | (static_cast<unsigned char>(ch[k]) & 0x3F);
        if (cp > 0xFFFF) {
          cp -= 0x10000;
          unicode(0xD800 + (cp >> 10));
          unicode(0xDC00 + (cp & 0x3FF));
        } else {
          unicode(cp);
        }
      } else {
        out += ch;
      }
    }
    out += '"';
  }
  void unicode(std::uint32_t cp) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
    out += buf;
  }

  const PlanText &text_;
};

} // namespace

std::string chosenPlanJson(const Interner &interner, const GraphExecutionPlan &plan,
                           const PlanText &text, Edition edition) {
  Object table;
  for (const PlanText::Entry &e : text.table)
    table.add(e.key, pruned(capsuleValue(interner.capsule(e.capsule), edition), e.omit));
  std::vector<Value> kernels;
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    const PlannedNodeKernel &k = plan.kernels[i];
    const PlanText::Kernel &how = text.kernels.at(i);
    Value kind = kindValue(interner.kind(k.kind), how.kindObject);
    if (text.reverseParams && kind.members.size() > 2) // the tag first, then the parameters
      std::reverse(kind.members.begin() + 1, kind.members.end());
    Object o;
    o.add("nodeId", num(k.nodeId)).add("kind", std::move(kind)).add("op", enumValue(k.op));
    if (how.entry)
      o.add("capsule", str(text.table.at(*how.entry).key));
    else
      o.add("capsule", pruned(capsuleValue(interner.capsule(k.capsule), edition), how.omit));
    kernels.push_back(std::move(o.v));
  }
  Object doc;
  if (text.header)
    doc.add("format", str("nn-backend/graph-execution-plan")).add("version", num(1));
  if (text.edition)
    doc.add("edition", str(*text.edition));
  const bool withTable = !text.table.empty();
  if (withTable && text.tableFirst)
    doc.add("capsules", table.v);
  doc.add("kernels", array(std::move(kernels)));
  if (withTable && !text.tableFirst)
    doc.add("capsules", table.v);
  ChosenPrinter p(text);
  p.value(doc.v);
  return std::move(p.out) + "\n";
}

} // namespace lo::plans
