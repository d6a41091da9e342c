// docs/spec.md §10.6.
#include "ref/io/graph_writer.hpp"

#include "ref/io/graph_reader.hpp"
#include "ref/io/output.hpp"
#include "ref/io/writer.hpp"

#include <span>
#include <stdexcept>

namespace lo::io {

namespace {

void naturals(Sink &out, std::span<const std::uint64_t> values) {
  out << '[';
  commaSeparated(out, values, [&](std::uint64_t v) { out << v; });
  out << ']';
}

} // namespace

std::string graphJson(const selection::Graph &g, const Interner &interner) {
  std::string text;
  {
    Sink out(text);
    out << "{\"format\": \"torchlean.ir.v1\", \"nodes\": [";
    bool first = true;
    for (const selection::Node &n : g.nodes) {
      out << (first ? "\n  " : ",\n  ");
      first = false;
      const OpKind &k = interner.kind(n.kind);
      out << "{\"id\": " << n.id << ", \"kind\": \"" << spelling(k.tag) << "\", \"parents\": ";
      naturals(out, n.parents);
      out << ", \"shape\": [1]";
      const KindSignature &sig = signature(k.tag);
      for (std::size_t i = 0; i < sig.params.size(); ++i) {
        const ParamType t = sig.params[i].type;
        if (!graphCarries(t))
          throw std::logic_error("graphJson: kind " + std::string(spelling(k.tag)) +
                                 " has a parameter torchlean.ir.v1 does not carry");
        out << ", ";
        out.jsonString(wireParamName(k.tag, sig.params[i].name));
        out << ": ";
        if (t == ParamType::natural)
          out << k.params[i].at(0);
        else
          naturals(out, k.params[i]);
      }
      out << '}';
    }
    out << "\n]}\n";
    out.flush();
  }
  return text;
}

std::string profileJson(const selection::BackendProfile &p, Edition edition) {
  using Kind = acceptance::ProviderPreference::Kind;
  std::string text;
  {
    Sink out(text);
    out << "{\"format\": \"lowering-oracle/backend-profile\", \"name\": ";
    out.jsonString(p.name);
    out << ",\n \"policy\": {\"device\": \"" << spelling(p.policy.device) << "\", \"provider\": ";
    if (p.policy.provider.kind == Kind::automatic)
      out << "\"auto\"";
    else
      out << "{\"" << (p.policy.provider.kind == Kind::prefer ? "prefer" : "only") << "\": \""
          << spelling(p.policy.provider.provider) << "\"}";
    out << ", \"assurance\": \"" << acceptance::assuranceSpelling(p.policy.assurance)
        << "\", \"vjpMode\": \"" << spelling(p.policy.vjpMode) << "\"},\n \"availability\": {";
    out << "\"devices\": [";
    commaSeparated(out, p.availability.devices,
                   [&](Device d) { out << '"' << spelling(d) << '"'; });
    out << "], \"providers\": [";
    commaSeparated(out, p.availability.providers,
                   [&](Provider v) { out << '"' << spelling(v) << '"'; });
    out << "]},\n \"modules\": [";
    bool firstModule = true;
    for (const selection::CapsuleModule &m : p.capsuleModules) {
      out << (firstModule ? "\n  " : ",\n  ") << "{\"name\": ";
      firstModule = false;
      out.jsonString(m.name);
      out << ", \"capsules\": [";
      bool firstCapsule = true;
      for (const KernelCapsule &c : m.capsules) {
        out << (firstCapsule ? "\n    " : ",\n    ");
        firstCapsule = false;
        writeCapsule(out, c, edition);
      }
      out << "]}";
    }
    out << "\n ]}\n";
    out.flush();
  }
  return text;
}

} // namespace lo::io
