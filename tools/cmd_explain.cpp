// `explain CHECK` (docs/spec.md §4.2 and §4.3): a check's meaning and a minimal failing example.
// The example is written in the edition asked for (docs/spec.md §1.6) and read back by that
// edition's reader before it is printed, so that what `explain` shows is what `check --edition E`
// reads.
#include "checks/catalogue.hpp"
#include "ref/io/error.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/explain_selection.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/plans/capsules.hpp"
#include "tools/report/report.hpp"

#include <iostream>
#include <stdexcept>

namespace lo::cli {

Action setupExplain(CLI::App &app) {
  struct Options {
    std::string name;
    std::string out = "-";
    Edition edition = kNewestEdition;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "explain", "Say what a check means, with a minimal failing example (a plan, a candidate "
                 "and the report `check` gives for them; for a selection check, a graph, a "
                 "profile, a candidate and the report of `check-plan`).");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < vocabularySize<Check>(); ++i)
    names.emplace_back(spelling(static_cast<Check>(i)));
  for (std::size_t i = 0; i < vocabularySize<Departure>(); ++i)
    names.emplace_back(spelling(static_cast<Departure>(i)));
  sub->add_option(
         "CHECK", o->name,
         "the check: " + joinedSpellings<Check>() +
             "; or a selection check (docs/spec.md §10.8): " + joinedSpellings<Departure>())
      ->type_name("TEXT")
      ->check(CLI::IsMember(names))
      ->required();
  addOutputOption(*sub, o->out);
  addEditionOption(*sub, o->edition)
      ->description("the edition the example is written in and read back in (docs/spec.md §1.6); "
                    "default the newest");
  return [o] {
    if (const auto departure = parseSpelling<Departure>(o->name))
      return explainSelection(*departure, o->edition, o->out);
    const Check check = *parseSpelling<Check>(o->name);
    const checks::CheckInfo &i = checks::info(check);
    Interner written;
    checks::Example ex = checks::example(written, check);
    const Edition edition = o->edition;
    ex.options.edition = edition;
    const auto header = [&](io::Sink &out) {
      out << spelling(check) << ": fails when " << i.failsWhen << ".\n\n" << i.meaning << '\n';
      if (i.onlyIn)
        out << "Applies only in mode " << spelling(*i.onlyIn) << ".\n";
      if (i.needsGroupKinds) {
        std::string without;
        for (std::size_t k = 0; k < vocabularySize<Edition>(); ++k)
          if (!checks::appliesIn(check, i.onlyIn.value_or(Mode::coalesced),
                                 static_cast<Edition>(k)))
            without +=
                (without.empty() ? "" : ", ") + std::string(spelling(static_cast<Edition>(k)));
        if (!without.empty())
          out << "Not run in edition " << without
              << ": its groups have no kinds and no groupingKind, and it has no singleton "
                 "lowering (docs/spec.md §1.6).\n";
      }
      if (ex.alongside)
        out << "It is found together with " << spelling(*ex.alongside)
            << ", which names the mistake itself.\n";
    };
    if (!checks::appliesIn(check, ex.options.mode, edition)) {
      writeOutput(o->out, [&](io::Sink &out) {
        header(out);
        out << "\nNo example in edition " << spelling(edition) << ": the check is not run there.\n";
      });
      return int{kSuccess};
    }
    // The catalogue writes its examples in the seed's values: in another edition (the lean-dojo
    // lineage) each capsule is given that edition's values (docs/spec.md §1.6).
    Interner interner;
    const auto fitted = [&](CapsuleId id) {
      return interner.intern(plans::inEditionValues(written.capsule(id), edition));
    };
    for (PlannedNodeKernel &k : ex.plan.kernels) {
      k.kind = interner.intern(written.kind(k.kind));
      k.capsule = fitted(k.capsule);
    }
    for (LoweredKernelGroup &g : ex.candidate.plan.groups) {
      for (KindId &kind : g.kinds)
        kind = interner.intern(written.kind(kind));
      g.capsule = fitted(g.capsule);
    }
    if (ex.candidate.audit) {
      ExecutionAudit rows = ex.candidate.audit->audit;
      for (KernelAudit &row : rows.kernels)
        row.view = fitted(row.view);
      ex.candidate.audit = toDocument(interner, std::move(rows));
    }
    std::string planText, candidateText;
    {
      io::Sink plan(planText), candidate(candidateText);
      io::writeExecutionPlan(plan, interner, ex.plan, edition);
      io::writeLoweringPlan(candidate, interner, ex.candidate.plan,
                            ex.candidate.mode.value_or(ex.options.mode),
                            ex.candidate.equality.value_or(ex.options.equality),
                            ex.candidate.audit ? &*ex.candidate.audit : nullptr, edition);
      plan.flush();
      candidate.flush();
    }
    // The report is `check --edition E` of the files as they are written.
    Interner fresh;
    GraphExecutionPlan plan;
    io::LoweringDocument candidate;
    readExampleBack(planText, "plan.json", edition,
                    [&](const io::Source &s) { plan = io::readExecutionPlan(s, fresh, edition); });
    readExampleBack(candidateText, "candidate.json", edition, [&](const io::Source &s) {
      candidate = io::readLoweringPlan(s, fresh, edition);
    });
    const checks::Report report = checks::check(fresh, plan, candidate, ex.options);

    writeOutput(o->out, [&](io::Sink &out) {
      header(out);
      out << "\nExample (" << ex.story << "), checked with --mode " << spelling(ex.options.mode)
          << " --equality " << spelling(ex.options.equality) << " --edition " << spelling(edition)
          << ".\n\nplan.json:\n"
          << planText << "\ncandidate.json:\n"
          << candidateText << "\n$ lowering-oracle check plan.json candidate.json --mode "
          << spelling(ex.options.mode) << " --equality " << spelling(ex.options.equality)
          << " --edition " << spelling(edition) << '\n';
      report::ReportSubject subject{"plan.json",
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
