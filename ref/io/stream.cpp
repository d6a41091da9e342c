#include "ref/io/stream.hpp"

#include "ref/io/writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>

namespace lo::io {

namespace {

constexpr std::size_t kReadBlock = std::size_t{1} << 20;

/// The keys of the capsules of a stream header, by the spec's rule ("the capsule's name, with
/// `#2`, `#3`, ... for later distinct capsules of the same name, in order of first use"), taking
/// the table's order as the order of use.
class HeaderKeys {
public:
  HeaderKeys(const Interner &interner, const std::vector<CapsuleId> &order)
      : keys_(interner, order) {
    for (CapsuleId id : keys_.order())
      byId_.emplace(id, &keys_.key(id));
  }
  const CapsuleKeys &keys() const { return keys_; }
  /// The key of a capsule of the table, or null for one that is not in it.
  const std::string *find(CapsuleId id) const {
    if (id == lastId_ && last_)
      return last_;
    auto it = byId_.find(id);
    lastId_ = id;
    last_ = it == byId_.end() ? nullptr : it->second;
    return last_;
  }

private:
  CapsuleKeys keys_;
  std::unordered_map<CapsuleId, const std::string *> byId_;
  mutable CapsuleId lastId_{};
  mutable const std::string *last_ = nullptr;
};

/// The header's `capsules` table, the last member of its object, and the end of the header line.
void writeHeaderTable(Sink &out, const Interner &interner, const CapsuleKeys &keys,
                      WrittenEdition edition) {
  out << ',';
  writeCapsuleTable(out, interner, keys, Layout::line, edition);
  out << "}\n";
}

} // namespace

void writeExecutionPlanStream(Sink &out, const Interner &interner, const GraphExecutionPlan &plan,
                              WrittenEdition edition) {
  const CapsuleKeys keys = capsuleKeysOf(interner, plan.kernels);
  out << "{\"format\":\"" << kPlanStreamFormat << "\",\"version\":1";
  writeHeaderTable(out, interner, keys, edition);
  for (const auto &k : plan.kernels) {
    writeKernel(out, interner, k, &keys.key(k.capsule), edition);
    out << '\n';
  }
  out.flush();
}

// --- Reading ---------------------------------------------------------------------------------

LineSource::LineSource(const std::string &path, std::shared_ptr<StallWatch> stall)
    : file_(path, stall != nullptr), name_(file_.name()) {
  file_.watch(std::move(stall));
}

bool LineSource::next(std::string_view &line) {
  for (;;) {
    const char *start = buffer_.data() + begin_;
    // The bytes before `scanned_` were searched already: a long line arriving in small pieces
    // is searched once, not once per piece.
    if (const void *nl = std::memchr(start + scanned_, '\n', end_ - begin_ - scanned_)) {
      const std::size_t length = static_cast<std::size_t>(static_cast<const char *>(nl) - start);
      line = std::string_view(start, length);
      begin_ += length + 1;
      scanned_ = 0;
      ++lineNumber_;
      if (line.find_first_not_of(" \t\r") == std::string_view::npos)
        throw InputError(name_, lineNumber_, 1, "", "empty line: expected one JSON object a line");
      return true;
    }
    scanned_ = end_ - begin_;
    if (eof_) {
      if (begin_ == end_)
        return false;
      line = std::string_view(start, end_ - begin_); // a last line without a newline
      begin_ = end_;
      scanned_ = 0;
      ++lineNumber_;
      return line.find_first_not_of(" \t\r") != std::string_view::npos;
    }
    // Keep the unread bytes, then fill the buffer after them. The buffer holds two blocks and
    // grows only for a line longer than one block, so memory does not depend on the length.
    if (begin_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (buffer_.size() < end_ + kReadBlock) {
      if (end_ + kReadBlock > kMaxDocumentBytes)
        throw InputError(name_, lineNumber_ + 1, 1, "", "line longer than the limit of 4 GiB");
      buffer_.resize(std::max(2 * kReadBlock, 2 * end_));
    }
    // What is available now, however little: a line already here is not held back.
    int error = 0;
    const std::size_t n = file_.readSome(buffer_.data() + end_, buffer_.size() - end_, error);
    if (error)
      file_.readFailed(error, lineNumber_ + 1, 1);
    end_ += n;
    eof_ = n == 0;
  }
}

namespace {

/// Reads a stream's header line. A first line that is not a whole JSON object is most often a
/// file in the JSON form (pretty-printed over several lines), so the message says so.
template <class Read> decltype(auto) readHeaderLine(LineSource &source, Read &&read) {
  std::string_view line;
  if (!source.next(line))
    throw InputError(source.name(), "empty stream: expected a header line");
  try {
    return read(line, source.lineNumber());
  } catch (const InputError &e) {
    if (e.message().rfind("malformed JSON", 0) != 0 && e.message().rfind("unclosed string", 0) != 0)
      throw;
    throw InputError(e.file(), e.line(), e.column(), e.pointer(),
                     e.message() + "; a stream's first line is a whole JSON object (its header): "
                                   "for a file in the JSON form, leave out --stream");
  }
}

} // namespace

LineStream::LineStream(const std::string &path, Interner &interner,
                       std::shared_ptr<StallWatch> stall, Edition edition)
    : source_(path, std::move(stall)), lines_(source_.name(), interner, edition) {}

void PlanStream::readHeader() {
  if (capsules_)
    return;
  capsules_ = &readHeaderLine(source_,
                              [&](std::string_view line, std::size_t number)
                                  -> const std::vector<std::pair<std::string, CapsuleId>> & {
                                return lines_.readHeader(line, number, kPlanStreamFormat);
                              });
}

bool PlanStream::next(PlannedNodeKernel &k) {
  const auto line = nextLine();
  if (!line)
    return false;
  k = lines_.readKernel(*line, source_.lineNumber());
  // "unique nodeIds": in the stream form they must increase, so a duplicate is found in O(1).
  if (anyKernel_ && k.nodeId <= lastId_)
    throw InputError(source_.name(), source_.lineNumber(), 1, "/nodeId",
                     "nodeId " + std::to_string(k.nodeId) +
                         " does not increase (the line before has " + std::to_string(lastId_) +
                         "): in the stream form node ids must increase, so that a duplicate is "
                         "found without remembering every id; use the JSON form for other orders");
  anyKernel_ = true;
  lastId_ = k.nodeId;
  return true;
}

void LoweringStream::readHeader() {
  if (headerRead_)
    return;
  headerRead_ = true;
  readHeaderLine(source_, [&](std::string_view line, std::size_t number) {
    lines_.readHeader(line, number, kLoweringStreamFormat, &declared_);
    return 0;
  });
}

bool LoweringStream::next(LoweredKernelGroup &g) {
  const auto line = nextLine();
  if (line)
    g = lines_.readGroup(*line, source_.lineNumber());
  return line.has_value();
}

// --- Lowering ----------------------------------------------------------------------------------

StreamSummary lowerStream(PlanStream &in, Sink &out, const Interner &interner, Mode mode,
                          Equality equality, WrittenEdition edition) {
  std::vector<CapsuleId> order;
  order.reserve(in.capsules().size());
  for (const auto &entry : in.capsules())
    order.push_back(entry.second);
  const HeaderKeys keys(interner, order);
  out << "{\"format\":\"" << kLoweringStreamFormat << "\",\"version\":1,\"mode\":\""
      << spelling(mode) << "\",\"equality\":\"" << spelling(equality) << '"';
  writeHeaderTable(out, interner, keys.keys(), edition);

  // What is written reaches the reader of the output before this waits for more input: a reader
  // that feeds this lowering and also reads its output (`tee A | lower --stream - -o B` with
  // `check --stream A B`) is never kept waiting for groups already lowered.
  in.beforeWait([&out] { out.flush(); });
  StreamSummary summary;
  GroupWriter writer(interner, edition);
  auto emit = [&](const LoweredKernelGroup &g) {
    writer.write(out, g, keys.find(g.capsule));
    out << '\n';
    ++summary.groups;
    summary.largestGroup = std::max<std::uint64_t>(summary.largestGroup, g.nodeIds.size());
  };

  GroupFold fold(interner, mode, equality);
  PlannedNodeKernel k;
  while (in.next(k)) {
    ++summary.kernels;
    fold.push(k, emit);
  }
  fold.finish(emit);
  in.beforeWait(nullptr);
  out.flush();
  return summary;
}

} // namespace lo::io
