// The `gate` command (docs/spec.md §6.6; its options are in its --help and docs/spec.md §4.2): an
// assurance policy decides from the audit's evidence whether a plan, through its lowering, or a
// lowering plan, as written, may run.
#include "ref/acceptance_profile.hpp"
#include "ref/gate.hpp"
#include "ref/io/acceptance_writer.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/reader.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace lo::cli {

namespace {

/// The command-line spelling of a policy boolean: allowTrustedExternal -> --allow-trusted-external.
std::string flagOption(std::string_view name) {
  std::string out = "--";
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      out += '-';
      out += static_cast<char>(c - 'A' + 'a');
    } else
      out += c;
  }
  return out;
}

/// The editions whose gate is upstream's acceptance gate (or, when `!acceptance`, the evidence
/// gate), joined by ", ".
std::string editionsWithGate(bool acceptance) {
  const EditionSet set =
      acceptance ? acceptance::acceptanceGateEditions()
                 : static_cast<EditionSet>(kEveryEdition & ~acceptance::acceptanceGateEditions());
  return set ? editionNames(set) : std::string("none yet");
}

} // namespace

Action setupGate(CLI::App &app) {
  struct Options {
    std::string file, out = "-", policy = std::string(kDefaultPolicy), format = "text";
    Mode mode = Mode::coalesced;
    Equality equality = Equality::contract;
    Edition edition = kNewestEdition;
    std::array<std::optional<bool>, std::size(kPolicyFlags)> flags;
    // The acceptance gate (docs/spec.md §6.10).
    std::optional<std::string> profile, provider;
    Device device = Device::cpu;
    VJPMode vjp = VJPMode::none;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "gate", "Gate a plan: does an assurance policy accept the evidence of its audit (or, in an "
              "edition with upstream's acceptance gate, does a kernel policy accept its groups)?");
  addOperand(*sub, "FILE", o->file,
             "GraphExecutionPlan (gated through its lowering under --mode and --equality) or "
             "GraphLoweringPlan (its groups as written) JSON file, or -");
  std::vector<std::string> presets;
  for (const NamedPolicy &p : kPolicyPresets)
    presets.emplace_back(p.name);
  auto *policyOption =
      sub->add_option(
             "--policy", o->policy,
             "preset: verified (only requireEvidence), checked (also allowChecked, "
             "allowFuzzed, allowRuntimeGuards, allowTestEvidence) or external (checked and "
             "allowTrustedExternal)")
          ->check(CLI::IsMember(presets))
          ->default_str(std::string(kDefaultPolicy));
  std::array<CLI::Option *, std::size(kPolicyFlags)> flagOptions{};
  for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
    flagOptions[i] = sub->add_option(flagOption(kPolicyFlags[i].name), o->flags[i],
                                     "true or false: sets " + std::string(kPolicyFlags[i].name) +
                                         ", overriding the preset (or the profile)")
                         ->type_name("B")
                         ->transform(CLI::IsMember({"true", "false"}));
  const std::string acceptanceEditions = editionsWithGate(true);
  std::string profiles;
  for (const auto &p : acceptance::kMaintainedProfiles)
    if (profiles.find(p.name) == std::string::npos)
      profiles += std::string(p.name) + ", ";
  std::array<CLI::Option *, 4> acceptanceOptions{};
  acceptanceOptions[0] =
      sub->add_option(
             "--profile", o->profile,
             "acceptance gate (editions " + acceptanceEditions +
                 "): the maintained profile whose kernel policy judges, by its name or its "
                 "Lean definition (" +
                 profiles + "as the edition has them: docs/spec.md §6.10); default " +
                 std::string(acceptance::kDefaultProfile))
          ->type_name("NAME");
  acceptanceOptions[1] =
      addVocabularyOption(*sub, "--device", o->device,
                          "acceptance gate: the policy's device, overriding the profile's");
  acceptanceOptions[2] =
      sub->add_option(
             "--provider", o->provider,
             "acceptance gate: the policy's provider preference, auto, prefer:P or only:P, "
             "overriding the profile's")
          ->type_name("PREF");
  acceptanceOptions[3] = addVocabularyOption(
      *sub, "--vjp", o->vjp, "acceptance gate: the policy's VJP mode, overriding the profile's");
  auto *modeOption = addModeOption(*sub, o->mode);
  auto *equalityOption = addEqualityOption(*sub, o->equality);
  addEditionOption(*sub, o->edition);
  sub->add_option("--format", o->format,
                  "text: the verdict, then each failure kind with its reports, one line each; "
                  "json: an nn-backend/gate-result document")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  addOutputOption(*sub, o->out);
  sub->footer(
      "In editions " + editionsWithGate(false) +
      ", the gate reads the evidence of the audit's contracts only: a capsule's trust level "
      "is the planner's concern, and allowChecked does not enter the gate. --mode and "
      "--equality apply to a GraphExecutionPlan; a GraphLoweringPlan is gated as written. "
      "A capsule name, claim spec or evidence text longer than " +
      std::to_string(io::kMaxGateTextBytes) +
      " bytes is cut there "
      "and ends with \"...\" in both formats, so the output is bounded by the audit's "
      "rows. "
      "In editions " +
      acceptanceEditions +
      ", the gate is upstream's acceptGraphKernelPlan: a GraphExecutionPlan's groups are "
      "always its coalesced lowering under contract equality (--mode, --equality, "
      "--policy and every policy boolean but --allow-trusted-external are refused), a "
      "GraphLoweringPlan's groups are judged as written, and every failure of every "
      "group is listed in upstream's order with upstream's message; --format json writes "
      "an nn-backend/acceptance-result document. "
      "Exit status: 0 accepted, 1 rejected, 2 bad usage or invalid input.");
  return [o, policyOption, flagOptions, acceptanceOptions, modeOption, equalityOption] {
    if (acceptance::hasAcceptanceGate(o->edition)) {
      // Upstream's acceptGraphKernelPlan (docs/spec.md §6.10): a plan's groups are always derived
      // (coalesced, contract); only allowTrustedExternal is a boolean of its policy.
      const auto refuse = [&](const CLI::Option *option) {
        if (option->count() != 0)
          throw CLI::ValidationError(option->get_name(),
                                     "does not apply to the acceptance gate of edition " +
                                         std::string(spelling(o->edition)));
      };
      refuse(policyOption);
      refuse(modeOption);
      refuse(equalityOption);
      for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
        if (kPolicyFlags[i].field != &AssurancePolicy::allowTrustedExternal)
          refuse(flagOptions[i]);
      const std::string name = o->profile.value_or(std::string(acceptance::kDefaultProfile));
      const acceptance::MaintainedProfile *profile = acceptance::findProfile(o->edition, name);
      if (!profile)
        throw CLI::ValidationError("--profile", name + " is not a profile of edition " +
                                                    std::string(spelling(o->edition)) + " (" +
                                                    acceptance::profileNames(o->edition) + ")");
      acceptance::KernelPolicy policy = profile->policy;
      if (acceptanceOptions[1]->count() != 0)
        policy.device = o->device;
      if (acceptanceOptions[3]->count() != 0)
        policy.vjpMode = o->vjp;
      if (o->provider) {
        const auto p = acceptance::parsePreference(*o->provider);
        if (!p || !inEdition(p->provider, o->edition))
          throw CLI::ValidationError("--provider", "expected auto, prefer:P or only:P with P a "
                                                   "provider of edition " +
                                                       std::string(spelling(o->edition)) +
                                                       ", found " + *o->provider);
        policy.provider = *p;
      }
      for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
        if (o->flags[i])
          policy.assurance.allowTrustedExternal = *o->flags[i];
      Interner interner;
      const GraphLoweringPlan groups =
          readLowering(interner, o->file, o->edition, Mode::coalesced, Equality::contract);
      const std::string_view shown =
          profile->policy == policy ? profile->name : acceptance::profileName(o->edition, policy);
      bool accepted = false;
      writeOutput(o->out, [&](io::Sink &sink) {
        accepted = io::writeAcceptance(sink, interner, shown, policy, groups, o->format == "json");
      });
      return int{accepted ? kSuccess : kFinding};
    }
    for (const CLI::Option *option : acceptanceOptions)
      if (option->count() != 0)
        throw CLI::ValidationError(option->get_name(),
                                   "applies to the acceptance gate only (editions " +
                                       editionsWithGate(true) + "), not to edition " +
                                       std::string(spelling(o->edition)));
    AssurancePolicy policy = *policyPreset(o->policy);
    for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
      if (o->flags[i])
        policy.*kPolicyFlags[i].field = *o->flags[i];
    Interner interner;
    const GraphLoweringPlan lowering =
        readLowering(interner, o->file, o->edition, o->mode, o->equality);
    // The gate of its audit (docs/spec.md §6.4), written as it is found, every long string cut
    // (§6.6): memory and output grow with the rows, not with rows times string length.
    const ExecutionAudit rows = audit(interner, lowering);
    bool accepted = false;
    writeOutput(o->out, [&](io::Sink &sink) {
      accepted = io::writeBoundedGate(sink, interner, policy, rows, o->format == "json");
    });
    return int{accepted ? kSuccess : kFinding};
  };
}

} // namespace lo::cli
