// The seed of a test's own random run: LO_TEST_SEED when given (to run a printed seed again), else
// a fresh one; printed either way, so that a failure names the run that found it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace lo::test {

inline std::uint64_t randomSeed() {
  const char *given = std::getenv("LO_TEST_SEED");
  const std::uint64_t seed = given ? std::strtoull(given, nullptr, 10) : std::random_device{}();
  std::printf("seed %llu (reproduce with LO_TEST_SEED=%llu)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  return seed;
}

} // namespace lo::test
