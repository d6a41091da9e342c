// The property suite's main: RapidCheck's default of 100 cases per property becomes 200 in the
// README's test command and 1,000 in the campaign tier (tests/campaign.hpp).
//
// RC_PARAMS still decides: a `max_success` given there is kept (so RC_PARAMS raises or lowers the
// count), and every other parameter (seed, max_size, reproduce, ...) is passed through.
#include "tests/campaign.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  const std::string cases = "max_success=" + std::to_string(lo::testing::instance(200, 1000));
  const char *given = std::getenv("RC_PARAMS");
  std::string params = given ? given : "";
  if (params.find("max_success") == std::string::npos)
    params += params.empty() ? cases : " " + cases;
  setenv("RC_PARAMS", params.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
