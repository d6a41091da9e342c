// Micro-benchmarks of the hot paths of `lower` (Google Benchmark), and the memory benchmark of
// the stream form: "peak memory asserted independent of length by a benchmark" (issue 8).
//
//   build/<dir>/bench/lo-bench-micro [--benchmark_filter=...]
//
// Heap use is measured exactly: this binary replaces the global operator new and delete to count
// the bytes live at once. BM_StreamLower and BM_StreamCheck report `peak_heap` for streams of
// 10^3 to 10^6 kernels, which must not grow with the length.
#include "bench/plan_gen.hpp"
#include "checks/checks.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/stream.hpp"
#include "ref/io/writer.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <unistd.h>

// --- Heap accounting (bench/heap_counter.hpp) --------------------------------------------------

#include "bench/heap_counter.hpp"

using lo::heap::peakBytes;
using lo::heap::resetPeak;

namespace {

using namespace lo;

/// The JSON text of the synthetic plan of `n` kernels.
std::string planJson(std::uint64_t n) {
  Interner interner;
  return io::executionPlanJson(interner, bench::generatePlan(interner, n, 1));
}

void BM_ReadPlan(benchmark::State &state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  const io::Source source = io::sourceFromString("plan.json", planJson(n));
  for (auto _ : state) {
    Interner interner;
    GraphExecutionPlan plan = io::readExecutionPlan(source, interner);
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

/// `lower --stream` from a file to a sink that discards: time, and the peak heap above what was
/// live before (the counter `peak_heap`, bytes), which must not grow with the length.
void BM_StreamLower(benchmark::State &state) {
  const auto n = static_cast<std::uint64_t>(state.range(0));
  char path[] = "/tmp/lo-bench-stream-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    state.SkipWithError("cannot create a temporary file");
    return;
  }
  close(fd);
  {
    Interner interner;
    const GraphExecutionPlan plan = bench::generatePlan(interner, n, 1);
    io::OutputFile file(path);
    io::Sink sink(file);
    io::writeExecutionPlanStream(sink, interner, plan);
    file.commit();
  }
  std::size_t peak = 0;
  io::StreamSummary summary;
  for (auto _ : state) {
    const std::size_t before = resetPeak();
    {
      Interner interner;
      io::PlanStream in(path, interner);
      io::OutputFile out("/dev/null");
      io::Sink sink(out);
      summary = io::lowerStream(in, sink, interner, Mode::coalesced, Equality::contract);
      out.commit();
    }
    peak = std::max(peak, peakBytes.load() - before);
  }
  std::remove(path);
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
  char planPath[] = "/tmp/lo-bench-stream-XXXXXX", lowPath[] = "/tmp/lo-bench-stream-XXXXXX";
  const int fd1 = mkstemp(planPath), fd2 = mkstemp(lowPath);
  if (fd1 < 0 || fd2 < 0) {
    state.SkipWithError("cannot create a temporary file");
    return;
  }
  close(fd1);
  close(fd2);
  {
    Interner interner;
    const GraphExecutionPlan plan = bench::generatePlan(interner, n, 1);
    io::OutputFile file(planPath);
    io::Sink sink(file);
    io::writeExecutionPlanStream(sink, interner, plan);
    file.commit();
    io::PlanStream in(planPath, interner);
    io::OutputFile low(lowPath);
    io::Sink lowSink(low);
    io::lowerStream(in, lowSink, interner, Mode::coalesced, Equality::contract);
    low.commit();
  }
  std::size_t peak = 0;
  bool conforms = true;
  for (auto _ : state) {
    const std::size_t before = resetPeak();
    {
      Interner interner;
      io::PlanStream plan(planPath, interner);
      io::LoweringStream candidate(lowPath, interner);
      conforms &= checks::checkStream(
                      interner, [&](PlannedNodeKernel &k) { return plan.next(k); },
                      [&](LoweredKernelGroup &g) { return candidate.next(g); }, checks::Options{})
                      .conforms();
    }
    peak = std::max(peak, peakBytes.load() - before);
  }
  std::remove(planPath);
  std::remove(lowPath);
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
