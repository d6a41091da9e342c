// The seed of a unit test's random run: LO_SEED when given (to run a printed seed again), else a
// fresh one; printed either way.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <random>

namespace lo::test {

inline unsigned randomSeed() {
  const char *given = std::getenv("LO_SEED");
  const unsigned seed =
      given ? static_cast<unsigned>(std::strtoul(given, nullptr, 10)) : std::random_device{}();
  std::printf("seed %u (LO_SEED=%u runs it again)\n", seed, seed);
  return seed;
}

} // namespace lo::test
