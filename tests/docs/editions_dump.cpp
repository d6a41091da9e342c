// Prints the editions of every vocabulary value as ref/edition.hpp declares them (docs/spec.md
// §1.6), as one JSON document: {"editions": [...], "vocabularies": {NAME: {VALUE: [EDITION...]}}}.
// The drift tests of tests/docs and tests/schema hold docs/spec.md's marks and the schemas of
// each edition against it, so that neither parses the C++ declaration.
#include "checks/checks.hpp"
#include "ref/acceptance_profile.hpp"
#include "ref/edition.hpp"
#include "ref/gate.hpp"
#include "ref/opkind.hpp"
#include "ref/recheck.hpp"
#include "ref/selection.hpp"
#include "ref/vocab.hpp"

#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>

namespace {

bool first = true;

template <class E> void vocabulary(std::string_view name) {
  std::printf("%s\n    \"%.*s\": {", first ? "" : ",", static_cast<int>(name.size()), name.data());
  first = false;
  for (std::size_t i = 0; i < lo::vocabularySize<E>(); ++i) {
    const auto value = static_cast<E>(i);
    const std::string_view s = lo::spelling(value);
    std::printf("%s\"%.*s\": [", i ? ", " : "", static_cast<int>(s.size()), s.data());
    bool firstEdition = true;
    for (std::size_t e = 0; e < lo::vocabularySize<lo::Edition>(); ++e)
      if (lo::inEdition(value, static_cast<lo::Edition>(e))) {
        const std::string_view n = lo::spelling(static_cast<lo::Edition>(e));
        std::printf("%s\"%.*s\"", firstEdition ? "" : ", ", static_cast<int>(n.size()), n.data());
        firstEdition = false;
      }
    std::printf("]");
  }
  std::printf("}");
}

} // namespace

int main() {
  std::printf("{\n  \"editions\": [");
  for (std::size_t e = 0; e < lo::vocabularySize<lo::Edition>(); ++e) {
    const std::string_view n = lo::spelling(static_cast<lo::Edition>(e));
    std::printf("%s\"%.*s\"", e ? ", " : "", static_cast<int>(n.size()), n.data());
  }
  const std::string_view newest = lo::spelling(lo::kNewestEdition);
  std::printf("],\n  \"newest\": \"%.*s\",\n  \"claimsHaveSpec\": [",
              static_cast<int>(newest.size()), newest.data());
  bool firstSpec = true;
  for (std::size_t e = 0; e < lo::vocabularySize<lo::Edition>(); ++e)
    if (lo::claimsHaveSpec(static_cast<lo::Edition>(e))) {
      const std::string_view n = lo::spelling(static_cast<lo::Edition>(e));
      std::printf("%s\"%.*s\"", firstSpec ? "" : ", ", static_cast<int>(n.size()), n.data());
      firstSpec = false;
    }
  std::printf("],\n  \"acceptanceGate\": [");
  bool firstGate = true;
  for (std::size_t e = 0; e < lo::vocabularySize<lo::Edition>(); ++e)
    if (lo::acceptance::acceptanceGateEditions() & lo::editionBit(static_cast<lo::Edition>(e))) {
      const std::string_view n = lo::spelling(static_cast<lo::Edition>(e));
      std::printf("%s\"%.*s\"", firstGate ? "" : ", ", static_cast<int>(n.size()), n.data());
      firstGate = false;
    }
  std::printf("],\n  \"selection\": [");
  bool firstSelection = true;
  for (std::size_t e = 0; e < lo::vocabularySize<lo::Edition>(); ++e)
    if (lo::selection::hasSelection(static_cast<lo::Edition>(e))) {
      const std::string_view n = lo::spelling(static_cast<lo::Edition>(e));
      std::printf("%s\"%.*s\"", firstSelection ? "" : ", ", static_cast<int>(n.size()), n.data());
      firstSelection = false;
    }
  std::printf("],\n  \"sources\": [");
  for (std::size_t i = 0; i < std::size(lo::kEditionSources); ++i) {
    const auto &src = lo::kEditionSources[i];
    const std::string_view n = lo::spelling(src.edition);
    std::printf("%s\n    {\"edition\": \"%.*s\", \"repository\": \"%.*s\", \"commits\": \"%.*s\", "
                "\"files\": \"%.*s\"}",
                i ? "," : "", static_cast<int>(n.size()), n.data(),
                static_cast<int>(src.repository.size()), src.repository.data(),
                static_cast<int>(src.commits.size()), src.commits.data(),
                static_cast<int>(src.files.size()), src.files.data());
  }
  std::printf("],\n  \"vocabularies\": {");
  vocabulary<lo::BackendOp>("BackendOp");
  vocabulary<lo::Provider>("Provider");
  vocabulary<lo::Device>("Device");
  vocabulary<lo::TrustLevel>("TrustLevel");
  vocabulary<lo::VJPMode>("VJPMode");
  vocabulary<lo::TensorLayout>("TensorLayout");
  vocabulary<lo::Rounding>("Rounding");
  vocabulary<lo::Subnormals>("Subnormals");
  vocabulary<lo::Contraction>("Contraction");
  vocabulary<lo::Reduction>("Reduction");
  vocabulary<lo::GroupingKind>("GroupingKind");
  vocabulary<lo::Mode>("mode");
  vocabulary<lo::Equality>("equality");
  vocabulary<lo::ClaimTag>("claim tag");
  vocabulary<lo::EvidenceTag>("evidence tag");
  vocabulary<lo::ProvenanceTag>("provenance tag");
  vocabulary<lo::Check>("check");
  vocabulary<lo::ContractObligation>("obligation");
  vocabulary<lo::EvidenceDisposition>("disposition");
  vocabulary<lo::GateFailureKind>("gate failure kind");
  vocabulary<lo::KindTag>("kind");
  std::printf("\n  }\n}\n");
  return 0;
}
