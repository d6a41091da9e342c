// `explain CHECK`: "what a check means, with a minimal failing example" (docs/spec.md §4).
#include "checks/catalogue.hpp"
#include "ref/io/writer.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/report/report.hpp"

#include <iostream>

namespace lo::cli {

Action setupExplain(CLI::App &app) {
  struct Options {
    Check check = Check::provenance;
    std::string out = "-";
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "explain", "Say what a check means, with a minimal failing example (a plan, a candidate "
                 "and the report `check` gives for them).");
  addVocabularyOption(*sub, "CHECK", o->check, "the check: " + joinedSpellings<Check>())
      ->required();
  addOutputOption(*sub, o->out);
  return [o] {
    const Check check = o->check;
    const checks::CheckInfo &i = checks::info(check);
    Interner interner;
    const checks::Example ex = checks::example(interner, check);
    const checks::Report report = checks::check(interner, ex.plan, ex.candidate, ex.options);

    writeOutput(o->out, [&](io::Sink &out) {
      out << spelling(check) << ": fails when " << i.failsWhen << ".\n\n" << i.meaning << '\n';
      if (i.onlyIn)
        out << "Applies only in mode " << spelling(*i.onlyIn) << ".\n";
      if (ex.alongside)
        out << "It is found together with " << spelling(*ex.alongside)
            << ", which names the mistake itself.\n";
      out << "\nExample (" << ex.story << "), checked with --mode " << spelling(ex.options.mode)
          << " --equality " << spelling(ex.options.equality) << ".\n\nplan.json:\n";
      io::writeExecutionPlan(out, interner, ex.plan);
      out << "\ncandidate.json:\n";
      io::writeLoweringPlan(out, interner, ex.candidate.plan,
                            ex.candidate.mode.value_or(ex.options.mode),
                            ex.candidate.equality.value_or(ex.options.equality),
                            ex.candidate.audit ? &*ex.candidate.audit : nullptr);
      out << "\n$ lowering-oracle check plan.json candidate.json --mode "
          << spelling(ex.options.mode) << " --equality " << spelling(ex.options.equality) << '\n';
      ReportSubject subject{"plan.json",
                            "candidate.json",
                            ex.options.mode,
                            ex.options.equality,
                            ex.candidate.plan.groups.size(),
                            ex.plan.kernels.size()};
      writeReportText(out, report, subject);
    });
    return int{kSuccess};
  };
}

} // namespace lo::cli
