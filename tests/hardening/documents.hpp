// The valid documents the hardening tests break: a plan that uses every shape of docs/spec.md §2
// (a capsules table and an inline capsule, every claim, evidence and provenance shape, every
// optional capsule field, bare and parameterised kinds), and its lowering with an audit.
#pragma once

#include "tests/hardening/json_tree.hpp"

namespace lo::hardening {

inline Json descriptor(Json claim, Json evidence, std::vector<Json> provenance = {}) {
  std::vector<std::pair<std::string, Json>> f{{"claim", std::move(claim)},
                                              {"summary", Json::string("a summary")},
                                              {"evidence", std::move(evidence)}};
  if (!provenance.empty())
    f.emplace_back("provenance", Json::array(std::move(provenance)));
  return Json::object(std::move(f));
}

inline Json tagged(std::string tag, std::vector<std::pair<std::string, Json>> rest = {}) {
  rest.insert(rest.begin(), {"tag", Json::string(std::move(tag))});
  return Json::object(std::move(rest));
}

inline Json fullCapsule(const std::string &name, const std::string &op) {
  auto s = [](const char *x) { return Json::string(x); };
  return Json::object({
      {"name", s(name.c_str())},
      {"op", s(op.c_str())},
      {"provider", s("native-cuda")},
      {"device", s("cuda")},
      {"trustLevel", s("trusted-external")},
      {"supportsForward", Json::boolean(true)},
      {"vjpMode", s("backend-vjp")},
      {"shapeContract", descriptor(tagged("shapeSafety", {{"op", s(op.c_str())}}),
                                   tagged("runtimeGuard", {{"name", s("shape_ok")}}),
                                   {tagged("sourceFile", {{"path", s("A.lean")}}),
                                    tagged("nativeSymbol", {{"path", s("k.cu")},
                                                            {"symbol", s("k_f32")},
                                                            {"buildTarget", s("kernels")}}),
                                    tagged("note", {{"text", s("a note")}})})},
      {"layoutContract",
       descriptor(
           tagged("layoutCompatibility", {{"op", s(op.c_str())}, {"layout", s("flat-row-major")}}),
           tagged("trustedBoundary", {{"reason", s("vendor")}}))},
      {"valueContract",
       descriptor(tagged("valueRefinement", {{"op", s(op.c_str())}}), tagged("notProvided"))},
      {"vjpContract",
       descriptor(tagged("vjpRefinement", {{"op", s(op.c_str())}, {"mode", s("backend-vjp")}}),
                  tagged("notApplicable"))},
      {"numericalPolicy", Json::object({{"rounding", s("nearest-even")},
                                        {"subnormals", s("flush-to-zero")},
                                        {"contraction", s("fused")},
                                        {"reduction", s("fixed-tree")}})},
      {"notes", s("notes")},
  });
}

inline Json basePlan() {
  auto s = [](const char *x) { return Json::string(x); };
  auto n = [](const char *x) { return Json::number(x); };
  return Json::object({
      {"format", s("nn-backend/graph-execution-plan")},
      {"version", n("1")},
      {"capsules", Json::object({{"a", fullCapsule("a", "relu")}})},
      {"kernels",
       Json::array({
           Json::object(
               {{"nodeId", n("1")}, {"kind", s("relu")}, {"op", s("relu")}, {"capsule", s("a")}}),
           Json::object({{"nodeId", n("2")},
                         {"kind", tagged("conv2d", {{"inC", n("3")},
                                                    {"outC", n("8")},
                                                    {"kH", n("3")},
                                                    {"kW", n("3")},
                                                    {"stride", n("1")},
                                                    {"padding", n("0")}})},
                         {"op", s("conv")},
                         {"capsule", fullCapsule("c", "conv")}}),
           Json::object({{"nodeId", n("3")},
                         {"kind", tagged("reshape", {{"inShape", Json::array({n("2"), n("3")})},
                                                     {"outShape", Json::array({n("6")})}})},
                         {"op", s("reshape")},
                         {"capsule", fullCapsule("r", "reshape")}}),
           Json::object(
               {{"nodeId", n("4")}, {"kind", s("relu")}, {"op", s("relu")}, {"capsule", s("a")}}),
       })},
  });
}

} // namespace lo::hardening
