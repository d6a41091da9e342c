// `prove --emit-smt2 DIR` (docs/spec.md §4.3): every solver query as a self-contained SMT-LIB 2
// file DIR/OBLIGATION.nLENGTH.smt2 (OBLIGATION.all.smt2 for a step lemma), and DIR/manifest.json
// with the answer Z3 gave each (unsat: proved), so that another solver (cvc5) can be run on them.
// DIR follows the rule of docs/spec.md §4.1, "Output directories": absent, empty or one this tool
// wrote, else refused before any query.
#pragma once

#include "proofs/obligations.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lo::prove {

class Smt2Emitter {
public:
  /// Claims `dir` (system::claimOutputDirectory); throws std::runtime_error (or
  /// std::filesystem::filesystem_error) when it may not be used, saying why, nothing touched.
  explicit Smt2Emitter(std::string dir);

  /// Writes the query `q` to its file (proofs::Options::emit).
  void operator()(const proofs::EmittedQuery &q);

  /// Writes DIR/manifest.json: every query written, in order, with Z3's answer.
  void writeManifest(const proofs::Options &options) const;

private:
  struct Entry {
    std::string file, obligation;
    bool everyLength;
    std::size_t length;
    std::string logic, expected;
    double seconds;
  };
  std::string dir_;
  std::vector<Entry> entries_;
};

} // namespace lo::prove
