// `check PLAN CANDIDATE [--mode] [--equality] [--format text|json|junit|sarif] [-o OUT]`: "the
// checks of section 3" — whether CANDIDATE is exactly what the spec gives for PLAN.
#include "checks/checks.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/support/report.hpp"

#include <map>

namespace lo::cli {

Action setupCheck(CLI::App &app) {
  struct Options {
    std::string plan, candidate, out = "-", mode, equality, format = "text";
    std::size_t maxPerCheck = 20;
    bool stream = false;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "check", "Check that a candidate GraphLoweringPlan is exactly the lowering the spec gives "
               "for a GraphExecutionPlan, and name every way in which it is not.");
  sub->add_option(
         "PLAN", o->plan,
         "GraphExecutionPlan file (JSON; a plan stream with --stream), or - for standard input")
      ->required();
  sub->add_option("CANDIDATE", o->candidate,
                  "candidate GraphLoweringPlan file (JSON; a lowering stream with --stream), or -")
      ->required();
  auto *mode = sub->add_option("--mode", o->mode,
                               "singleton or coalesced (default: the mode the candidate "
                               "declares, else coalesced)")
                   ->check(CLI::IsMember({"singleton", "coalesced"}));
  auto *equality = sub->add_option("--equality", o->equality,
                                   "contract or identity (default: the equality the candidate "
                                   "declares, else contract)")
                       ->check(CLI::IsMember({"contract", "identity"}));
  sub->add_option("--format", o->format,
                  "text: one line a violation and a summary line; json: the violations with "
                  "the spec's field names; junit: one test case per check; sarif: SARIF 2.1.0, "
                  "rule id = check name")
      ->check(CLI::IsMember({"text", "json", "junit", "sarif"}))
      ->default_str("text");
  sub->add_option("--max-per-check", o->maxPerCheck,
                  "list at most this many violations per check, and count the rest")
      ->default_str("20")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--stream", o->stream,
                "read PLAN and CANDIDATE in the NDJSON stream form (docs/formats.md) and check as "
                "they are read, in memory bounded by the largest group and the capsule table");
  sub->add_option("-o,--output", o->out, "report file, or - for standard output (default)");
  sub->footer(
      "Checks: provenance, order, empty-group, kinds, op, capsule, grouping-kind, singleton, "
      "maximal, audit, trust-boundary, gate (`lowering-oracle explain CHECK` says what each "
      "means).\n"
      "A candidate that declares another mode or equality than the one checked is told so in a "
      "note.\nExit status: 0 the candidate conforms, 1 it does not, 2 bad usage or invalid "
      "input.");
  (void)mode;
  (void)equality;
  return [o] {
    if (o->plan == "-" && o->candidate == "-")
      throw std::runtime_error("PLAN and CANDIDATE cannot both be standard input");
    Interner interner;
    checks::Options options;
    options.maxPerCheck = o->maxPerCheck;
    // The mode and equality checked: the options, else what the candidate declares, else the
    // spec's defaults.
    auto choose = [&](std::optional<Mode> mode, std::optional<Equality> equality) {
      options.mode =
          !o->mode.empty() ? *parseSpelling<Mode>(o->mode) : mode.value_or(Mode::coalesced);
      options.equality = !o->equality.empty() ? *parseSpelling<Equality>(o->equality)
                                              : equality.value_or(Equality::contract);
    };
    checks::Report report;
    std::size_t groups = 0, nodes = 0;
    if (o->stream) {
      io::PlanStream plan(o->plan, interner);
      io::LoweringStream candidate(o->candidate, interner);
      choose(candidate.declared().mode, candidate.declared().equality);
      checks::StreamTotals totals;
      report = checks::checkStream(
          interner, [&](PlannedNodeKernel &k) { return plan.next(k); },
          [&](LoweredKernelGroup &g) { return candidate.next(g); }, options,
          candidate.declared().mode, candidate.declared().equality, &totals);
      groups = totals.groups;
      nodes = totals.kernels;
    } else {
      const GraphExecutionPlan plan = io::readExecutionPlan(io::loadSource(o->plan), interner);
      const io::LoweringDocument candidate =
          io::readLoweringPlan(io::loadSource(o->candidate), interner);
      choose(candidate.mode, candidate.equality);
      report = checks::check(interner, plan, candidate, options);
      groups = candidate.plan.groups.size();
      nodes = plan.kernels.size();
    }

    ReportSubject subject{o->plan == "-" ? "<stdin>" : o->plan,
                          o->candidate == "-" ? "<stdin>" : o->candidate,
                          options.mode,
                          options.equality,
                          groups,
                          nodes};
    static const std::map<std::string, ReportFormat> formats{{"text", ReportFormat::text},
                                                             {"json", ReportFormat::json},
                                                             {"junit", ReportFormat::junit},
                                                             {"sarif", ReportFormat::sarif}};
    io::OutputFile file(o->out);
    io::Sink sink(file);
    writeReport(sink, formats.at(o->format), report, subject);
    sink.flush();
    file.commit();
    return int{report.conforms() ? kSuccess : kFinding};
  };
}

} // namespace lo::cli
