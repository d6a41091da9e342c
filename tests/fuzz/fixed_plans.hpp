// The fixed plans the candidate harness judges fuzzed candidates against. They are small, and
// chosen so that the two equalities group differently and a trusted-external boundary exists.
#pragma once

#include <array>
#include <string_view>

namespace lo::fuzz {

#define LO_FUZZ_CONTRACTS(OP)                                                                      \
  "\"shapeContract\":{\"claim\":{\"tag\":\"shapeSafety\",\"op\":\"" OP "\"},\"summary\":\"s\","    \
  "\"evidence\":{\"tag\":\"testSuite\",\"name\":\"t\"}},"                                          \
  "\"layoutContract\":{\"claim\":{\"tag\":\"shapeSafety\",\"op\":\"" OP "\"},\"summary\":\"\","    \
  "\"evidence\":{\"tag\":\"notProvided\"}},"                                                       \
  "\"valueContract\":{\"claim\":{\"tag\":\"shapeSafety\",\"op\":\"" OP "\"},\"summary\":\"\","     \
  "\"evidence\":{\"tag\":\"notProvided\"}},"                                                       \
  "\"vjpContract\":{\"claim\":{\"tag\":\"shapeSafety\",\"op\":\"" OP "\"},\"summary\":\"\","       \
  "\"evidence\":{\"tag\":\"notProvided\"}}"

// Node 4 uses a capsule with the identity of "a" but another trust level: one group under
// `identity`, two under `contract`, and a trusted-external boundary that `identity` hides.
inline constexpr std::string_view kFixedPlanBoundary =
    "{\"capsules\":{"
    "\"a\":{\"name\":\"a\",\"op\":\"relu\",\"provider\":\"reference\",\"device\":\"cpu\","
    "\"trustLevel\":\"verified\"," LO_FUZZ_CONTRACTS(
        "relu") "},"
                "\"a2\":{\"name\":\"a\",\"op\":\"relu\",\"provider\":\"reference\",\"device\":"
                "\"cpu\","
                "\"trustLevel\":\"trusted-external\"," LO_FUZZ_CONTRACTS(
                    "relu") "},"
                            "\"c\":{\"name\":\"c\",\"op\":\"conv\",\"provider\":\"cudnn\","
                            "\"device\":\"cuda\","
                            "\"trustLevel\":\"trusted-external\"," LO_FUZZ_CONTRACTS(
                                "conv") "}},"
                                        "\"kernels\":["
                                        "{\"nodeId\":1,\"kind\":\"relu\",\"op\":\"relu\","
                                        "\"capsule\":\"a\"},"
                                        "{\"nodeId\":2,\"kind\":\"relu\",\"op\":\"relu\","
                                        "\"capsule\":\"a\"},"
                                        "{\"nodeId\":3,\"kind\":{\"tag\":\"conv2d\",\"inC\":3,"
                                        "\"outC\":8,\"kH\":3,\"kW\":3,"
                                        "\"stride\":1,\"padding\":0},\"op\":\"conv\",\"capsule\":"
                                        "\"c\"},"
                                        "{\"nodeId\":4,\"kind\":\"relu\",\"op\":\"relu\","
                                        "\"capsule\":\"a\"},"
                                        "{\"nodeId\":5,\"kind\":\"relu\",\"op\":\"relu\","
                                        "\"capsule\":\"a2\"}]}";

// Ids out of order, kinds with parameters.
inline constexpr std::string_view kFixedPlanUnordered =
    "{\"capsules\":{"
    "\"m\":{\"name\":\"m\",\"op\":\"mul\",\"provider\":\"xla\",\"device\":\"tpu\","
    "\"trustLevel\":\"checked\"," LO_FUZZ_CONTRACTS(
        "mul") "},"
               "\"s\":{\"name\":\"s\",\"op\":\"softmax\",\"provider\":\"aten\",\"device\":\"cpu\","
               "\"trustLevel\":\"fuzzed\"," LO_FUZZ_CONTRACTS(
                   "softmax") "}},"
                              "\"kernels\":["
                              "{\"nodeId\":7,\"kind\":\"mul_elem\",\"op\":\"mul\",\"capsule\":"
                              "\"m\"},"
                              "{\"nodeId\":3,\"kind\":\"mul_elem\",\"op\":\"mul\",\"capsule\":"
                              "\"m\"},"
                              "{\"nodeId\":9,\"kind\":{\"tag\":\"softmax\",\"axis\":1},\"op\":"
                              "\"softmax\",\"capsule\":\"s\"},"
                              "{\"nodeId\":0,\"kind\":{\"tag\":\"softmax\",\"axis\":2},\"op\":"
                              "\"softmax\",\"capsule\":\"s\"}]}";

inline constexpr std::string_view kFixedPlanEmpty = "{\"kernels\":[]}";

inline constexpr std::array<std::string_view, 3> kFixedPlans{kFixedPlanBoundary,
                                                             kFixedPlanUnordered, kFixedPlanEmpty};

#undef LO_FUZZ_CONTRACTS

} // namespace lo::fuzz
