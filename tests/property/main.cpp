// The property suite's main: RapidCheck's default of 100 cases per property is raised to 1,000.
//
// RC_PARAMS still decides: a `max_success` given there is kept (so RC_PARAMS raises or lowers the
// count), and every other parameter (seed, max_size, reproduce, ...) is passed through.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {
constexpr const char *kDefaultCases = "max_success=1000";
}

int main(int argc, char **argv) {
  const char *given = std::getenv("RC_PARAMS");
  std::string params = given ? given : "";
  if (params.find("max_success") == std::string::npos)
    params += params.empty() ? kDefaultCases : std::string(" ") + kDefaultCases;
  setenv("RC_PARAMS", params.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
