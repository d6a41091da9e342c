// Output files, written whole or not at all (docs/spec.md §4.1).
//
// "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are the process's own descriptor,
// written directly (so `-o /dev/stdout >> log` appends). Otherwise the directory of the path is
// opened. In /dev or /proc (however spelled: /dev//stdout, /dev/./stdin) the entry is judged by
// the file it resolves to, never by its spelling: standard output or error is that descriptor,
// standard input is refused, another device or a pipe is written directly, and nothing there is
// ever replaced or created. Elsewhere the last component is looked at without following it: a
// character device or a FIFO (/dev/null, a pipe), or a symbolic link to one, is written directly
// and never replaced; a regular file, another symbolic link or a new name is replaced atomically,
// in that directory, by a temporary file created there with O_EXCL|O_NOFOLLOW and renamed over the
// name (renameat) by commit(). The new file keeps a replaced regular file's mode; a symbolic link
// is replaced itself (its target is not touched); a read-only file is not replaced (an error, as a
// shell's `>` gives). See docs/errors.md, "Output files".
#pragma once

#include "ref/io/output.hpp"
#include "tools/system/cleanup.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace lo::system {

class OutputFile final : public io::Destination {
public:
  /// Opens `path` for writing; throws std::runtime_error with a plain message on failure.
  explicit OutputFile(std::string path);
  ~OutputFile(); // removes the temporary file unless committed
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  void write(std::string_view bytes) override;
  /// Flushes and, for a regular file, renames the temporary file into place.
  void commit();

private:
  void writeAll(const char *data, std::size_t size);
  void openDirectly(bool followLink);
  void openSystemEntry();
  std::string path_;
  int fd_ = -1;
  bool ownFd_ = false; // whether fd_ is closed by this object
  int dirFd_ = -1;     // the directory of a replaced file
  std::string base_;   // the name replaced in it
  std::string temp_;   // the temporary file's name in it; empty when writing directly
  std::unique_ptr<CleanupOnSignal> cleanup_;
  bool committed_ = false;
};

} // namespace lo::system
