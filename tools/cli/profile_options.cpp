#include "tools/cli/profile_options.hpp"

#include "ref/acceptance_profile.hpp"
#include "ref/io/graph_reader.hpp"
#include "ref/io/source.hpp"

#include <stdexcept>

namespace lo::cli {

void addProfileOptions(CLI::App &sub, ProfileOptions &o) {
  o.profile = std::string(acceptance::kDefaultProfile);
  auto *profile = sub.add_option("--profile", o.profile,
                                 "a maintained profile: " + selection::maintainedProfileList() +
                                     " (default " + std::string(acceptance::kDefaultProfile) + ")")
                      ->type_name("NAME");
  sub.add_option("--profile-file", o.profileFile,
                 "a backend profile document (docs/spec.md §10.6) instead of a maintained profile")
      ->type_name("FILE")
      ->excludes(profile);
  sub.add_option("--registry", o.registry,
                 "a capsule registry document: its modules replace the profile's")
      ->type_name("FILE");
}

void checkProfileName(const ProfileOptions &o) {
  if (o.profileFile.empty() && !selection::maintainedProfile(o.profile))
    throw std::runtime_error("--profile: unknown profile \"" + o.profile +
                             "\"; the maintained profiles are " +
                             selection::maintainedProfileList());
}

selection::BackendProfile profileOf(const ProfileOptions &o, Edition edition) {
  checkProfileName(o);
  selection::BackendProfile p;
  if (!o.profileFile.empty()) {
    p = io::readProfile(io::loadSource(o.profileFile), edition, !o.registry.empty());
  } else {
    if (!selection::hasMaintainedData(edition))
      throw std::runtime_error("--profile " + o.profile + ": " +
                               selection::noMaintainedData(edition));
    p = std::move(*selection::maintainedProfile(o.profile));
  }
  if (!o.registry.empty())
    p.capsuleModules = io::readRegistry(io::loadSource(o.registry), edition);
  return p;
}

} // namespace lo::cli
