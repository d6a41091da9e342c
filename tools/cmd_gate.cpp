// The `gate` command (docs/spec.md §6.6; its options are in its --help and docs/spec.md §4.2): an
// assurance policy decides from the audit's evidence whether a plan, through its lowering, or a
// lowering plan, as written, may run.
#include "ref/gate.hpp"
#include "ref/io/gate_writer.hpp"
#include "ref/io/reader.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"

#include <array>
#include <optional>

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

} // namespace

Action setupGate(CLI::App &app) {
  struct Options {
    std::string file, out = "-", policy = "checked", format = "text";
    Mode mode = Mode::coalesced;
    Equality equality = Equality::contract;
    Edition edition = kNewestEdition;
    std::array<std::optional<bool>, std::size(kPolicyFlags)> flags;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "gate", "Gate a plan: does an assurance policy accept the evidence of its audit?");
  addOperand(*sub, "FILE", o->file,
             "GraphExecutionPlan (gated through its lowering under --mode and --equality) or "
             "GraphLoweringPlan (its groups as written) JSON file, or -");
  sub->add_option("--policy", o->policy,
                  "preset: verified (only requireEvidence), checked (also allowChecked, "
                  "allowFuzzed, allowRuntimeGuards, allowTestEvidence) or external (checked and "
                  "allowTrustedExternal)")
      ->check(CLI::IsMember({"verified", "checked", "external"}))
      ->default_str("checked");
  for (std::size_t i = 0; i < std::size(kPolicyFlags); ++i)
    sub->add_option(flagOption(kPolicyFlags[i].name), o->flags[i],
                    "true or false: sets " + std::string(kPolicyFlags[i].name) +
                        ", overriding the preset")
        ->type_name("B")
        ->transform(CLI::IsMember({"true", "false"}));
  addModeOption(*sub, o->mode);
  addEqualityOption(*sub, o->equality);
  addEditionOption(*sub, o->edition);
  sub->add_option("--format", o->format,
                  "text: the verdict, then each failure kind with its reports, one line each; "
                  "json: an nn-backend/gate-result document")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  addOutputOption(*sub, o->out);
  sub->footer("The gate reads the evidence of the audit's contracts only: a capsule's trust level "
              "is the planner's concern, and allowChecked does not enter the gate. --mode and "
              "--equality apply to a GraphExecutionPlan; a GraphLoweringPlan is gated as written. "
              "A capsule name, claim spec or evidence text longer than " +
              std::to_string(io::kMaxGateTextBytes) +
              " bytes is cut there "
              "and ends with \"...\" in both formats, so the output is bounded by the audit's "
              "rows. "
              "Exit status: 0 accepted, 1 rejected, 2 bad usage or invalid input.");
  return [o] {
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
