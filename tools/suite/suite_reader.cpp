#include "tools/suite/suite_reader.hpp"

#include "ref/acceptance_profile.hpp"
#include "ref/io/error.hpp"
#include "ref/io/escape.hpp"
#include "ref/selection.hpp"
#include "tools/suite/gen_ranges.hpp"
#include "tools/suite/suite_files.hpp"
#include "tools/system/files.hpp"

#include <map>

namespace lo::suite {

namespace {

namespace fs = std::filesystem;
using io::shownText;

/// A path of the manifest stays inside the suite: relative, without `..`.
void refuseOutside(std::string_view p, const std::string &where) {
  const fs::path path(p);
  if (p.empty() || path.is_absolute())
    throw SuiteError(where + ": not a relative path inside the suite: " + std::string(p));
  for (const auto &part : path)
    if (part == "..")
      throw SuiteError(where + ": not a relative path inside the suite: " + std::string(p));
}

/// No two entries alike: each is one test case of the report, named by its case, mode, equality
/// and policy as the report shows them (JUnit class names are unique, docs/spec.md §4.3); two
/// names that are shown alike (cut, or escaped to the same text) are alike.
void refuseDuplicates(const std::vector<SuiteManifest::Entry> &entries, const std::string &where,
                      std::string_view array) {
  std::map<std::string, std::size_t> seen;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const SuiteManifest::Entry &m = entries[k];
    const std::string key = shownText(m.caseName) + '\0' + std::string(spelling(m.mode)) + '\0' +
                            std::string(spelling(m.equality)) + '\0' + m.policy;
    const auto [at, added] = seen.emplace(key, k);
    if (!added)
      throw SuiteError(where + ": /" + std::string(array) + "/" + std::to_string(k) +
                       ": duplicate entry: case " + shownText(m.caseName) + ", mode " +
                       std::string(spelling(m.mode)) + ", equality " +
                       std::string(spelling(m.equality)) +
                       (m.policy.empty() ? "" : ", policy " + m.policy) + " is also " + "/" +
                       std::string(array) + "/" + std::to_string(at->second) +
                       " (every entry must be one test case of the report)");
  }
}

} // namespace

std::optional<Provenance> provenanceOf(const SuiteManifest &manifest, const std::string &where) {
  if (!manifest.seed && !manifest.count && !manifest.maxNodes)
    return std::nullopt;
  if (!manifest.seed || !manifest.count || !manifest.maxNodes || *manifest.count > kMaxCount ||
      *manifest.maxNodes > kMaxNodes)
    throw SuiteError(where + ": /seed, /count, /maxNodes: a suite gen wrote names all three, "
                             "as whole numbers within gen's ranges; this manifest does not, so "
                             "the suite cannot be verified");
  Provenance p;
  p.settings.seed = *manifest.seed;
  p.settings.maxNodes = static_cast<std::size_t>(*manifest.maxNodes);
  p.settings.edition = manifest.edition.value_or(kNewestEdition);
  p.count = static_cast<std::size_t>(*manifest.count);
  return p;
}

std::string readSuiteFile(const fs::path &suite, const std::string &relative,
                          std::size_t maxFileBytes) {
  system::BoundedRead r = system::readInside(suite, relative, maxFileBytes);
  if (r.status != system::BoundedRead::Status::ok)
    throw SuiteError(shownText((suite / relative).string()) + ": " + r.why);
  return std::move(r.text);
}

Suite readSuite(const fs::path &suite, SuiteList list, std::size_t maxFileBytes) {
  const bool gates = list == SuiteList::gates;
  const fs::path path = suite / kManifestName;
  const std::string where = shownText(path.string());
  Suite out;
  {
    system::BoundedRead r = system::readInside(suite, std::string(kManifestName), maxFileBytes);
    if (r.status == system::BoundedRead::Status::missing)
      throw SuiteError(shownText(suite.string()) + ": not a conformance suite: it has no " +
                       std::string(kManifestName));
    if (r.status != system::BoundedRead::Status::ok)
      throw SuiteError(where + ": " + r.why);
    out.manifestText = std::move(r.text);
  }
  // The manifest's shape (docs/schema/conformance-suite.schema.json) is the reader's to check:
  // an error names the manifest, the line and column, and the JSON pointer.
  SuiteManifest manifest;
  try {
    manifest = readSuiteManifest(io::sourceFromString(path.string(), out.manifestText));
  } catch (const io::InputError &e) {
    throw SuiteError(io::formatError(e));
  }
  out.provenance = provenanceOf(manifest, where);
  out.edition = manifest.edition;
  // In an edition whose gate is upstream's acceptance gate (docs/spec.md §6.10), the gate results
  // are the manifest's `acceptance`, one per case and maintained profile.
  const bool acceptanceGate = manifest.edition && acceptance::hasAcceptanceGate(*manifest.edition);
  if (manifest.acceptance && !acceptanceGate)
    throw SuiteError(where +
                     ": /acceptance: acceptance results belong to a suite of an edition "
                     "whose gate is upstream's acceptance gate (" +
                     editionNames(acceptance::acceptanceGateEditions()) +
                     "), named by its `edition`");
  // Selection cases belong to a suite of an edition with selection (docs/spec.md §10).
  const bool selectionEdition = manifest.edition && selection::hasSelection(*manifest.edition);
  if (manifest.selection && !selectionEdition)
    throw SuiteError(where +
                     ": /selection: selection cases belong to a suite of an edition with "
                     "selection (" +
                     editionNames(kLineageEditions) + "), named by its `edition`");
  const std::string_view array = list == SuiteList::selection ? "selection"
                                 : !gates                     ? "cases"
                                 : acceptanceGate             ? "acceptance"
                                                              : "gates";
  if (list == SuiteList::selection) {
    if (!manifest.selection)
      throw SuiteError(where +
                       ": /selection: expected an array (--selection needs a suite whose "
                       "manifest lists selection cases: gen writes them in the editions "
                       "with selection, " +
                       editionNames(kLineageEditions) + ")");
    out.entries = std::move(*manifest.selection);
  } else {
    auto &listed = acceptanceGate ? manifest.acceptance : manifest.gates;
    if (gates && !listed)
      throw SuiteError(where + ": /" + std::string(array) +
                       ": expected an array (--gates needs a suite whose manifest lists " +
                       (acceptanceGate ? "acceptance results)" : "gate results)"));
    out.entries = gates ? std::move(*listed) : std::move(manifest.cases);
  }
  for (std::size_t i = 0; i < out.entries.size(); ++i) {
    SuiteManifest::Entry &e = out.entries[i];
    const std::string at = where + ": /" + std::string(array) + "/" + std::to_string(i);
    if (e.acceptance && !acceptance::findProfile(*manifest.edition, e.policy))
      throw SuiteError(at + "/profile: " + shownText(e.policy) +
                       " is not a maintained profile of edition " +
                       std::string(spelling(*manifest.edition)) + " (" +
                       acceptance::profileNames(*manifest.edition) + ")");
    // The case name becomes part of a file name: one path component, not `.` or `..`.
    const std::string_view name = e.caseName;
    if (name.empty() || name == "." || name == ".." ||
        name.find_first_of(std::string_view("/\0", 2)) != std::string_view::npos)
      throw SuiteError(at + "/case: not a case name: " + shownText(name));
    if (e.selection) {
      refuseOutside(e.graph, at + "/files/graph");
      refuseOutside(e.profile, at + "/files/profile");
    } else {
      refuseOutside(e.plan, at + "/files/plan");
    }
  }
  refuseDuplicates(out.entries, where, array);
  return out;
}

} // namespace lo::suite
