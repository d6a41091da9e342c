// Reading what an implementation under test left behind (`diff`'s `{out}`, docs/spec.md §4.3): "it
// must be a regular file, opened without blocking" and read with a size cap — a FIFO, a device or a
// symbolic link (to /dev/zero, say) is refused without opening it for a blocking read, and no more
// than the cap is ever read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace lo::system {

struct BoundedRead {
  enum class Status { ok, missing, notRegular, tooLarge, unreadable };
  Status status = Status::ok;
  std::string text; // ok: the whole file
  std::string why;  // otherwise: one phrase, e.g. "is a FIFO, not a regular file"
};

/// The contents of `path` if it is a regular file (not a symbolic link) of at most `maxBytes`.
/// With `inside` (an absolute, canonical directory): the file that was opened must also be inside
/// it, judged by where the open descriptor is (/proc/self/fd), not by the name that was resolved
/// before the open, so that a symbolic link swapped in between cannot lead the read out.
BoundedRead readRegularFile(const std::string &path, std::size_t maxBytes,
                            const std::filesystem::path &inside = {});

/// Whether `path` is `dir` itself or below it, component by component (both canonical).
bool isInside(const std::filesystem::path &dir, const std::filesystem::path &path);

} // namespace lo::system
