// How far each obligation gets in a time budget (a measurement, not a test): for n = 0, 1, 2, ...
// discharges length n alone and adds its time, and prints the largest bound whose lengths 0..n
// all fit in the budget. Time is CPU time of this process (the machine is shared), and wall time.
// The obligations are those of prove's default edition (Options::edition).
//
//   proofs_reach [BUDGET_SECONDS=60] [OBLIGATION...]
#include "proofs/obligations.hpp"

#include <ctime>
#include <iostream>

int main(int argc, char **argv) {
  using namespace lo::proofs;
  const double budget = argc > 1 ? std::stod(argv[1]) : 60.0;
  std::vector<const Obligation *> chosen;
  const Options defaults;
  for (int i = 2; i < argc; ++i)
    if (const Obligation *o = findObligation(argv[i]); o && appliesIn(*o, defaults.edition))
      chosen.push_back(o);
  if (chosen.empty())
    for (const Obligation *o : obligationsOf(defaults.edition))
      if (!o->everyLength)
        chosen.push_back(o);
  std::cout << "obligation                   reached  cpu-seconds  wall-seconds\n";
  for (const Obligation *o : chosen) {
    double cpu = 0, wall = 0;
    std::size_t reached = 0;
    bool any = false;
    for (std::size_t n = 0;; ++n) {
      const std::clock_t c0 = std::clock();
      const Result r = discharge(
          *o, Options{.bound = n,
                      .minLength = n,
                      .timeoutMs = static_cast<unsigned>(std::max(1.0, budget - cpu) * 1000)});
      const double dc = double(std::clock() - c0) / CLOCKS_PER_SEC;
      if (r.status != Status::proved || cpu + dc > budget)
        break;
      cpu += dc;
      wall += r.seconds;
      reached = n;
      any = true;
    }
    std::string name(o->name);
    name.resize(29, ' ');
    std::cout << name << (any ? std::to_string(reached) : std::string("-")) << "        " << cpu
              << "        " << wall << std::endl;
  }
}
