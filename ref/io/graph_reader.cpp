// docs/spec.md §10.6.
#include "ref/io/graph_reader.hpp"

#include "ref/io/contract_reader.hpp"
#include "ref/io/direct_scanner.hpp"
#include "ref/io/strict_json.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace lo::io {

namespace {

constexpr std::string_view kGraphFormat = "torchlean.ir.v1";
constexpr std::string_view kRegistryFormat = "lowering-oracle/capsule-registry";
constexpr std::string_view kProfileFormat = "lowering-oracle/backend-profile";

constexpr std::string_view kGraphFields[] = {"format", "input_id", "output_id", "output_ids",
                                             "nodes"};
constexpr std::string_view kNodeFields[] = {"id", "kind", "parents", "shape", "value_kind"};
/// The fields a graph and a node must have.
constexpr std::uint32_t kGraphRequired = fieldBits(kGraphFields, {"format", "nodes"});
constexpr std::uint32_t kNodeRequired = fieldBits(kNodeFields, {"id", "kind", "parents", "shape"});
/// `{"id":0,"kind":"K","parents":[],"shape":[]},`: the nodes array is reserved once for the most
/// nodes a document can hold, as the other readers' arrays are (ref/io/reader_detail.hpp).
constexpr std::size_t kShortestNode =
    std::string_view(R"({"id":0,"kind":"","parents":[],"shape":[]},)").size() +
    detail::shortestSpelling<KindTag>();
/// Fields of a node that carry a payload (weights, statistics): accepted, not read.
constexpr std::string_view kPayloadFields[] = {"gamma", "beta", "mean", "var", "eps"};

class GraphReader : public JsonReader {
public:
  GraphReader(const Source &source, Interner &interner, Edition edition)
      : JsonReader(source), interner_(interner) {
    setEdition(edition);
  }

  selection::Node node(od::value &v);

private:
  Interner &interner_;
};

/// wireParamName of each parameter of each kind, computed once.
const std::vector<std::string> &wireParamNames(KindTag tag) {
  static const auto names = [] {
    std::array<std::vector<std::string>, vocabularySize<KindTag>()> out;
    for (std::size_t t = 0; t < out.size(); ++t) {
      const auto kind = static_cast<KindTag>(t);
      for (const ParamSpec &p : signature(kind).params)
        out[t].push_back(wireParamName(kind, p.name));
      if (out[t].size() > 64)
        throw std::logic_error("a kind of more than 64 parameters");
    }
    return out;
  }();
  return names[static_cast<std::size_t>(tag)];
}

selection::Node GraphReader::node(od::value &v) {
  const char *start = location(v);
  od::object obj = object(v, "a node");
  selection::Node n;
  std::optional<KindTag> tag;
  const KindSignature *sig = nullptr;
  const std::vector<std::string> *wire = nullptr;
  bool payload = false;
  OpKind k;
  std::vector<std::uint64_t> shape;
  std::uint32_t seen = 0;
  std::uint64_t have = 0; // one bit a parameter
  std::array<std::string_view, 16> extraSeen;
  std::size_t extraCount = 0;
  // A kind's parameters are read as they come once the kind is known: the exporter writes "kind"
  // before them. A parameter (or a const's shape) met before the kind is read by a second pass.
  bool again = false;
  auto parameter = [&](const char *keyAt, std::string_view key, od::value &x) {
    const auto seenEnd = extraSeen.begin() + static_cast<std::ptrdiff_t>(extraCount);
    if (std::find(extraSeen.begin(), seenEnd, key) != seenEnd)
      fail(keyAt, "duplicate field " + quote(key) + " in a node");
    extraSeen[extraCount++] = key;
    std::size_t i = 0;
    while (i < wire->size() && (*wire)[i] != key)
      ++i;
    if (i == wire->size()) {
      if (payload && std::find(std::begin(kPayloadFields), std::end(kPayloadFields), key) !=
                         std::end(kPayloadFields))
        return; // a payload: not read (docs/spec.md §10.6)
      fail(keyAt, "kind " + quote(spelling(*tag)) + " has no field " + quote(key));
    }
    have |= std::uint64_t{1} << i;
    if (sig->params[i].type == ParamType::naturals)
      k.params[i] = naturals(x, "an array of naturals");
    else if (sig->params[i].type == ParamType::natural)
      k.params[i].push_back(natural(x, "a natural number"));
    else
      fail(location(x), "kind " + quote(spelling(*tag)) + ": parameter " + quote(key) +
                            " is not read from torchlean.ir.v1");
  };
  std::size_t extra = 0;
  // The first pass keeps its index: a parameter before the kind reads the node again.
  std::optional<KeepIndex> kept(std::in_place, *this);
  objectFields(obj, [&](const char *keyAt, std::string_view key, od::value &x) {
    std::size_t i = 0;
    while (i < std::size(kNodeFields) && kNodeFields[i] != key)
      ++i;
    if (i == std::size(kNodeFields)) {
      if (++extra > 16)
        fail(keyAt, "too many fields in a node");
      if (tag && !again)
        parameter(keyAt, key, x);
      else
        again = true;
      return;
    }
    if (seen & fieldBit(i))
      fail(keyAt, "duplicate field " + quote(key) + " in a node");
    seen |= fieldBit(i);
    switch (i) {
    case 0: n.id = natural(x, "a node id", kNodeIdLimit); break;
    case 1: {
      tag = enumValue<KindTag>(x, "a kind");
      sig = &signature(*tag);
      wire = &wireParamNames(*tag);
      payload = *tag == KindTag::layernorm || spelling(*tag) == "batch_norm_eval";
      k = OpKind{*tag, std::vector<std::vector<std::uint64_t>>(sig->params.size())};
      break;
    }
    case 2: n.parents = naturals<NodeIdList>(x, "the parents"); break;
    case 3: // checked here, held only by a `const`
      if (tag == KindTag::const_) {
        shape = naturals(x, "a shape");
      } else {
        elements(x, "a shape", [&](od::value &e) { (void)natural(e, "a natural number"); });
        again = again || !tag;
      }
      break;
    case 4: {
      const char *at = location(x);
      if (string(x, "a value kind") != "tensor")
        fail(at, "only tensor values are read (\"value_kind\": \"tensor\"); a tuple value has no "
                 "kind of its own");
      break;
    }
    }
  });
  for (std::size_t i = 0; i < std::size(kNodeFields); ++i)
    if ((kNodeRequired & fieldBit(i)) && !(seen & fieldBit(i)))
      fail(start, "missing field " + quote(kNodeFields[i]) + " in a node");
  if (again) {
    extraCount = 0;
    have = 0;
    rewind(obj, *kept);
    kept.reset();
    objectFields(obj, [&](const char *keyAt, std::string_view key, od::value &x) {
      if (std::find(std::begin(kNodeFields), std::end(kNodeFields), key) != std::end(kNodeFields)) {
        if (key == "shape" && *tag == KindTag::const_)
          shape = naturals(x, "a shape");
        return;
      }
      parameter(keyAt, key, x);
    });
  }
  for (std::size_t i = 0; i < sig->params.size(); ++i) {
    if (have & (std::uint64_t{1} << i))
      continue;
    if (*tag == KindTag::const_) { // `value_shape` defaults to the node's shape
      k.params[i] = shape;
      continue;
    }
    fail(start, "missing field " + quote((*wire)[i]) + " of kind " + quote(spelling(*tag)));
  }
  n.op = sig->op;
  n.kind = interner_.intern(std::move(k));
  return n;
}

} // namespace

bool graphCarries(KindTag tag) {
  for (const ParamSpec &p : signature(tag).params)
    if (!graphCarries(p.type))
      return false;
  return true;
}

std::string wireParamName(KindTag tag, std::string_view name) {
  // upstream's importer (NN/Runtime/PyTorch/Import/TorchExport.lean): the exceptions.
  if (tag == KindTag::flatten && name == "s")
    return "value_shape";
  if (name == "s1")
    return "from_shape";
  if (name == "s2")
    return "to_shape";
  std::string out;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

/// The nodes the direct path keeps (readGraphDirect): 2^kNodeSetBits sets (Scanner::HoledTexts).
constexpr unsigned kNodeSetBits = 6;

/// The set of a node's text at `at`: chosen by the 16 bytes after its first number (the first
/// run of digits within its first 32 bytes), or set 0.
std::size_t nodeSet(const char *at, const char *end) {
  const char *p = at;
  while (p < end && p < at + 32 && !(*p >= '0' && *p <= '9'))
    ++p;
  while (p < end && *p >= '0' && *p <= '9')
    ++p;
  if (end - p < 16)
    return 0;
  std::uint64_t a, b;
  std::memcpy(&a, p, 8);
  std::memcpy(&b, p + 8, 8);
  return memoSlot(kNodeSetBits, a, b);
}

} // namespace

std::optional<selection::Graph> detail::readGraphDirect(const Source &source, Interner &interner,
                                                        Edition edition) {
  // The nodes whose kinds have no parameter, with no field but those of kNodeFields (a kind with
  // parameters, and so a payload, is left to the strict reader).
  return detail::declinable([&] {
    detail::Scanner s(source, interner, edition);
    selection::Graph g;
    std::array<std::optional<KindId>, vocabularySize<KindTag>()> interned;
    struct Known { // what a node's text with holes gave
      std::size_t idHole = 0;
      std::optional<BackendOp> op;
      KindId kind{};
    };
    detail::Scanner::HoledTexts<Known> known(kNodeSetBits);
    std::array<std::uint64_t, detail::kMostHoles> numbers;
    std::uint32_t seen = 0;
    constexpr auto every = [](const auto &names) { return allFieldBits(std::size(names)); };
    s.objectFields(kGraphFields, every(kGraphFields), seen, [&](std::size_t i) {
      switch (i) {
      case 0: s.format(kGraphFormat); break;
      case 1:
      case 2: (void)s.natural(UINT64_MAX); break;
      case 3: s.elements([&] { (void)s.natural(UINT64_MAX); }); break;
      default:
        s.elements([&] {
          selection::Node n;
          s.ws();
          const detail::Scanner::Mark start = s.mark();
          // A node written as one before but for its numbers (its id and its parents: a chain of
          // linear and relu, a model's repeated blocks) reads as that node did, with these
          // numbers. The nodes read are kept by the 16 bytes after their first number.
          const std::size_t set = nodeSet(start.at, s.textEnd());
          if (const auto *k = s.takeHoledIn(known, set, numbers)) {
            for (std::size_t i = 0; i < k->holed.holes; ++i)
              if (i == k->value.idHole)
                n.id = numbers[i];
              else
                n.parents.push_back(numbers[i]);
            n.op = k->value.op;
            n.kind = k->value.kind;
            g.nodes.push_back(std::move(n));
            return;
          }
          std::optional<KindTag> tag;
          detail::Scanner::HoleRecorder holes(s, start);
          std::optional<std::size_t> idHole;
          const auto field = [&](std::size_t f) {
            switch (f) {
            case 0:
              n.id = s.natural(kNodeIdLimit);
              idHole = holes.holes();
              holes.number(kNodeIdLimit);
              break;
            case 1:
              tag = lookupSpelling<KindTag>(s.string());
              if (!tag || !inEdition(*tag, s.edition()) || !signature(*tag).params.empty())
                detail::decline();
              break;
            case 2:
              n.parents.reserve(s.numberCount());
              s.elements([&] {
                n.parents.push_back(s.natural(UINT64_MAX));
                holes.number(UINT64_MAX);
              });
              break;
            case 3: s.elements([&] { (void)s.natural(UINT64_MAX); }); break;
            default:
              if (s.string() != "tensor")
                detail::decline();
            }
          };
          std::uint32_t fields = 0;
          s.objectFields(kNodeFields, every(kNodeFields), fields, field);
          if ((fields & kNodeRequired) != kNodeRequired)
            detail::decline();
          n.op = signature(*tag).op;
          auto &id = interned[static_cast<std::size_t>(*tag)];
          if (!id)
            id = interner.intern(OpKind{*tag, {}});
          n.kind = *id;
          if (const auto holed = holes.holed(); holed && idHole && *idHole < holed->holes)
            known.remember(set, {*holed, Known{*idHole, n.op, n.kind}});
          if (g.nodes.capacity() == 0) // as the strict reader reserves
            g.nodes.reserve(source.text.size() / kShortestNode);
          g.nodes.push_back(std::move(n));
        });
      }
    });
    if ((seen & kGraphRequired) != kGraphRequired)
      detail::decline();
    s.end();
    return g;
  });
}

selection::Graph readGraph(const Source &source, Interner &interner, Edition edition) {
  if (auto g = detail::readGraphDirect(source, interner, edition))
    return std::move(*g);
  return detail::readGraphStrict(source, interner, edition);
}

selection::Graph detail::readGraphStrict(const Source &source, Interner &interner,
                                         Edition edition) {
  GraphReader r(source, interner, edition);
  selection::Graph g;
  r.rootFields("a torchlean.ir.v1 graph", FieldSet{kGraphFields, kGraphRequired},
               [&](std::size_t i, od::value v) {
                 switch (i) {
                 case 0: r.expectFormat(v, kGraphFormat); break;
                 case 1:
                 case 2: (void)r.natural(v, "a node id"); break;
                 case 3: (void)r.naturals(v, "node ids"); break;
                 case 4:
                   // No node is shorter than 40 bytes: room for all of them, never copied (and
                   // never shrunk: the pages the nodes do not reach are never touched).
                   g.nodes.reserve(source.text.size() / kShortestNode);
                   r.elements(v, "the nodes array",
                              [&](od::value &nv) { g.nodes.push_back(r.node(nv)); });
                   break;
                 }
               });
  return g;
}

namespace {

constexpr std::string_view kRegistryFields[] = {"format", "version", "modules"};
constexpr std::string_view kModuleFields[] = {"name", "capsules", "maintained"};

std::vector<selection::CapsuleModule> readModules(JsonReader &r, od::value &v) {
  std::vector<selection::CapsuleModule> modules;
  r.elements(v, "the modules array", [&](od::value &mv) {
    selection::CapsuleModule m;
    const char *start = r.location(mv);
    bool maintained = false;
    const std::uint32_t seen =
        r.fields(mv, "a module", FieldSet{kModuleFields, fieldBits(kModuleFields, {"name"})},
                 [&](std::size_t i, od::value x) {
                   if (i == 0)
                     m.name = std::string(r.string(x, "a module name"));
                   else if (i == 1)
                     r.elements(x, "the capsules array", [&](od::value &cv) {
                       m.capsules.push_back(readRecord<KernelCapsule>(r, cv));
                     });
                   else
                     maintained = r.boolean(x, "true or false");
                 });
    if (maintained) {
      if (!selection::hasMaintainedData(r.edition()))
        r.fail(start, selection::noMaintainedData(r.edition()));
      if (seen & fieldBit(1))
        r.fail(start, "a maintained module has no \"capsules\"");
      auto known = selection::maintainedModule(m.name);
      if (!known)
        r.fail(start, "no maintained module " + quote(m.name));
      m = std::move(*known);
    } else if (!(seen & fieldBit(1))) {
      r.fail(start, "missing field \"capsules\" in a module");
    }
    modules.push_back(std::move(m));
  });
  return modules;
}

} // namespace

std::vector<selection::CapsuleModule> readRegistry(const Source &source, Edition edition) {
  JsonReader r(source);
  r.setEdition(edition);
  std::vector<selection::CapsuleModule> modules;
  r.documentFields("a capsule registry", kRegistryFormat,
                   FieldSet{kRegistryFields, fieldBits(kRegistryFields, {"modules"})},
                   [&](std::size_t, od::value v) { modules = readModules(r, v); });
  return modules;
}

namespace {

constexpr std::string_view kProfileFields[] = {"format", "version",      "name",
                                               "policy", "availability", "modules"};
constexpr std::string_view kPolicyFields[] = {"device", "provider", "assurance", "vjpMode"};
constexpr std::string_view kPreferenceFields[] = {"prefer", "only"};
constexpr std::string_view kAvailabilityFields[] = {"devices", "providers"};

acceptance::KernelPolicy readPolicy(JsonReader &r, od::value &v) {
  acceptance::KernelPolicy p;
  r.fields(v, "a policy", FieldSet{kPolicyFields, 0}, [&](std::size_t i, od::value x) {
    switch (i) {
    case 0: p.device = r.enumValue<Device>(x); break;
    case 1: {
      od::json_type t;
      if (auto err = x.type().get(t))
        r.failSimd(err, r.location(x));
      if (t == od::json_type::string) {
        const char *at = r.location(x);
        if (r.string(x, "a provider preference") != "auto")
          r.fail(at, "expected \"auto\", {\"prefer\": PROVIDER} or {\"only\": PROVIDER}");
        p.provider = acceptance::ProviderPreference::autoPreference();
        break;
      }
      const char *at = r.location(x);
      const std::uint32_t seen =
          r.fields(x, "a provider preference", FieldSet{kPreferenceFields, 0},
                   [&](std::size_t j, od::value y) {
                     const Provider provider = r.enumValue<Provider>(y);
                     p.provider = j == 0 ? acceptance::ProviderPreference::prefer(provider)
                                         : acceptance::ProviderPreference::only(provider);
                   });
      if (std::popcount(seen) != 1)
        r.fail(at, "expected \"auto\", {\"prefer\": PROVIDER} or {\"only\": PROVIDER}");
      break;
    }
    case 2: {
      const char *at = r.location(x);
      const std::string_view s = r.string(x, "an assurance policy");
      const std::optional<acceptance::AssurancePolicy> a = acceptance::parseAssurance(s);
      if (!a)
        r.fail(at, "unknown assurance policy " + quote(s) + "; expected one of: " +
                       std::string(
                           acceptance::assuranceSpelling(acceptance::AssurancePolicy::checked())) +
                       ", " +
                       std::string(
                           acceptance::assuranceSpelling(acceptance::AssurancePolicy::external())));
      p.assurance = *a;
      break;
    }
    case 3: p.vjpMode = r.enumValue<VJPMode>(x); break;
    }
  });
  return p;
}

selection::Availability readAvailability(JsonReader &r, od::value &v) {
  selection::Availability a;
  r.fields(v, "an availability", FieldSet{kAvailabilityFields, 0}, [&](std::size_t i, od::value x) {
    if (i == 0) {
      a.devices.clear();
      r.elements(x, "the devices array",
                 [&](od::value &y) { a.devices.push_back(r.enumValue<Device>(y)); });
    } else {
      a.providers.clear();
      r.elements(x, "the providers array",
                 [&](od::value &y) { a.providers.push_back(r.enumValue<Provider>(y)); });
    }
  });
  return a;
}

} // namespace

selection::BackendProfile readProfile(const Source &source, Edition edition, bool modulesReplaced) {
  JsonReader r(source);
  r.setEdition(edition);
  selection::BackendProfile p;
  bool modules = false;
  r.documentFields("a backend profile", kProfileFormat,
                   FieldSet{kProfileFields, fieldBits(kProfileFields, {"name", "policy"})},
                   [&](std::size_t i, od::value v) {
                     switch (i) {
                     case 2: p.name = std::string(r.string(v, "a profile name")); break;
                     case 3: p.policy = readPolicy(r, v); break;
                     case 4: p.availability = readAvailability(r, v); break;
                     case 5:
                       p.capsuleModules = readModules(r, v);
                       modules = true;
                       break;
                     }
                   });
  if (!modules && !modulesReplaced) {
    if (!selection::hasMaintainedData(edition))
      throw InputError(source.name, 1, 1, "",
                       "a profile without \"modules\" takes the maintained modules; " +
                           selection::noMaintainedData(edition));
    p.capsuleModules = selection::maintainedModules();
  }
  return p;
}

} // namespace lo::io
