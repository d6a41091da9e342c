// Lowers a plan with the installed library and checks the two-relu answer:
// coalesced: one sameCapsuleRun group, nodeIds [1, 2], capsuleNames ["reference.relu"];
// singleton: two groups named "reference.relu".
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"

#include <iostream>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer PLAN\n";
    return 2;
  }
  try {
    lo::Interner interner;
    const lo::GraphExecutionPlan plan =
        lo::io::readExecutionPlan(lo::io::loadSource(argv[1]), interner);
    const lo::GraphLoweringPlan coalesced = lo::toCoalescedLoweringPlan(interner, plan);
    const lo::GraphLoweringPlan singleton = lo::toSingletonLoweringPlan(plan);
    std::cout << lo::io::loweringPlanJson(interner, coalesced, lo::Mode::coalesced,
                                          lo::Equality::contract);
    const bool ok =
        coalesced.groups.size() == 1 &&
        coalesced.groups[0].groupingKind == lo::GroupingKind::sameCapsuleRun &&
        lo::nodeIds(coalesced) == std::vector<lo::NodeId>{1, 2} &&
        lo::capsuleNames(interner, coalesced) == std::vector<std::string>{"reference.relu"} &&
        lo::capsuleNames(interner, singleton) ==
            std::vector<std::string>{"reference.relu", "reference.relu"};
    std::cout << (ok ? "consumer: ok\n" : "consumer: unexpected lowering\n");
    return ok ? 0 : 1;
  } catch (const lo::io::InputError &e) {
    std::cerr << "consumer: " << e.what() << '\n';
    return 2;
  }
}
