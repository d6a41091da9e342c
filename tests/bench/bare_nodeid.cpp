// lo-bench-bare: the least any reader must do, the baseline of the performance table.
//
//   lo-bench-bare FILE [--ndjson] [--lowering] [--graph]
//
// Loads FILE and makes one simdjson On-Demand pass over it that reads every kernel's nodeId, and
// nothing else; prints the count and the sum of the ids (so the pass cannot be optimised away).
// --ndjson reads the stream form; --lowering reads a GraphLoweringPlan's groups' nodeIds (the
// least a reader of `check`'s candidate must do); both read a lowering stream's groups' nodeIds.
// --graph reads a torchlean.ir.v1 graph's nodes' ids (the least a reader of `plan` must do).
// It is compiled with the same flags as the release `lowering-oracle` (tests/bench/CMakeLists.txt).
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace od = simdjson::ondemand;

namespace {

/// The ids read: how many and their sum (printed, so that the pass cannot be optimised away).
struct Tally {
  std::uint64_t count = 0, sum = 0;
  simdjson::error_code add(simdjson::simdjson_result<std::uint64_t> id) {
    std::uint64_t value = 0;
    if (auto err = std::move(id).get(value))
      return err;
    sum += value;
    ++count;
    return simdjson::SUCCESS;
  }
};

int fail(simdjson::error_code err) {
  std::fprintf(stderr, "lo-bench-bare: %s\n", simdjson::error_message(err));
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: lo-bench-bare FILE [--ndjson] [--lowering] [--graph]\n");
    return 2;
  }
  bool ndjson = false, lowering = false, graph = false;
  for (int i = 2; i < argc; ++i) {
    ndjson |= std::strcmp(argv[i], "--ndjson") == 0;
    lowering |= std::strcmp(argv[i], "--lowering") == 0;
    graph |= std::strcmp(argv[i], "--graph") == 0;
  }
  simdjson::padded_string json;
  if (auto err = simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "lo-bench-bare: %s: %s\n", argv[1], simdjson::error_message(err));
    return 2;
  }
  od::parser parser;
  Tally tally;
  simdjson::error_code err = simdjson::SUCCESS;
  if (!ndjson) {
    od::document doc;
    if ((err = parser.iterate(json).get(doc)))
      return fail(err);
    if (graph) {
      for (auto node : doc["nodes"])
        if ((err = tally.add(node["id"].get_uint64())))
          return fail(err);
    } else if (!lowering) {
      for (auto kernel : doc["kernels"])
        if ((err = tally.add(kernel["nodeId"].get_uint64())))
          return fail(err);
    } else {
      // A GraphLoweringPlan (the candidate of `check`): every group's nodeIds.
      for (auto group : doc["groups"])
        for (auto item : group["nodeIds"])
          if ((err = tally.add(item.get_uint64())))
            return fail(err);
    }
  } else {
    // The stream form: skip the header line, then one kernel (or group) a line.
    const char *nl = static_cast<const char *>(std::memchr(json.data(), '\n', json.size()));
    const std::size_t start = nl ? static_cast<std::size_t>(nl - json.data()) + 1 : json.size();
    od::document_stream docs;
    if ((err = parser
                   .iterate_many(reinterpret_cast<const std::uint8_t *>(json.data()) + start,
                                 json.size() - start)
                   .get(docs)))
      return fail(err);
    for (auto doc : docs) {
      if (!lowering) {
        if ((err = tally.add(doc["nodeId"].get_uint64())))
          return fail(err);
        continue;
      }
      for (auto item : doc["nodeIds"])
        if ((err = tally.add(item.get_uint64())))
          return fail(err);
    }
  }
  std::printf("%llu kernels, nodeId sum %llu\n", static_cast<unsigned long long>(tally.count),
              static_cast<unsigned long long>(tally.sum));
  return 0;
}
