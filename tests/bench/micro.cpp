// Micro-benchmarks of the hot paths of `lower` (Google Benchmark), and the memory benchmark of
// the stream form, whose peak memory must not grow with the plan's length.
//
//   build/<dir>/bench/lo-bench-micro [--benchmark_filter=...]
//
// Heap use is measured exactly: this binary replaces the global operator new and delete to count
// the bytes live at once. BM_StreamLower and BM_StreamCheck report `peak_heap` for streams of
// 10^3 to 10^6 kernels, which must not grow with the length.
#include "checks/checks.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"
#include "ref/io/writer.hpp"
#include "tests/bench/plan_gen.hpp"
#include "tools/system/output_file.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <unistd.h>

// --- Heap accounting (tests/bench/heap_counter.hpp)
// --------------------------------------------------

#include "tests/bench/heap_counter.hpp"

using lo::heap::peakBytes;
using lo::heap::resetPeak;

namespace {

using namespace lo;

/// The JSON text of the synthetic plan of `n` kernels.
std::string planJson(std::uint64_t n) {
  Interner interner;
  return io::executionPlanJson(interner, bench::generatePlan(interner, n, 1), bench::kEdition);
}

void BM_ReadPlan(benchmark::State &state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const io::Source source = io::sourceFromString("plan.json", planJson(n));
  for (auto _ : state) {
    Interner interner;
    GraphExecutionPlan plan = io::readExecutionPlan(source, interner, bench::kEdition);
    benchmark::DoNotOptimize(plan.kernels.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * source.text.size()));
}
BENCHMARK(BM_ReadPlan)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_Coalesce(benchmark::State &state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  Interner interner;
  const GraphExecutionPlan plan = bench::generatePlan(interner, n, 1);
  for (auto _ : state) {
    GraphLoweringPlan lowering = toCoalescedLoweringPlan(interner, plan);
    benchmark::DoNotOptimize(lowering.groups.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_Coalesce)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_WriteLowering(benchmark::State &state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  Interner interner;
  const GraphLoweringPlan lowering =
      toCoalescedLoweringPlan(interner, bench::generatePlan(interner, n, 1));
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string text =
        io::loweringPlanJson(interner, lowering, Mode::coalesced, Equality::contract);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_WriteLowering)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_CanAppend(benchmark::State &state) {
  Interner interner;
  const GraphExecutionPlan plan = bench::generatePlan(interner, 4096, 1);
  const Equality equality = state.range(0) ? Equality::identity : Equality::contract;
  const LoweredKernelGroup g = toSingletonLoweredGroup(plan.kernels.front());
  std::size_t i = 0, yes = 0;
  for (auto _ : state) {
    yes += canAppend(interner, equality, g, plan.kernels[i++ & 4095]);
  }
  benchmark::DoNotOptimize(yes);
}
BENCHMARK(BM_CanAppend)->Arg(0)->Arg(1);

/// A temporary file, removed at the end of the benchmark; `ok` is false when it cannot be made.
struct TempFile {
  std::string path = "/tmp/lo-bench-stream-XXXXXX";
  bool ok = false;
  TempFile() {
    const int fd = mkstemp(path.data());
    ok = fd >= 0;
    if (ok)
      close(fd);
  }
  ~TempFile() {
    if (ok)
      std::remove(path.c_str());
  }
};

/// Writes the synthetic plan of `n` kernels to `plan` in the stream form and, when given, its
/// coalesced lowering stream to `lowering`, in bench::kEdition.
void writeStreams(std::uint64_t n, const TempFile &plan, const TempFile *lowering = nullptr) {
  Interner interner;
  {
    const GraphExecutionPlan generated = bench::generatePlan(interner, n, 1);
    system::OutputFile file(plan.path);
    io::Sink sink(file);
    io::writeExecutionPlanStream(sink, interner, generated, bench::kEdition);
    file.commit();
  }
  if (lowering) {
    io::PlanStream in(plan.path, interner, nullptr, bench::kEdition);
    system::OutputFile file(lowering->path);
    io::Sink sink(file);
    io::lowerStream(in, sink, interner, Mode::coalesced, Equality::contract, bench::kEdition);
    file.commit();
  }
}

/// `lower --stream` from a file to a sink that discards: time, and the peak heap above what was
/// live before (the counter `peak_heap`, bytes), which must not grow with the length.
void BM_StreamLower(benchmark::State &state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const TempFile plan;
  if (!plan.ok)
    return state.SkipWithError("cannot create a temporary file");
  writeStreams(n, plan);
  std::size_t peak = 0;
  io::StreamSummary summary;
  for (auto _ : state) {
    const std::size_t before = resetPeak();
    {
      Interner interner;
      io::PlanStream in(plan.path, interner, nullptr, bench::kEdition);
      system::OutputFile out("/dev/null");
      io::Sink sink(out);
      summary = io::lowerStream(in, sink, interner, Mode::coalesced, Equality::contract);
      out.commit();
    }
    peak = std::max(peak, peakBytes.load() - before);
  }
  state.counters["peak_heap"] = static_cast<double>(peak);
  state.counters["largest_group"] = static_cast<double>(summary.largestGroup);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_StreamLower)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond);

/// `check --stream` of a plan stream against its lowering stream (it conforms): time, and the peak
/// heap above what was live before (`peak_heap`, bytes), which must not grow with the length.
void BM_StreamCheck(benchmark::State &state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const TempFile plan, lowering;
  if (!plan.ok || !lowering.ok)
    return state.SkipWithError("cannot create a temporary file");
  writeStreams(n, plan, &lowering);
  std::size_t peak = 0;
  bool conforms = true;
  for (auto _ : state) {
    const std::size_t before = resetPeak();
    {
      Interner interner;
      io::PlanStream in(plan.path, interner, nullptr, bench::kEdition);
      io::LoweringStream candidate(lowering.path, interner, nullptr, bench::kEdition);
      conforms &= checks::checkStream(
                      interner, [&](PlannedNodeKernel &k) { return in.next(k); },
                      [&](LoweredKernelGroup &g) { return candidate.next(g); },
                      checks::Options{Mode::coalesced, Equality::contract, io::kDefaultMaxPerCheck,
                                      bench::kEdition})
                      .conforms();
    }
    peak = std::max(peak, peakBytes.load() - before);
  }
  if (!conforms)
    state.SkipWithError("the reference lowering stream does not conform");
  state.counters["peak_heap"] = static_cast<double>(peak);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_StreamCheck)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
