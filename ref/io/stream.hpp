// The stream form (NDJSON) of a GraphExecutionPlan and of a GraphLoweringPlan, for plans that do
// not fit in memory (docs/spec.md §7, docs/formats.md): a header line with the capsule table, then
// one kernel or group per line, read in memory bounded by the largest group and the table.
//
//   {"format":"nn-backend/graph-execution-plan-stream","version":1,"capsules":{"KEY":Capsule,...}}
//   {"nodeId":1,"kind":"relu","op":"relu","capsule":"KEY"}
//   ...
//
//   {"format":"nn-backend/graph-lowering-plan-stream","version":1,"mode":"coalesced",
//    "equality":"contract","capsules":{...}}
//   {"nodeIds":[1,2],"kinds":["relu","relu"],"op":"relu","capsule":"KEY","groupingKind":"..."}
//   ...
//
// Each line is one JSON object (one line of the header is shown wrapped above). Node ids must
// increase from line to line: that is how duplicates are rejected without remembering every id.
#pragma once

#include "ref/io/input.hpp"
#include "ref/io/output.hpp"
#include "ref/io/reader.hpp"
#include "ref/io/writer.hpp"
#include "ref/lowering.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lo::io {

inline constexpr std::string_view kPlanStreamFormat = "nn-backend/graph-execution-plan-stream";
inline constexpr std::string_view kLoweringStreamFormat = "nn-backend/graph-lowering-plan-stream";

/// Writes `plan` in the stream form: the header (capsule keys by the spec's rule), then one kernel
/// a line, in the shape of `edition` (every field when none, as writer.hpp's writers).
void writeExecutionPlanStream(Sink &out, const Interner &interner, const GraphExecutionPlan &plan,
                              WrittenEdition edition = {});

/// The lines of a stream, from a file or "-" (standard input), read in blocks: memory holds
/// the longest line and two read blocks, whatever the length of the stream. A line is returned as
/// soon as it has arrived: reading never waits for more than is needed (so one producer can feed
/// both streams of `check --stream` through pipes).
class LineSource {
public:
  /// `stall`, when given, watches this source's waits (see StallWatch).
  explicit LineSource(const std::string &path, std::shared_ptr<StallWatch> stall = nullptr);

  /// The next line, or false at the end. An empty line is an error.
  bool next(std::string_view &line);
  std::size_t lineNumber() const { return lineNumber_; }
  /// The name used in messages ("<stdin>" for "-").
  const std::string &name() const { return name_; }
  /// Called before the source waits for input that has not arrived yet.
  void beforeWait(std::function<void()> f) { file_.beforeWait = std::move(f); }

private:
  InputFile file_;
  std::string name_;
  std::string buffer_;
  std::size_t begin_ = 0, end_ = 0; // unread bytes are buffer_[begin_, end_)
  std::size_t scanned_ = 0;         // of which the first scanned_ hold no newline
  bool eof_ = false;
  std::size_t lineNumber_ = 0;
};

/// What the two streams below share: their source and their line reader.
class LineStream {
public:
  /// Opens `path`; every line is read in `edition`. The header line is read at the first use,
  /// not here: `check --stream` opens both of its inputs before it waits on either (docs/spec.md
  /// §3.6), so one producer that opens both FIFOs before it writes either is not kept waiting for
  /// the second open.
  LineStream(const std::string &path, Interner &interner,
             std::shared_ptr<StallWatch> stall = nullptr, Edition edition = kNewestEdition);

  const std::string &name() const { return source_.name(); }
  /// Called before the stream waits for input that has not arrived yet.
  void beforeWait(std::function<void()> f) { source_.beforeWait(std::move(f)); }

protected:
  ~LineStream() = default;
  /// Reads the header line, once.
  virtual void readHeader() = 0;
  /// The next line after the header (read first), or none at the end of the stream.
  std::optional<std::string_view> nextLine() {
    readHeader();
    std::string_view line;
    if (!source_.next(line))
      return std::nullopt;
    return line;
  }

  LineSource source_;
  LineReader lines_;
};

/// Reads a plan in the stream form one kernel at a time, in memory bounded by the longest line
/// and the capsule table. The header is read at the first use of capsules() or next().
class PlanStream final : public LineStream {
public:
  using LineStream::LineStream;

  /// The header's capsules table: keys and capsules in file order (reads the header first).
  const std::vector<std::pair<std::string, CapsuleId>> &capsules() {
    readHeader();
    return *capsules_;
  }

  /// Reads the next kernel into `k`; false at the end of the stream.
  bool next(PlannedNodeKernel &k);

private:
  void readHeader() override;
  const std::vector<std::pair<std::string, CapsuleId>> *capsules_ = nullptr;
  bool anyKernel_ = false;
  NodeId lastId_ = 0;
};

/// Reads a lowering in the stream form one group at a time (a candidate for `check --stream`),
/// in memory bounded by the longest line and the capsule table. Each group is checked for its
/// shape only: whether the groups are what the spec gives is for the checks to say.
class LoweringStream final : public LineStream {
public:
  /// The header is read at the first use of declared() or next().
  using LineStream::LineStream;

  /// The mode and equality the header declares, if it does (reads the header first).
  const StreamDeclaration &declared() {
    readHeader();
    return declared_;
  }

  /// Reads the next group into `g`; false at the end of the stream.
  bool next(LoweredKernelGroup &g);

private:
  void readHeader() override;
  StreamDeclaration declared_;
  bool headerRead_ = false;
};

/// What a streamed lowering saw.
struct StreamSummary {
  std::uint64_t kernels = 0;
  std::uint64_t groups = 0;
  std::uint64_t largestGroup = 0;
};

/// Lowers a plan stream to a lowering stream as it reads: a group is written as soon as the next
/// kernel cannot be appended to it (`LoweringState::pushKernel` decides), so memory holds one
/// group, the line being read and the capsule table. The output header's capsules are the input
/// header's, keyed by the spec's rule in table order; a group whose capsule was written inline in
/// the input is written with its capsule inline. Groups and capsules have the shape of `edition`.
StreamSummary lowerStream(PlanStream &in, Sink &out, const Interner &interner, Mode mode,
                          Equality equality, WrittenEdition edition = {});

} // namespace lo::io
