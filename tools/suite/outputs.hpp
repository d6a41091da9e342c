// The directory OUTPUTS of `verify` (docs/spec.md §4.1, "Output directories"; §4.3): an output's
// name never leaves it, and with --impl or --worker verify claims it before anything is written.
#pragma once

#include "tools/suite/verify.hpp"

#include <filesystem>
#include <string>

namespace lo::suite {

/// True when `name`, relative to a directory, names something inside it: not absolute, no `..`.
bool staysInside(const std::string &name);

/// Whether the directory that holds `name` in `outputs`, with its symbolic links followed, is
/// inside OUTPUTS: an implementation that plants a link to another directory in OUTPUTS never
/// leads the removal before a run, or the run, outside it.
bool resolvesInside(const std::filesystem::path &outputs, const std::string &name);

/// With --impl or --worker (a producer), OUTPUTS claimed for verify, or a SuiteError.
void claimOutputs(const VerifySettings &s);

/// verify's operands before anything is read: the patterns name the placeholders an output name
/// needs and stay inside OUTPUTS, and both operands are directories (OUTPUTS made when absent with
/// --impl or --worker; both named when neither is, SUITE first). Throws SuiteError.
void checkOperands(const VerifySettings &s);

/// The output name of entry `m` under `pattern` (outputName), or a SuiteError when a manifest's
/// name would lead it out of OUTPUTS.
std::string outputNameInside(const std::string &pattern, const SuiteManifest::Entry &m);

/// The error of an entry whose output `file` is reached through a symbolic link out of OUTPUTS.
std::string linkLeavesOutputs(const std::filesystem::path &file);

} // namespace lo::suite
