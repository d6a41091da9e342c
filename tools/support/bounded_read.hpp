// Reading what an implementation under test left behind (`diff`'s `{out}`): "`{out}` must be a
// regular file, read with a size cap" — a FIFO, a device or a symbolic link (to /dev/zero, say)
// is refused without opening it for a blocking read, and no more than the cap is ever read.
#pragma once

#include <cstddef>
#include <string>

namespace lo::files {

struct BoundedRead {
  enum class Status { ok, missing, notRegular, tooLarge, unreadable };
  Status status = Status::ok;
  std::string text; // ok: the whole file
  std::string why;  // otherwise: one phrase, e.g. "is a FIFO, not a regular file"
};

/// The contents of `path` if it is a regular file (not a symbolic link) of at most `maxBytes`.
BoundedRead readRegularFile(const std::string &path, std::size_t maxBytes);

} // namespace lo::files
