#include "tools/diff/diff_drivers.hpp"

#include "ref/acceptance_profile.hpp"
#include "ref/io/strict_json.hpp"
#include "tools/report/report.hpp"
#include "tools/system/bounded_read.hpp"
#include "tools/system/command_line.hpp"
#include "tools/system/spawn.hpp"
#include "tools/system/worker.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace lo::diff {

namespace {

namespace fs = std::filesystem;
using system::Clock;

Produced failure(Outcome::Kind kind, std::string summary, std::string standardError = {}) {
  Produced p;
  p.standardError = standardError;
  p.failure = failedOutcome(kind, std::move(summary), std::move(standardError));
  return p;
}

/// `{out}` after the implementation is done: a regular file of at most the cap.
Produced readOut(const fs::path &outPath, std::size_t cap, std::string standardError,
                 const std::string &how, const std::string &who = "the implementation") {
  using K = Outcome::Kind;
  system::BoundedRead r = system::readRegularFile(outPath.string(), cap);
  switch (r.status) {
  case system::BoundedRead::Status::ok: {
    Produced p;
    p.ok = true;
    p.output = std::move(r.text);
    p.standardError = std::move(standardError);
    return p;
  }
  case system::BoundedRead::Status::missing:
    return failure(K::noOutput, who + " " + how + " but wrote no output file",
                   std::move(standardError));
  case system::BoundedRead::Status::tooLarge:
    return failure(K::tooLarge,
                   who + "'s output file " + r.why + " (--max-output-bytes); it was not judged",
                   std::move(standardError));
  case system::BoundedRead::Status::notRegular:
  case system::BoundedRead::Status::unreadable: break;
  }
  return failure(K::notRegular, who + "'s output file {out} " + r.why + "; refused",
                 std::move(standardError));
}

/// A request's `inline` field (docs/conformance.md, "The worker protocol"): `text` as a JSON value
/// on one line, each line break a space.
std::string oneLineOf(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char ch) { return ch == '\n' || ch == '\r'; }, ' ');
  return text;
}

} // namespace

Produced runCase(const std::vector<std::string> &argv, const DiffSettings &s,
                 Clock::time_point deadline, bool toStdout, const fs::path &outPath,
                 const std::function<ExitMeans(int)> &means, const std::string &who) {
  using K = Outcome::Kind;
  system::Options options;
  options.timeout = s.timeout();
  options.deadline = deadline;
  options.captureStdout = toStdout;
  options.maxStdout = s.maxOutput();
  system::Result r = system::run(argv, options);
  if (r.status == system::Result::Status::interrupted)
    throw Interrupted{};
  if (r.status == system::Result::Status::failedToStart)
    throw UsageError("cannot run " + argv[0] + ": " + r.error);
  const bool exited = r.status == system::Result::Status::exited;
  const ExitMeans meaning = !exited       ? ExitMeans::failure
                            : r.code == 0 ? ExitMeans::output
                                          : means(r.code);
  if (meaning == ExitMeans::failure)
    return failure(r.status == system::Result::Status::signaled   ? K::crashed
                   : r.status == system::Result::Status::timedOut ? K::timedOut
                                                                  : K::failed,
                   who + " " + system::describe(r, s.timeout()), std::move(r.standardError));
  Produced p;
  if (meaning == ExitMeans::answer) {
    p.ok = true;
    p.withoutOutput = true;
    p.exitCode = r.code;
    p.standardError = std::move(r.standardError);
    return p;
  }
  if (!toStdout) {
    p = readOut(outPath, s.maxOutput(), std::move(r.standardError),
                "exited with status " + std::to_string(r.code), who);
    p.exitCode = r.code;
    return p;
  }
  if (r.stdoutTruncated)
    return failure(K::tooLarge,
                   who + " wrote more than " + std::to_string(s.maxOutput()) +
                       " bytes to standard output (--max-output-bytes); it was not judged",
                   std::move(r.standardError));
  p.ok = true;
  p.exitCode = r.code;
  p.output = std::move(r.standardOutput);
  p.standardError = std::move(r.standardError);
  return p;
}

namespace {

/// `--impl` (and `--gate`): one process per case.
class PerCase : public Implementation {
public:
  explicit PerCase(const DiffSettings &s)
      : s_(s), command_(s.gate.empty() ? s.impl : s.gate),
        template_(system::splitCommand(command_)) {
    // Without `{out}` the implementation writes its output to standard output.
    toStdout_ = command_.find("{out}") == std::string::npos;
  }
  Produced produce(const CaseFiles &c, const Lowering &l, Clock::time_point deadline) override {
    std::map<std::string, std::string> values{
        {"plan", c.planPath.string()}, {"out", c.outPath.string()},
        {"mode", l.modeName()},        {"equality", l.equalityName()},
        {"policy", l.policyName()},    {"audit", l.audit ? "true" : "false"},
        {"profile", l.policyName()}}; // a maintained profile's name (docs/spec.md §6.10)
    // A gate's six booleans, for every policy: a custom one is told by them alone.
    if (l.policy)
      for (const PolicyFlag &f : kPolicyFlags)
        values[std::string(f.name)] = l.policy->policy.*f.field ? "true" : "false";
    const auto argv = system::substitute(template_, values);
    ++starts_;
    // A gate exits 1 when it rejects (docs/spec.md §6.6): its verdict is read from its output.
    const bool gate = l.policy.has_value();
    return runCase(
        argv, s_, deadline, toStdout_, c.outPath,
        [gate](int code) { return gate && code == 1 ? ExitMeans::output : ExitMeans::failure; },
        "the implementation");
  }
  std::size_t starts() const override { return starts_; }

private:
  const DiffSettings &s_;
  std::string command_;
  std::vector<std::string> template_;
  bool toStdout_ = false;
  std::size_t starts_ = 0;
};

} // namespace

WorkerSession::WorkerSession(const DiffSettings &s, std::string command, std::string outputWhat,
                             bool errorIsAnswer)
    : s_(s), command_(std::move(command)), outputWhat_(std::move(outputWhat)),
      errorIsAnswer_(errorIsAnswer),
      worker_(system::splitCommand(command_), s.maxOutput() + (1 << 16)) {}

WorkerSession::~WorkerSession() = default;

std::size_t WorkerSession::starts() const { return worker_.starts(); }

Produced WorkerSession::exchange(std::string_view fields, const fs::path &outPath,
                                 Clock::time_point deadline) {
  using K = Outcome::Kind;
  const std::uint64_t id = ++requests_;
  std::string request = "{\"id\":" + std::to_string(id);
  if (!fields.empty())
    request.append(",").append(fields);
  request += '}';
  system::Worker::Reply r = worker_.exchange(request, deadline);
  using S = system::Worker::Reply::Status;
  if (r.status == S::interrupted)
    throw Interrupted{};
  if (r.status == S::failedToStart)
    throw UsageError("cannot run " + system::splitCommand(command_)[0] + ": " + r.error);
  if (r.status != S::answered)
    return failure(r.status == S::signaled   ? K::crashed
                   : r.status == S::timedOut ? K::timedOut
                   : r.status == S::tooLong  ? K::tooLarge
                                             : K::failed,
                   "the worker " + system::describe(r, s_.timeout()) +
                       (r.status == S::tooLong ? " (--max-output-bytes); it was not judged" : "") +
                       "; it is started again for the next case",
                   std::move(r.standardError));
  return answer(r.line, id, outPath, std::move(r.standardError));
}

/// `{"id":N,"status":"done"}` (output in `{out}`), `{"id":N,"status":"done","output":{...}}`,
/// or `{"id":N,"status":"error","message":"..."}`.
Produced WorkerSession::answer(const std::string &line, std::uint64_t id, const fs::path &outPath,
                               std::string standardError) {
  using K = Outcome::Kind;
  // The line itself is quoted, shown (escaped) and cut, in the finding and in stderr.txt, so that
  // a stray line (a log line, a progress bar) says what it was.
  auto bad = [&](const std::string &why) {
    worker_.stop(); // out of step: start afresh
    const std::string quoted = "\"" + io::shownText(line, io::kMaxEchoBytes) + "\"";
    standardError += "lowering-oracle diff: the worker's line on standard output: " + quoted + "\n";
    return failure(K::protocol,
                   "the worker's answer " + why + ": " + quoted + "; it is started again",
                   std::move(standardError));
  };
  // Read strictly (ref/io/strict_json.hpp): an unknown or repeated field, a wrong type, a
  // field its status does not have is a wrong answer, named with its position and pointer.
  const io::Source source = io::sourceFromString("answer", line);
  std::optional<io::JsonReader> reader;
  try {
    reader.emplace(source);
    io::od::value root;
    io::od::json_type type;
    if (reader->doc().get_value().get(root) || root.type().get(type) ||
        type != io::od::json_type::object)
      return bad("is not one JSON object on one line");
  } catch (const io::InputError &) {
    return bad("is not one JSON object on one line");
  }
  std::optional<std::uint64_t> gotId;
  std::string_view status;
  std::optional<std::string_view> message, output; // the inline output, as written
  try {
    io::JsonReader &r = *reader;
    r.doc().rewind();
    const std::uint32_t seen = readAnswer(r, outputWhat_.c_str(), gotId, status, message, output);
    // `message` belongs to an error, `output` to done.
    r.checkTagFields(nullptr, kAnswerFields, seen & ~io::fieldBits(kAnswerFields, {"id"}), 0,
                     status == "error" ? io::fieldBits(kAnswerFields, {"status", "message"})
                     : status == "done"
                         ? io::fieldBits(kAnswerFields, {"status", "output"})
                         : io::fieldBits(kAnswerFields, {"status", "output", "message"}),
                     [&] { return "a worker answer with \"status\": " + io::quote(status); });
  } catch (const io::InputError &e) {
    return bad("is not a worker answer (" + std::string(e.what()) + ")");
  }
  if (!gotId || *gotId != id)
    return bad("does not carry the request's \"id\" " + std::to_string(id));
  if (status == "error" && errorIsAnswer_) {
    Produced p;
    p.ok = true;
    p.withoutOutput = true;
    p.message = std::string(message.value_or(""));
    p.standardError = std::move(standardError);
    return p;
  }
  if (status == "error")
    return failure(K::failed,
                   "the worker answered error: " + std::string(message.value_or("(no message)")),
                   std::move(standardError));
  if (status != "done")
    return bad("has \"status\" other than \"done\" or \"error\"");
  if (output && output->size() > s_.maxOutput())
    return failure(K::tooLarge,
                   "the worker answered an inline output of more than " +
                       std::to_string(s_.maxOutput()) +
                       " bytes (--max-output-bytes); it was not judged",
                   std::move(standardError));
  if (output) {
    Produced p;
    p.ok = true;
    p.output = std::string(*output);
    p.standardError = std::move(standardError);
    return p;
  }
  return readOut(outPath, s_.maxOutput(), std::move(standardError), "answered done");
}

/// Reads the answer's fields; returns those present.
std::uint32_t WorkerSession::readAnswer(io::JsonReader &r, const char *what,
                                        std::optional<std::uint64_t> &id, std::string_view &status,
                                        std::optional<std::string_view> &message,
                                        std::optional<std::string_view> &output) {
  std::uint32_t seen = 0;
  r.rootFields("a worker answer",
               io::FieldSet{kAnswerFields, io::fieldBits(kAnswerFields, {"status"})},
               [&](std::size_t i, io::od::value v) {
                 seen |= io::fieldBit(i);
                 switch (i) {
                 case 0: status = r.string(v, "a status"); break;
                 case 1: id = r.natural(v, "the request's id"); break;
                 case 2: {
                   std::string_view raw;
                   io::od::object object = r.object(v, what);
                   if (auto err = object.raw_json().get(raw))
                     r.failSimd(err, nullptr);
                   output = raw;
                   break;
                 }
                 case 3: message = r.string(v, "a message"); break;
                 }
               });
  return seen;
}

namespace {

/// `--worker` and `--gate-worker`: one process for the whole run, one request line and one answer
/// line per case (docs/conformance.md, "The worker protocol", "The gate worker protocol").
class Worker : public Implementation {
public:
  explicit Worker(const DiffSettings &s)
      : gates_(s.worker.empty()),
        session_(s, s.worker.empty() ? s.gateWorker : s.worker,
                 s.worker.empty() ? "a gate result" : "a GraphLoweringPlan", false) {}

  Produced produce(const CaseFiles &c, const Lowering &l, Clock::time_point deadline) override {
    Produced p = session_.exchange(requestFields(c, l), c.outPath, deadline);
    if (gates_ && p.ok)
      p.exitCode = -1; // a gate worker's verdict is its result's: it has no exit status per case
    return p;
  }
  std::size_t starts() const override { return session_.starts(); }

private:
  /// One request (docs/conformance.md, "The worker protocol"), after its id: the case's exact
  /// text in `planText`, and in `inline` the same bytes with each line break (outside strings, as
  /// JSON has no other) made a space, so that every spelling of the case (escapes, number forms,
  /// white space, member order) reaches the worker whichever it reads.
  std::string requestFields(const CaseFiles &c, const Lowering &l) const {
    std::string request;
    io::Sink sink(request);
    sink << "\"edition\":\"" << spelling(l.edition) << "\",\"case\":" << std::uint64_t{c.index}
         << ",\"label\":";
    sink.jsonString(c.label);
    sink << ",\"mode\":\"" << l.modeName() << "\",\"equality\":\"" << l.equalityName() << '"';
    if (l.policy && acceptance::hasAcceptanceGate(l.edition)) { // a maintained profile (§6.10)
      sink << ",\"profile\":\"" << l.policyName() << '"';
    } else if (l.policy) { // the gate's policy, as a gate result names it (docs/spec.md §6.5)
      sink << ",\"policy\":{\"name\":\"" << l.policyName() << '"';
      for (const PolicyFlag &f : kPolicyFlags)
        sink << ",\"" << f.name << "\":" << (l.policy->policy.*f.field ? "true" : "false");
      sink << '}';
    } else {
      sink << ",\"audit\":" << (l.audit ? "true" : "false");
    }
    sink << ",\"plan\":";
    sink.jsonString(c.planPath.string());
    sink << ",\"out\":";
    sink.jsonString(c.outPath.string());
    sink << ",\"planText\":";
    sink.jsonString(c.planText);
    sink << ",\"inline\":" << oneLineOf(c.planText);
    sink.flush();
    return request;
  }

  bool gates_ = false; // --gate-worker: the answers are gate results
  WorkerSession session_;
};

} // namespace

std::unique_ptr<Implementation> makeImplementation(const DiffSettings &s) {
  if (s.worker.empty() && s.gateWorker.empty())
    return std::make_unique<PerCase>(s);
  return std::make_unique<Worker>(s);
}

} // namespace lo::diff
