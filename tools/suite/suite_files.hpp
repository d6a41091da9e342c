// The files of a conformance suite, exactly as `gen` writes them (docs/spec.md §4.3): per case its
// plan, its expected outputs and expected gate results, then `manifest.json` and `README.md`. `gen`
// writes them; `verify` regenerates them in memory from the manifest's seed, count and maxNodes and
// compares them with the suite's files, so that a suite changed after `gen` wrote it is never
// trusted (docs/spec.md §4.3, "Suite integrity").
#pragma once

#include "tools/suite/generate.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace lo::suite {

/// Receives one file of a suite: its path relative to the suite ("cases/0000-empty-plan/plan.json")
/// and its bytes.
using SuiteFileVisitor = std::function<void(const std::string &path, std::string_view text)>;

/// Every file of the suite of `count` cases of `settings`, in the order: each case's plan, its
/// expected outputs and expected gate results (expectedOutputsPerCase, gateResultsPerCase); in an
/// edition with selection, each selection case's graph, profile and expected plan (or error);
/// then `manifest.json`, then `README.md`. The same arguments give the same files, byte for byte.
void suiteFiles(const Settings &settings, std::size_t count, const SuiteFileVisitor &file);

/// The expected outputs of each case in edition `edition` (singleton, coalesced-contract,
/// coalesced-identity; without the singleton lowering where the edition has none, docs/spec.md
/// §1.6).
std::size_t expectedOutputsPerCase(Edition edition);

/// The expected gate results of each case in edition `edition`: the three presets and the case's
/// custom policy, or under the acceptance gate one per maintained profile of the edition
/// (docs/spec.md §6.10).
std::size_t gateResultsPerCase(Edition edition);

/// The file of a case's expected acceptance result under maintained profile `profile`.
std::string acceptanceFileName(std::string_view profile);

/// The name of the manifest in a suite directory.
inline constexpr std::string_view kManifestName = "manifest.json";

/// Whether `dir` holds a suite `gen` wrote, as its manifest proves it: `manifest.json`, a regular
/// file inside `dir`, is a conformance suite manifest naming gen's seed, count and maxNodes. When
/// not, `why` says what is missing. (`gen --force` replaces nothing else, docs/spec.md §4.3.)
bool isGenSuite(const std::filesystem::path &dir, std::string &why);

} // namespace lo::suite
