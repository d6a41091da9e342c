// The profile options that `plan` and `check-plan` share (docs/spec.md §4.2, §10.5-§10.6): a
// maintained profile by name or a profile document, and a registry document whose modules replace
// the profile's.
#pragma once

#include "ref/edition.hpp"
#include "ref/profile.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace lo::cli {

struct ProfileOptions {
  std::string profile, profileFile, registry;
};

/// Adds --profile, --profile-file and --registry to `sub`.
void addProfileOptions(CLI::App &sub, ProfileOptions &o);

/// A usage error for an unknown profile name (before any file is read).
void checkProfileName(const ProfileOptions &o);

/// The profile the options name, read in `edition` (a usage error for an unknown profile name, or
/// for a maintained profile in an edition without them, docs/spec.md §10.5).
selection::BackendProfile profileOf(const ProfileOptions &o, Edition edition);

} // namespace lo::cli
