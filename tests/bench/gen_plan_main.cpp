// lo-bench-gen: writes a synthetic GraphExecutionPlan (tests/bench/plan_gen.hpp) for the
// benchmarks.
//
//   lo-bench-gen KERNELS [SEED] [--ndjson] [-o FILE]
//
// The JSON form is the capsule-table form of docs/spec.md §2; --ndjson writes the stream form of
// docs/formats.md (a header line with the capsule table, then one kernel a line).
#include "ref/io/stream.hpp"
#include "ref/io/writer.hpp"
#include "tests/bench/plan_gen.hpp"
#include "tools/system/output_file.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char **argv) {
  std::uint64_t kernels = 0, seed = 1;
  bool ndjson = false;
  std::string out = "-";
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--ndjson")
      ndjson = true;
    else if (a == "-o" && i + 1 < argc)
      out = argv[++i];
    else if (positional == 0 && ++positional)
      kernels = std::strtoull(a.c_str(), nullptr, 10);
    else if (positional == 1 && ++positional)
      seed = std::strtoull(a.c_str(), nullptr, 10);
    else {
      std::cerr << "usage: lo-bench-gen KERNELS [SEED] [--ndjson] [-o FILE]\n";
      return 2;
    }
  }
  if (positional == 0) {
    std::cerr << "usage: lo-bench-gen KERNELS [SEED] [--ndjson] [-o FILE]\n";
    return 2;
  }
  lo::Interner interner;
  const lo::GraphExecutionPlan plan = lo::bench::generatePlan(interner, kernels, seed);
  lo::system::OutputFile file(out);
  lo::io::Sink sink(file);
  // Written in the edition of the model plans (tests/bench/plan_gen.hpp).
  if (ndjson)
    lo::io::writeExecutionPlanStream(sink, interner, plan, lo::bench::kEdition);
  else
    lo::io::writeExecutionPlan(sink, interner, plan, lo::bench::kEdition);
  file.commit();
  return 0;
}
