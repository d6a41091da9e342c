// lo-collide WHAT N [--random] [--stream]: writes to standard output a plan of N kernels whose
// WHAT (kinds, capsules or nodeids) all collide under the hashes used before they were keyed
// (tests/hardening/collisions.hpp), or with --random the same plan with random values of the same
// shape. --stream writes the plan in the stream form (docs/formats.md). Used by
// tools/bench-collisions.
#include "ref/opkind.hpp"
#include "tests/hardening/collisions.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

namespace {

std::string jsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string descriptor(const std::string &claim) {
  return "{\"claim\":" + claim +
         ",\"summary\":\"s\",\"evidence\":{\"tag\":\"testSuite\",\"name\":\"t\"}}";
}

std::string capsule(const std::string &op, const std::string &notes) {
  const std::string o = "\"op\":\"" + op + "\"";
  return "{\"name\":\"x." + op + "\"," + o +
         ",\"provider\":\"reference\",\"device\":\"cpu\",\"trustLevel\":\"checked\","
         "\"shapeContract\":" +
         descriptor("{\"tag\":\"shapeSafety\"," + o + "}") + ",\"layoutContract\":" +
         descriptor("{\"tag\":\"layoutCompatibility\"," + o + ",\"layout\":\"canonical-tensor\"}") +
         ",\"valueContract\":" + descriptor("{\"tag\":\"valueRefinement\"," + o + "}") +
         ",\"vjpContract\":" +
         descriptor("{\"tag\":\"vjpRefinement\"," + o + ",\"mode\":\"none\"}") +
         ",\"notes\":" + jsonString(notes) + "}";
}

int usage() {
  std::cerr << "usage: lo-collide kinds|capsules|nodeids N [--random] [--stream]\n";
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    return usage();
  const std::string what = argv[1];
  const std::size_t n = std::strtoull(argv[2], nullptr, 10);
  bool random = false, stream = false;
  for (int i = 3; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--random")
      random = true;
    else if (a == "--stream")
      stream = true;
    else
      return usage();
  }
  if (what != "kinds" && what != "capsules" && what != "nodeids")
    return usage();
  const std::uint64_t seed = 20261130;

  // The capsules table and, per kernel, its id, kind, op and capsule key.
  std::string table;
  std::vector<std::uint64_t> ids(n);
  for (std::size_t i = 0; i < n; ++i)
    ids[i] = i + 1;
  std::vector<std::string> kinds(n, "\"relu\"");
  std::vector<std::string> keys(n, "c");
  std::string op = "relu";
  if (what == "capsules") {
    const auto notes = random ? lo::collide::randomStrings(n, seed)
                              : lo::collide::stdHashCollidingStrings(n, seed);
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = "c" + std::to_string(i);
      table += (i ? "," : "") + jsonString(keys[i]) + ":" + capsule(op, notes[i]);
    }
  } else {
    if (what == "kinds") {
      op = "reshape";
      const auto tag = static_cast<std::uint64_t>(lo::KindTag::flatten);
      const auto shapes = random ? lo::collide::randomShapes(n, seed)
                                 : lo::collide::oldKindHashCollidingShapes(n, tag, seed);
      for (std::size_t i = 0; i < n; ++i)
        kinds[i] = "{\"tag\":\"flatten\",\"s\":[" + std::to_string(shapes[i][0]) + "," +
                   std::to_string(shapes[i][1]) + "]}";
    } else {
      ids =
          random ? lo::collide::randomSparseIds(n, seed) : lo::collide::identityHashCollidingIds(n);
    }
    table = "\"c\":" + capsule(op, "");
  }

  std::string out;
  out.reserve(n * 200 + table.size());
  if (stream)
    out += "{\"format\":\"nn-backend/graph-execution-plan-stream\",\"version\":1,\"capsules\":{" +
           table + "}}\n";
  else
    out += "{\"format\":\"nn-backend/graph-execution-plan\",\"version\":1,\"capsules\":{" + table +
           "},\"kernels\":[\n";
  for (std::size_t i = 0; i < n; ++i) {
    out += "{\"nodeId\":" + std::to_string(ids[i]) + ",\"kind\":" + kinds[i] + ",\"op\":\"" + op +
           "\",\"capsule\":" + jsonString(keys[i]) + "}";
    out += stream ? "\n" : (i + 1 < n ? ",\n" : "\n");
  }
  if (!stream)
    out += "]}\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}
