// The `prove` command (its options are in its --help): "discharges the Z3 obligations; prints each
// one's name, status (proved, refuted, unknown), bound and time" (docs/spec.md §4 and §5).
#include "proofs/obligations.hpp"
#include "ref/io/escape.hpp"
#include "ref/io/output.hpp"
#include "ref/io/writer.hpp"
#include "tools/cli/command_io.hpp"
#include "tools/cli/options.hpp"
#include "tools/command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/system/files.hpp"
#include "tools/system/solver_binary.hpp"
#include "tools/system/spawn.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unistd.h>

namespace lo::cli {

namespace {

std::string lengths(const proofs::Result &r) {
  return r.everyLength ? "all" : std::to_string(r.length);
}

/// The solver line of a report: which binary decided, and whether it is the documented one.
void writeSolverText(io::Sink &out, const std::optional<SolverBinary> &solver) {
  if (!solver)
    return;
  out << "solver: " << solver->name << ' ' << io::shownText(solver->path) << ", version "
      << io::shownText(solver->version) << ", self-test passed\n";
  if (!solver->warning.empty())
    out << "warning: " << solver->warning << '\n';
}

void writeText(io::Sink &out, const std::vector<proofs::Result> &results,
               const std::optional<SolverBinary> &solver) {
  writeSolverText(out, solver);
  out << "obligation                   status   bound  seconds\n";
  for (const auto &r : results) {
    std::string line = r.name;
    line.resize(std::max<std::size_t>(line.size() + 1, 29), ' ');
    std::string status(proofs::spelling(r.status));
    status.resize(9, ' ');
    std::string bound = lengths(r);
    bound.resize(std::max<std::size_t>(bound.size() + 1, 7), ' ');
    out << line << status << bound << secondsText(r.seconds);
    if (!r.reason.empty())
      out << "  (" << r.reason << ")";
    out << '\n';
  }
}

void writeJson(io::Sink &out, const std::vector<proofs::Result> &results,
               const proofs::Options &options, const std::optional<SolverBinary> &solver) {
  out << "{\n  \"format\": \"lowering-oracle/proofs\",\n  \"version\": 1,\n  \"equality\": \""
      << spelling(options.equality) << "\",\n  \"bound\": " << std::uint64_t{options.bound}
      << ",\n  \"timeoutMs\": " << std::uint64_t{options.timeoutMs} << ",\n  \"solver\": ";
  if (solver) {
    out << "{\"name\":";
    out.jsonString(solver->name);
    out << ",\"path\":";
    out.jsonString(io::shownText(solver->path));
    out << ",\"version\":";
    out.jsonString(io::shownText(solver->version));
    out << ",\"documentedVersion\":";
    out.jsonString(kDocumentedCvc5Version);
    out << ",\"selfTest\":\"passed\",\"warning\":";
    if (solver->warning.empty())
      out << "null";
    else
      out.jsonString(solver->warning);
    out << '}';
  } else {
    out << "{\"name\":\"z3\",\"inProcess\":true}";
  }
  out << ",\n  \"obligations\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto &r = results[i];
    out << (i ? ",\n    " : "\n    ") << "{\"name\":";
    out.jsonString(r.name);
    out << ",\"status\":\"" << proofs::spelling(r.status) << "\",\"bound\":";
    if (r.everyLength)
      out << "\"all\"";
    else
      out << std::uint64_t{r.length};
    out << ",\"seconds\":" << secondsText(r.seconds);
    if (!r.reason.empty()) {
      out << ",\"reason\":";
      out.jsonString(r.reason);
    }
    out << '}';
  }
  out << "\n  ]\n}\n";
}

std::string answer(proofs::Status s) {
  switch (s) {
  case proofs::Status::proved: return "unsat";
  case proofs::Status::refuted: return "sat";
  case proofs::Status::unknown: return "unknown";
  }
  return "unknown";
}

/// `prove --emit-smt2 DIR`: every query as DIR/OBLIGATION.nLENGTH.smt2 (OBLIGATION.all.smt2 for
/// a step lemma), and DIR/manifest.json with the answer Z3 gave each (unsat: proved).
class Smt2Emitter {
public:
  /// docs/spec.md §4.1, "Output directories": DIR is absent, empty or one this tool wrote.
  explicit Smt2Emitter(std::string dir) : dir_(std::move(dir)) {
    if (std::string why; !files::outputDirectoryUsable(dir_, why))
      throw std::runtime_error(why);
    files::claimOutputDirectory(dir_, "prove --emit-smt2");
  }

  void operator()(const proofs::EmittedQuery &q) {
    const std::string file = std::string(q.obligation) + "." +
                             (q.everyLength ? std::string("all") : "n" + std::to_string(q.length)) +
                             ".smt2";
    io::OutputFile out(dir_ + "/" + file);
    out.write(q.smt2.text);
    out.commit();
    entries_.push_back(Entry{file, std::string(q.obligation), q.everyLength, q.length, q.smt2.logic,
                             answer(q.z3), q.z3Seconds});
  }

  void writeManifest(const proofs::Options &options) const {
    io::OutputFile file(dir_ + "/manifest.json");
    io::Sink out(file);
    out << "{\n  \"format\": \"lowering-oracle/smt2-queries\",\n  \"version\": 1,\n"
        << "  \"equality\": \"" << spelling(options.equality)
        << "\",\n  \"bound\": " << std::uint64_t{options.bound}
        << ",\n  \"meaning\": \"each file asserts valid(plan) and the negated goal: unsat means "
           "the obligation holds at that length\",\n  \"queries\": [";
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry &e = entries_[i];
      out << (i ? ",\n    " : "\n    ") << "{\"file\":";
      out.jsonString(e.file);
      out << ",\"obligation\":";
      out.jsonString(e.obligation);
      out << ",\"length\":";
      if (e.everyLength)
        out << "\"all\"";
      else
        out << std::uint64_t{e.length};
      out << ",\"logic\":\"" << e.logic << "\",\"expected\":\"" << e.expected
          << "\",\"z3Seconds\":" << secondsText(e.seconds) << '}';
    }
    out << "\n  ]\n}\n";
    out.flush();
    file.commit();
  }

private:
  struct Entry {
    std::string file, obligation;
    bool everyLength;
    std::size_t length;
    std::string logic, expected;
    double seconds;
  };
  std::string dir_;
  std::vector<Entry> entries_;
};

/// `prove --solver cvc5`: the cvc5 binary at `solver` (found on PATH and self-tested) on each
/// query, written to a temporary file that is always removed, with the `--timeout-ms` timeout
/// (cvc5's own --tlimit, and a kill after it).
proofs::Status runCvc5(const std::string &solver, const proofs::Smt2 &query, unsigned timeoutMs,
                       std::string &reason) {
  const auto timeout = std::chrono::milliseconds(timeoutMs);
  const SolverRun run = runSolver(solver, query.text, {"--tlimit=" + std::to_string(timeoutMs)},
                                  subprocess::Options{.timeout = timeout + std::chrono::seconds(2),
                                                      .captureStdout = true,
                                                      .maxCapture = 4096});
  if (!run.why.empty()) {
    reason = run.why;
    return proofs::Status::unknown;
  }
  const bool exited = run.result.status == subprocess::Result::Status::exited;
  if (exited && run.answer == "unsat")
    return proofs::Status::proved;
  if (exited && run.answer == "sat")
    return proofs::Status::refuted;
  reason = "cvc5: " + (run.answer.empty() ? subprocess::describe(run.result, timeout)
                                          : run.answer.substr(0, 200));
  return proofs::Status::unknown;
}

} // namespace

Action setupProve(CLI::App &app) {
  struct Options {
    std::size_t bound = 8;
    Equality equality = Equality::contract;
    enum class Format { text, json } format = Format::text;
    std::string counterexampleOut, only, emitSmt2, solver = "z3";
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
                  "write the first refuted obligation's counterexample as a GraphExecutionPlan")
      ->type_name("FILE");
  sub->add_option("--only", o->only,
                  "discharge only this obligation (or every obligation whose name starts with "
                  "NAME followed by a dot, e.g. --only step)")
      ->type_name("NAME");
  sub->add_option("--emit-smt2", o->emitSmt2,
                  "also write every query as a self-contained SMT-LIB 2 file in this directory "
                  "(OBLIGATION.nLENGTH.smt2, OBLIGATION.all.smt2 for a step lemma; unsat means "
                  "proved) and a manifest.json with Z3's answer to each")
      ->type_name("DIR");
  sub->add_option("--solver", o->solver,
                  "z3 (default, in process) or cvc5 (the cvc5 binary on PATH, run on each query "
                  "as an SMT-LIB 2 file with the timeout; a counterexample is still Z3's model). "
                  "cvc5 is named in the report by its resolved path and version, must answer a "
                  "trivially sat and a trivially unsat query correctly first (else exit 2), and "
                  "is warned about when it is not the documented version " +
                      std::string(kDocumentedCvc5Version))
      ->check(CLI::IsMember({"z3", "cvc5"}))
      ->default_str("z3");
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
      std::cerr << "lowering-oracle: prove: no obligation named \"" << io::shownText(o->only)
                << "\" (see prove --help)\n";
      return int{kBadInput};
    }
    std::optional<SolverBinary> solver;
    if (o->solver == "cvc5") {
      // The trust base (docs/proofs.md): the binary is named, its version asked, and it must
      // pass a self-test before any of its answers is believed; then that very file runs.
      solver = trustedCvc5(std::chrono::milliseconds(o->timeoutMs) + std::chrono::seconds(2));
      if (!solver->warning.empty())
        std::cerr << "lowering-oracle: prove: warning: " << solver->warning << '\n';
      const unsigned timeoutMs = o->timeoutMs;
      options.solver = [timeoutMs, path = solver->path](const proofs::Smt2 &q,
                                                        std::string &reason) {
        return runCvc5(path, q, timeoutMs, reason);
      };
    }
    std::shared_ptr<Smt2Emitter> emitter;
    if (!o->emitSmt2.empty()) {
      try {
        emitter = std::make_shared<Smt2Emitter>(o->emitSmt2);
      } catch (const std::exception &e) {
        std::cerr << "lowering-oracle: prove: --emit-smt2 " << io::shownText(o->emitSmt2) << ": "
                  << io::shownText(e.what()) << '\n';
        return int{kBadInput};
      }
      options.emit = [emitter](const proofs::EmittedQuery &q) { (*emitter)(q); };
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
    if (emitter)
      emitter->writeManifest(options);
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
        writeOutput(o->counterexampleOut, [&](io::Sink &sink) {
          io::writeExecutionPlan(sink, interner, counterexample->second);
        });
        std::cerr << "lowering-oracle: prove: counterexample to " << counterexample->first << " ("
                  << counterexample->second.kernels.size() << " nodes) written to "
                  << io::shownText(o->counterexampleOut) << '\n';
      } else {
        std::cerr << "lowering-oracle: prove: no obligation was refuted; "
                  << io::shownText(o->counterexampleOut) << " not written\n";
      }
    }
    writeOutput("-", [&](io::Sink &sink) {
      if (o->format == Format::json)
        writeJson(sink, results, options, solver);
      else
        writeText(sink, results, solver);
    });
    return exit;
  };
}

} // namespace lo::cli
