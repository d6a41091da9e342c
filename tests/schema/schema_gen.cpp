// Writes the JSON Schemas of docs/schema/ for every edition (docs/spec.md §9, §1.6) from one
// template set (tests/schema/template/) and the declarations of ref/: the vocabularies and their
// editions (ref/edition.hpp), the records' field tables (ref/record.hpp), the kinds' signatures
// (ref/opkind.hpp) and the evidence dispositions (ref/recheck.hpp).
//
//     lo_schema_gen TEMPLATE_DIR OUT_DIR
//
// writes the newest edition's set into OUT_DIR and every older edition's into OUT_DIR/EDITION/
// (every template inSet of the edition). `schema.generated` holds docs/schema/ equal to
// its output; docs/schema/README.md gives the command that regenerates it.
//
// A template is JSON text with these placeholders, each replaced by what the edition declares:
//   `@EDITION@` in a string                 the edition's name
//   `"@vocabulary NAME"` as a value          the edition's values of vocabulary NAME, an array
//   `"@record": "NAME"` as a member          `type`, `properties`, `required` and
//                                            `additionalProperties` of record NAME (for a tagged
//                                            record, `oneOf` with one branch per tag)
//   `"@kinds NAME"` as a value               the branches of Kind or PlannedKind
//   `"@dispositions"` as a value             ObligationReport's disposition of each evidence tag
//   `"HardMask": "@hardMask",` as a member   the HardMask definition, in the editions with a kind
//                                            that has a HardMask parameter (else nothing)
//   `"@auditTrustLevels": ...` as a member   ExecutionAudit's `trustLevels` property, and
//   `"@auditTrustLevels"` as an array item   its name among the required ones, in the editions
//                                            whose audit has it (`EditionRules::auditTrustLevels`;
//                                            else nothing)
#include "checks/checks.hpp"
#include "ref/acceptance_profile.hpp"
#include "ref/audit.hpp"
#include "ref/capsule.hpp"
#include "ref/edition.hpp"
#include "ref/gate.hpp"
#include "ref/opkind.hpp"
#include "ref/recheck.hpp"
#include "ref/record.hpp"
#include "ref/selection.hpp"
#include "tests/schema/record_schema.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using lo::Edition;
using namespace lo::schema;

// --- Vocabularies --------------------------------------------------------------------------------

template <class E> Json values(Edition e) {
  std::vector<Json> items;
  for (E v : lo::valuesOf<E>(e))
    items.push_back(str(lo::spelling(v)));
  return arr(std::move(items));
}

/// The vocabularies by their definition's name in common.schema.json.
const std::map<std::string, std::function<Json(Edition)>, std::less<>> kVocabularies = {
    {"BackendOp", values<lo::BackendOp>},
    {"Provider", values<lo::Provider>},
    {"Device", values<lo::Device>},
    {"TrustLevel", values<lo::TrustLevel>},
    {"VJPMode", values<lo::VJPMode>},
    {"TensorLayout", values<lo::TensorLayout>},
    {"Rounding", values<lo::Rounding>},
    {"Subnormals", values<lo::Subnormals>},
    {"Contraction", values<lo::Contraction>},
    {"Reduction", values<lo::Reduction>},
    {"GroupingKind", values<lo::GroupingKind>},
    {"Mode", values<lo::Mode>},
    {"Equality", values<lo::Equality>},
    {"Check", values<lo::Check>},
    {"Obligation", values<lo::ContractObligation>},
    {"Disposition", values<lo::EvidenceDisposition>},
    {"GateFailureKind", values<lo::GateFailureKind>},
    {"Edition", values<lo::Edition>}};

const std::map<std::string, std::function<Members(Edition)>, std::less<>> kRecords = {
    {"ContractClaim", recordMembers<lo::ContractClaim>},
    {"ContractEvidence", recordMembers<lo::ContractEvidence>},
    {"ContractProvenance", recordMembers<lo::ContractProvenance>},
    {"ContractDescriptor", recordMembers<lo::ContractDescriptor>},
    {"NumericalPolicy", recordMembers<lo::NumericalPolicy>},
    {"KernelCapsule", recordMembers<lo::KernelCapsule>},
    {"KernelAudit", recordMembers<lo::AuditRow>},
    {"LoweredKernelGroup", recordMembers<lo::LoweredKernelGroup>}};

// --- Kinds and dispositions ----------------------------------------------------------------------

/// The branches of `Kind` (every kind of the edition) or `PlannedKind` (those that map to an op):
/// the bare tags as a string, the same as `{"tag"}`, then one object per kind with parameters.
Json kinds(Edition e, bool plannedOnly) {
  Json bare = arr();
  std::vector<Json> withParams;
  for (lo::KindTag t : lo::valuesOf<lo::KindTag>(e)) {
    const auto &sig = lo::signature(t);
    if (plannedOnly && !sig.op)
      continue;
    if (sig.params.empty()) {
      bare.add("", str(lo::spelling(t)));
      continue;
    }
    Json props = obj({{"tag", obj({{"const", str(lo::spelling(t))}})}});
    Json required = arr({str("tag")});
    for (const auto &p : sig.params) {
      switch (p.type) {
      case lo::ParamType::natural: props.add(std::string(p.name), ref("Natural")); break;
      case lo::ParamType::naturals: props.add(std::string(p.name), ref("Naturals")); break;
      case lo::ParamType::hardMask: props.add(std::string(p.name), ref("HardMask")); break;
      case lo::ParamType::text:
        props.add(std::string(p.name), obj({{"type", str("string")}}));
        break;
      case lo::ParamType::shapes:
        props.add(std::string(p.name), obj({{"type", str("array")}, {"items", ref("Naturals")}}));
        break;
      }
      required.add("", str(p.name));
    }
    withParams.push_back(obj({{"type", str("object")},
                              {"properties", std::move(props)},
                              {"required", std::move(required)},
                              {"additionalProperties", rawJson("false")}}));
  }
  Json out = arr({obj({{"type", str("string")}, {"enum", bare}}),
                  obj({{"type", str("object")},
                       {"properties", obj({{"tag", obj({{"enum", bare}})}})},
                       {"required", arr({str("tag")})},
                       {"additionalProperties", rawJson("false")}})});
  for (auto &b : withParams)
    out.add("", std::move(b));
  return out;
}

bool hasHardMask(Edition e) {
  for (lo::KindTag t : lo::valuesOf<lo::KindTag>(e))
    for (const auto &p : lo::signature(t).params)
      if (p.type == lo::ParamType::hardMask)
        return true;
  return false;
}

/// ObligationReport's `allOf`: the disposition of each evidence tag of the edition.
Json dispositions(Edition e) {
  Json out = arr();
  for (lo::EvidenceTag t : lo::valuesOf<lo::EvidenceTag>(e)) {
    lo::ContractEvidence ev;
    ev.tag = t;
    const auto tagIs = obj({{"tag", obj({{"const", str(lo::spelling(t))}})}});
    out.add("",
            obj({{"if", obj({{"properties", obj({{"evidence", obj({{"properties", tagIs}})}})}})},
                 {"then",
                  obj({{"properties",
                        obj({{"disposition",
                              obj({{"const", str(lo::spelling(lo::disposition(ev)))}})}})}})}}));
  }
  return out;
}

// --- The templates -------------------------------------------------------------------------------

/// Whether template `name` is written into edition `e`'s set: `proofs.schema.json` (no value of
/// one edition only) into the newest's alone, `acceptance-result.schema.json` into those of the
/// editions whose gate is upstream's acceptance gate (its values are theirs), the documents that
/// `plan` reads into those of the editions with selection, every other template into every set.
bool inSet(const std::string &name, Edition e) {
  if (name == "proofs.schema.json")
    return e == lo::kNewestEdition;
  if (name == "acceptance-result.schema.json")
    return lo::acceptance::hasAcceptanceGate(e);
  if (name == "torchlean-ir-v1.schema.json" || name == "capsule-registry.schema.json" ||
      name == "backend-profile.schema.json") // what `plan` reads (docs/spec.md §10)
    return lo::selection::hasSelection(e);
  return true;
}

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "lo_schema_gen: %s\n", what.c_str());
  std::exit(1);
}

/// Whether edition `e` meets `condition`, the suffix of a template member's key
/// (`"acceptance@acceptanceGate": {`): the member is written, its key without the suffix, only
/// into the sets of the editions that meet it.
bool meets(const std::string &condition, Edition e, const std::string &file) {
  if (condition == "acceptanceGate")
    return lo::acceptance::hasAcceptanceGate(e);
  if (condition == "selection")
    return lo::selection::hasSelection(e);
  fail(file + ": no condition " + condition);
}

std::string replaceAll(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

/// The quoted word after `key` in `line` (`"@vocabulary NAME"` gives NAME for key "@vocabulary ").
std::string argument(const std::string &line, std::size_t at, std::size_t keyLength) {
  const std::size_t end = line.find('"', at + keyLength);
  if (end == std::string::npos)
    fail("unterminated placeholder: " + line);
  return line.substr(at + keyLength, end - at - keyLength);
}

std::string generate(const std::string &text, Edition e, const std::string &file) {
  std::istringstream in(text);
  std::string out, line;
  static const std::regex conditional(R"(^( *"[A-Za-z]+)@([A-Za-z]+)(": \{)$)");
  int skipping = -1; // the indentation of a member left out, until its closing line
  while (std::getline(in, line)) {
    const std::size_t indentation = line.find_first_not_of(' ');
    const int indent = indentation == std::string::npos ? 0 : static_cast<int>(indentation);
    if (skipping >= 0) {
      if (indent == skipping && line[static_cast<std::size_t>(indent)] == '}')
        skipping = -1;
      continue;
    }
    if (std::smatch m; std::regex_match(line, m, conditional)) {
      if (meets(m[2], e, file))
        out += std::string(m[1]) + std::string(m[3]) + "\n";
      else
        skipping = indent;
      continue;
    }
    const bool comma = !line.empty() && line.back() == ',';
    line = replaceAll(line, "@EDITION@", lo::spelling(e));
    if (std::size_t at = line.find("\"@record\": \""); at != std::string::npos) {
      const std::string name = argument(line, at, 12);
      const auto it = kRecords.find(name);
      if (it == kRecords.end())
        fail(file + ": no record " + name);
      auto members = it->second(e);
      for (std::size_t i = 0; i < members.size(); ++i) {
        out.append(static_cast<std::size_t>(indent), ' ');
        out += "\"" + members[i].first + "\": ";
        print(out, members[i].second, indent);
        out += i + 1 < members.size() || comma ? ",\n" : "\n";
      }
      continue;
    }
    if (line.find("\"HardMask\": \"@hardMask\"") != std::string::npos) {
      if (hasHardMask(e)) {
        Json def = obj(
            {{"description", str("hardMaskedSoftmax's mask (docs/spec.md §1.7): a shape and its "
                                 "booleans, row-major; the size is not checked.")},
             {"type", str("object")},
             {"properties", obj({{"shape", ref("Naturals")},
                                 {"allowed", obj({{"type", str("array")},
                                                  {"items", obj({{"type", str("boolean")}})}})}})},
             {"required", arr({str("shape"), str("allowed")})},
             {"additionalProperties", rawJson("false")}});
        out.append(static_cast<std::size_t>(indent), ' ');
        out += "\"HardMask\": ";
        print(out, def, indent);
        out += comma ? ",\n" : "\n";
      }
      continue;
    }
    if (std::size_t at = line.find("\"@auditTrustLevels\""); at != std::string::npos) {
      if (!lo::rulesOf(e).auditTrustLevels)
        continue;
      if (line.find("\"@auditTrustLevels\":") != std::string::npos) {
        out.append(static_cast<std::size_t>(indent), ' ');
        out += "\"trustLevels\": ";
        print(out, obj({{"type", str("array")}, {"items", ref("TrustLevel")}}), indent);
        out += comma ? ",\n" : "\n";
        continue;
      }
      line.replace(at, 19, "\"trustLevels\"");
    }
    if (std::size_t at = line.find("\"@vocabulary "); at != std::string::npos) {
      const std::string name = argument(line, at, 13);
      const auto it = kVocabularies.find(name);
      if (it == kVocabularies.end())
        fail(file + ": no vocabulary " + name);
      std::string value;
      print(value, it->second(e), indent);
      line.replace(at, 13 + name.size() + 1, value);
    } else if (std::size_t k = line.find("\"@kinds "); k != std::string::npos) {
      const std::string name = argument(line, k, 8);
      if (name != "Kind" && name != "PlannedKind")
        fail(file + ": no kinds " + name);
      std::string value;
      print(value, kinds(e, name == "PlannedKind"), indent);
      line.replace(k, 8 + name.size() + 1, value);
    } else if (std::size_t d = line.find("\"@dispositions\""); d != std::string::npos) {
      std::string value;
      print(value, dispositions(e), indent);
      line.replace(d, 15, value);
    }
    if (line.find('@') != std::string::npos && line.find("\"@") != std::string::npos)
      fail(file + ": an unknown placeholder: " + line);
    out += line + "\n";
  }
  // A member left out last in its object leaves a comma before the object's end.
  static const std::regex dangling(R"(,(\n *[}\]]))");
  return std::regex_replace(out, dangling, "$1");
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  if (!in)
    fail("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFile(const fs::path &p, const std::string &text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out)
    fail("cannot write " + p.string());
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: lo_schema_gen TEMPLATE_DIR OUT_DIR\n");
    return 2;
  }
  const fs::path templates = argv[1], outDir = argv[2];
  std::vector<fs::path> names;
  for (const auto &entry : fs::directory_iterator(templates))
    if (entry.path().filename().string().ends_with(".schema.json"))
      names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  if (names.empty())
    fail("no template in " + templates.string());
  for (std::size_t i = 0; i < lo::vocabularySize<Edition>(); ++i) {
    const auto e = static_cast<Edition>(i);
    const bool newest = e == lo::kNewestEdition;
    const fs::path dir = newest ? outDir : outDir / std::string(lo::spelling(e));
    fs::create_directories(dir);
    for (const auto &name : names) {
      if (!inSet(name.string(), e))
        continue;
      writeFile(dir / name, generate(readFile(templates / name), e, name.string()));
    }
  }
  return 0;
}
