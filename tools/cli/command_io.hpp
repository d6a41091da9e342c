// What the subcommands share around their work (docs/spec.md §4.1): a required operand, the report
// `--format` and `-o,--output` options, writing the output whole or not at all, and reading a file
// that holds a plan or a lowering.
#pragma once

#include "ref/interner.hpp"
#include "ref/io/output.hpp"
#include "ref/ir.hpp"
#include "tools/report/report.hpp"
#include "tools/system/output_file.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace lo::cli {

/// A required positional operand `name` (an input file or directory) into `target`.
CLI::Option *addOperand(CLI::App &sub, const std::string &name, std::string &target,
                        const std::string &description);

/// `-o,--output` into `out`: "WHAT, or - for standard output (default)".
CLI::Option *addOutputOption(CLI::App &sub, std::string &out,
                             const std::string &what = "output file");

/// `--format` of a conformance report (text, json, junit, sarif or html; default text) into
/// `format`.
CLI::Option *addReportFormatOption(CLI::App &sub, report::ReportFormat &format,
                                   const std::string &description);

/// The options of a conformance report: `--format` (as addReportFormatOption) and
/// `--max-per-check N` (1 to 2^64 - 1): "list at most this many violations PER, and count the
/// rest".
void addReportOptions(CLI::App &sub, report::ReportFormat &format, std::size_t &maxPerCheck,
                      const std::string &formatDescription, const std::string &per);

/// Writes what `write(sink)` writes to the output `path` ("-": standard output), whole or not at
/// all: nothing is left behind when `write` throws.
template <class Write> void writeOutput(const std::string &path, Write &&write) {
  system::OutputFile file(path);
  io::Sink sink(file);
  write(sink);
  sink.flush();
  file.commit();
}

/// The lowering that `file` ("-": standard input) holds: a GraphLoweringPlan's groups as written,
/// or the lowering of `mode` under `equality` of a GraphExecutionPlan.
GraphLoweringPlan readLowering(Interner &interner, const std::string &file, Edition edition,
                               Mode mode, Equality equality);

/// `lower`'s output step (docs/spec.md §4.2), shared by `lower` and `plan --lower`: lowers `plan`
/// (released before the lowering is written, to keep peak memory to the lowering), with its audit
/// when `withAudit`, and writes the GraphLoweringPlan of `edition` to `out`.
void writeLowering(Interner &interner, GraphExecutionPlan plan, Mode mode, Equality equality,
                   bool withAudit, Edition edition, const std::string &out);

} // namespace lo::cli
