#include "tools/prove/smt2_emitter.hpp"

#include "ref/io/output.hpp"
#include "tools/report/report.hpp"
#include "tools/system/files.hpp"
#include "tools/system/output_file.hpp"

#include <stdexcept>

namespace lo::prove {

namespace {

/// The answer that means the status: a query asserts the negated goal, so unsat is proved.
std::string answer(proofs::Status s) {
  switch (s) {
  case proofs::Status::proved: return "unsat";
  case proofs::Status::refuted: return "sat";
  case proofs::Status::unknown: return "unknown";
  }
  return "unknown";
}

} // namespace

/// docs/spec.md §4.1, "Output directories": DIR is absent, empty or one this tool wrote.
Smt2Emitter::Smt2Emitter(std::string dir) : dir_(std::move(dir)) {
  if (std::string why; !system::outputDirectoryUsable(dir_, why))
    throw std::runtime_error(why);
  system::claimOutputDirectory(dir_, "prove --emit-smt2");
}

void Smt2Emitter::operator()(const proofs::EmittedQuery &q) {
  const std::string file = std::string(q.obligation) + "." +
                           (q.everyLength ? std::string("all") : "n" + std::to_string(q.length)) +
                           ".smt2";
  system::OutputFile out(dir_ + "/" + file);
  out.write(q.smt2.text);
  out.commit();
  entries_.push_back(Entry{file, std::string(q.obligation), q.everyLength, q.length, q.smt2.logic,
                           answer(q.z3), q.z3Seconds});
}

void Smt2Emitter::writeManifest(const proofs::Options &options) const {
  system::OutputFile file(dir_ + "/manifest.json");
  io::Sink out(file);
  out << "{\n  \"format\": \"lowering-oracle/smt2-queries\",\n  \"version\": 1,\n"
      << "  \"edition\": \"" << spelling(options.edition) << "\",\n"
      << "  \"equality\": \"" << spelling(options.equality)
      << "\",\n  \"bound\": " << std::uint64_t{options.bound}
      << ",\n  \"meaning\": \"each file asserts valid(plan) and the negated goal: unsat means "
         "the obligation holds at that length\",\n  \"queries\": [";
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry &e = entries_[i];
    out << (i ? ",\n    " : "\n    ") << "{\"file\":";
    out.jsonString(e.file);
    out << ",\"obligation\":";
    out.jsonString(e.obligation);
    out << ",\"length\":";
    if (e.everyLength)
      out << "\"all\"";
    else
      out << std::uint64_t{e.length};
    out << ",\"logic\":\"" << e.logic << "\",\"expected\":\"" << e.expected
        << "\",\"z3Seconds\":" << report::secondsText(e.seconds) << '}';
  }
  out << "\n  ]\n}\n";
  out.flush();
  file.commit();
}

} // namespace lo::prove
