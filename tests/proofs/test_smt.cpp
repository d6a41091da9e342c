// The thin Z3 layer: unsat negation is proved, a model is refuted, and a hard query under a short
// timeout comes back unknown instead of hanging.
#include "proofs/smt.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

namespace lo::proofs {
namespace {

TEST(Smt, ProvedRefutedAndModel) {
  z3::context ctx;
  Solver s(ctx, 10000);
  const z3::expr x = ctx.int_const("x");
  s.add(x > 3);
  EXPECT_EQ(s.prove(x > 2), Status::proved);
  EXPECT_FALSE(s.model().has_value());
  EXPECT_EQ(s.prove(x > 4), Status::refuted);
  ASSERT_TRUE(s.model().has_value());
  EXPECT_EQ(s.model()->eval(x, true).get_numeral_int64(), 4);
  // the negated goal of a call does not stay asserted
  EXPECT_EQ(s.prove(x > 2), Status::proved);
}

TEST(Smt, TimeoutGivesUnknown) {
  // The pigeonhole principle for 11 pigeons in 10 holes: valid, and hard for resolution.
  z3::context ctx;
  Solver s(ctx, 50);
  constexpr int pigeons = 11, holes = 10;
  std::vector<std::vector<z3::expr>> in(pigeons);
  z3::expr_vector each(ctx);
  for (int p = 0; p < pigeons; ++p) {
    z3::expr_vector some(ctx);
    for (int h = 0; h < holes; ++h) {
      in[p].push_back(ctx.bool_const(("p" + std::to_string(p) + "h" + std::to_string(h)).c_str()));
      some.push_back(in[p].back());
    }
    each.push_back(z3::mk_or(some));
  }
  z3::expr_vector clash(ctx);
  for (int h = 0; h < holes; ++h)
    for (int p = 0; p < pigeons; ++p)
      for (int q = p + 1; q < pigeons; ++q)
        clash.push_back(in[p][h] && in[q][h]);
  const auto start = std::chrono::steady_clock::now();
  // goal: some two pigeons share a hole
  const Status status = s.prove(z3::implies(z3::mk_and(each), z3::mk_or(clash)));
  EXPECT_EQ(status, Status::unknown);
  EXPECT_FALSE(s.reason().empty());
  std::cout << "pigeonhole 11/10 with a 50 ms timeout: " << spelling(status) << " (" << s.reason()
            << ") after " << secondsSince(start) << " s\n";
}

} // namespace
} // namespace lo::proofs
