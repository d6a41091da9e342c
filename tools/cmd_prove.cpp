// `prove [--bound N] [--equality contract|identity] [--timeout-ms T] [--format text|json]
// [--counterexample-out FILE] [--only NAME]`: "discharges the Z3 obligations; prints each one's
// name, status (proved, refuted, unknown), bound and time" (docs/spec.md §4 and §5).
#include "proofs/obligations.hpp"
#include "ref/io/output.hpp"
#include "ref/io/writer.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/support/options.hpp"

#include <cstdio>
#include <iostream>

namespace lo::cli {

namespace {

std::string lengths(const proofs::Result &r) {
  return r.everyLength ? "all" : std::to_string(r.length);
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

void writeText(io::Sink &out, const std::vector<proofs::Result> &results) {
  out << "obligation                   status   bound  seconds\n";
  for (const auto &r : results) {
    std::string line = r.name;
    line.resize(std::max<std::size_t>(line.size() + 1, 29), ' ');
    std::string status(proofs::spelling(r.status));
    status.resize(9, ' ');
    std::string bound = lengths(r);
    bound.resize(std::max<std::size_t>(bound.size() + 1, 7), ' ');
    out << line << status << bound << seconds(r.seconds);
    if (!r.reason.empty())
      out << "  (" << r.reason << ")";
    out << '\n';
  }
}

void writeJson(io::Sink &out, const std::vector<proofs::Result> &results,
               const proofs::Options &options) {
  out << "{\n  \"format\": \"lowering-oracle/proofs\",\n  \"version\": 1,\n  \"equality\": \""
      << spelling(options.equality) << "\",\n  \"bound\": " << std::uint64_t{options.bound}
      << ",\n  \"timeoutMs\": " << std::uint64_t{options.timeoutMs} << ",\n  \"obligations\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto &r = results[i];
    out << (i ? ",\n    " : "\n    ") << "{\"name\":";
    out.jsonString(r.name);
    out << ",\"status\":\"" << proofs::spelling(r.status) << "\",\"bound\":";
    if (r.everyLength)
      out << "\"all\"";
    else
      out << std::uint64_t{r.length};
    out << ",\"seconds\":" << seconds(r.seconds);
    if (!r.reason.empty()) {
      out << ",\"reason\":";
      out.jsonString(r.reason);
    }
    out << '}';
  }
  out << "\n  ]\n}\n";
}

} // namespace

Action setupProve(CLI::App &app) {
  struct Options {
    std::size_t bound = 8;
    Equality equality = Equality::contract;
    enum class Format { text, json } format = Format::text;
    std::string counterexampleOut, only;
    unsigned timeoutMs = 20000;
  };
  auto o = std::make_shared<Options>();
  auto *sub = app.add_subcommand(
      "prove", "Discharge the Z3 obligations of the reference lowering for every plan up to a "
               "bound, and the step lemmas for every length.");
  addNatural(*sub, "--bound", o->bound, 0, 64,
             "largest plan length checked (default 8: the whole suite in under 60 s)");
  addEqualityOption(*sub, o->equality);
  addNatural(*sub, "--timeout-ms", o->timeoutMs, 1, 3600000,
             "timeout of each solver call, in milliseconds");
  using Format = decltype(Options::format);
  sub->add_option("--format", o->format, "text: a table; json: a document")
      ->type_name("TEXT")
      ->transform(spellingsOf<Format>({{"text", Format::text}, {"json", Format::json}}))
      ->default_str("text");
  sub->add_option("--counterexample-out", o->counterexampleOut,
                  "write the first refuted obligation's counterexample as a GraphExecutionPlan");
  sub->add_option("--only", o->only,
                  "discharge only this obligation (or every obligation whose name starts with "
                  "NAME followed by a dot, e.g. --only step)");
  std::string names = "Obligations:";
  for (const auto &ob : proofs::obligations())
    names += "\n  " + std::string(ob.name);
  sub->footer(names + "\nExit status: 0 all proved, 1 one refuted, 3 one unknown or timed out.");
  return [o] {
    proofs::Options options;
    options.bound = o->bound;
    options.equality = o->equality;
    options.timeoutMs = o->timeoutMs;
    std::vector<const proofs::Obligation *> chosen;
    for (const auto &ob : proofs::obligations())
      if (o->only.empty() || ob.name == o->only ||
          (ob.name.size() > o->only.size() && ob.name.starts_with(o->only) &&
           ob.name[o->only.size()] == '.'))
        chosen.push_back(&ob);
    if (chosen.empty()) {
      std::cerr << "lowering-oracle: prove: no obligation named \"" << o->only
                << "\" (see prove --help)\n";
      return int{kBadInput};
    }
    Interner interner;
    std::vector<proofs::Result> results;
    std::optional<std::pair<std::string, GraphExecutionPlan>> counterexample;
    for (const auto *ob : chosen) {
      results.push_back(proofs::discharge(*ob, options, &interner));
      auto &r = results.back();
      if (r.counterexample && !counterexample)
        counterexample.emplace(r.name, std::move(*r.counterexample));
    }
    int exit = kSuccess;
    for (const auto &r : results)
      if (r.status == proofs::Status::refuted)
        exit = kFinding;
    if (exit == kSuccess)
      for (const auto &r : results)
        if (r.status == proofs::Status::unknown)
          exit = kInconclusive;
    if (!o->counterexampleOut.empty()) {
      if (counterexample) {
        io::OutputFile file(o->counterexampleOut);
        io::Sink sink(file);
        io::writeExecutionPlan(sink, interner, counterexample->second);
        sink.flush();
        file.commit();
        std::cerr << "lowering-oracle: prove: counterexample to " << counterexample->first << " ("
                  << counterexample->second.kernels.size() << " nodes) written to "
                  << o->counterexampleOut << '\n';
      } else {
        std::cerr << "lowering-oracle: prove: no obligation was refuted; " << o->counterexampleOut
                  << " not written\n";
      }
    }
    io::OutputFile file("-");
    io::Sink sink(file);
    if (o->format == Format::json)
      writeJson(sink, results, options);
    else
      writeText(sink, results);
    sink.flush();
    file.commit();
    return exit;
  };
}

} // namespace lo::cli
