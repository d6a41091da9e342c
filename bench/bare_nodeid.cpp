// lo-bench-bare: the least any reader must do (issue 8), the baseline of the performance table.
//
//   lo-bench-bare FILE [--ndjson] [--lowering]
//
// Loads FILE and makes one simdjson On-Demand pass over it that reads every kernel's nodeId, and
// nothing else; prints the count and the sum of the ids (so the pass cannot be optimised away).
// --ndjson reads the stream form; --lowering reads a GraphLoweringPlan's groups' nodeIds (the
// least a reader of `check`'s candidate must do); both read a lowering stream's groups' nodeIds.
// It is compiled with the same flags as the release `lowering-oracle` (bench/CMakeLists.txt).
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace od = simdjson::ondemand;

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: lo-bench-bare FILE [--ndjson] [--lowering]\n");
    return 2;
  }
  bool ndjson = false, lowering = false;
  for (int i = 2; i < argc; ++i) {
    ndjson |= std::strcmp(argv[i], "--ndjson") == 0;
    lowering |= std::strcmp(argv[i], "--lowering") == 0;
  }
  simdjson::padded_string json;
  if (auto err = simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "lo-bench-bare: %s: %s\n", argv[1], simdjson::error_message(err));
    return 2;
  }
  od::parser parser;
  std::uint64_t count = 0, sum = 0;
  if (!ndjson) {
    od::document doc;
    if (auto err = parser.iterate(json).get(doc)) {
      std::fprintf(stderr, "lo-bench-bare: %s\n", simdjson::error_message(err));
      return 2;
    }
    if (!lowering) {
      for (auto kernel : doc["kernels"]) {
        std::uint64_t id = 0;
        if (auto err = kernel["nodeId"].get_uint64().get(id)) {
          std::fprintf(stderr, "lo-bench-bare: %s\n", simdjson::error_message(err));
          return 2;
        }
        sum += id;
        ++count;
      }
    } else {
      // A GraphLoweringPlan (the candidate of `check`): every group's nodeIds.
      for (auto group : doc["groups"]) {
        for (auto item : group["nodeIds"]) {
          std::uint64_t id = 0;
          if (auto err = item.get_uint64().get(id)) {
            std::fprintf(stderr, "lo-bench-bare: %s\n", simdjson::error_message(err));
            return 2;
          }
          sum += id;
          ++count;
        }
      }
    }
  } else {
    // The stream form: skip the header line, then one kernel (or group) a line.
    const char *nl = static_cast<const char *>(std::memchr(json.data(), '\n', json.size()));
    const std::size_t start = nl ? static_cast<std::size_t>(nl - json.data()) + 1 : json.size();
    od::document_stream docs;
    if (auto err = parser
                       .iterate_many(reinterpret_cast<const std::uint8_t *>(json.data()) + start,
                                     json.size() - start)
                       .get(docs)) {
      std::fprintf(stderr, "lo-bench-bare: %s\n", simdjson::error_message(err));
      return 2;
    }
    for (auto doc : docs) {
      if (lowering) {
        for (auto item : doc["nodeIds"]) {
          std::uint64_t id = 0;
          if (auto err = item.get_uint64().get(id)) {
            std::fprintf(stderr, "lo-bench-bare: %s\n", simdjson::error_message(err));
            return 2;
          }
          sum += id;
          ++count;
        }
        continue;
      }
      std::uint64_t id = 0;
      if (auto err = doc["nodeId"].get_uint64().get(id)) {
        std::fprintf(stderr, "lo-bench-bare: %s\n", simdjson::error_message(err));
        return 2;
      }
      sum += id;
      ++count;
    }
  }
  std::printf("%llu kernels, nodeId sum %llu\n", static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(sum));
  return 0;
}
