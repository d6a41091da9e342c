// Files and directories for the commands that write several files (`gen`, `diff`, `prove
// --emit-smt2`), and the rule of docs/spec.md §4.1, "Output directories", that they share.
#pragma once

#include "tools/system/bounded_read.hpp"
#include "tools/system/cleanup.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace lo::system {

/// A new directory `parent/STEM-XXXXXX` (mkdtemp), STEM cut before its last dot to fit NAME_MAX;
/// throws std::runtime_error on failure.
std::filesystem::path makeTempDir(const std::filesystem::path &parent, const std::string &stem);

/// The name of the marker file that `diff --keep` and `prove --emit-smt2` write into every output
/// directory they use (docs/spec.md §4.1, "Output directories").
inline constexpr std::string_view kOutputMarker = ".lowering-oracle-output";

/// docs/spec.md §4.1, "Output directories": a command that writes several files into a directory
/// the user names uses it only when it is absent, empty, or holds the marker this tool writes
/// (`kOutputMarker`, a regular file); anything else is refused and nothing in it is touched, so
/// that no user file is overwritten. True when `dir` may be used; else `why` says what is there.
bool outputDirectoryUsable(const std::filesystem::path &dir, std::string &why);

/// Makes `dir` (and its parents) when absent and writes the marker into it, naming `command`;
/// throws std::runtime_error (or std::filesystem::filesystem_error) on failure.
void claimOutputDirectory(const std::filesystem::path &dir, std::string_view command);

/// $TMPDIR, else /tmp.
std::filesystem::path tempParent();

/// A private working directory `tempParent()/STEM-XXXXXX` (mode 0700) that this process owns:
/// made and registered for removal on SIGINT and SIGTERM with the signals held (so that no signal
/// in between can leave it behind; tools/system/cleanup.hpp), and removed with everything in it
/// when the object ends. Throws std::runtime_error when it cannot be made.
class TemporaryDirectory {
public:
  explicit TemporaryDirectory(const std::string &stem);
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory &) = delete;
  TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
  std::unique_ptr<system::DirectoryCleanupOnSignal> cleanup_;
};

/// Writes `text` to `path` whole or not at all (system::OutputFile).
void writeFile(const std::filesystem::path &path, std::string_view text);

/// Makes `path` a new regular file holding `text`, whatever was there (a FIFO, a read-only file, a
/// directory, a symbolic link: removed, never followed or opened), created with O_EXCL,
/// O_NOFOLLOW and O_NONBLOCK so that no step can block; `diff`'s files of a case, which the
/// implementation under test may have replaced. Throws std::runtime_error on failure.
void recreateFile(const std::filesystem::path &path, std::string_view text);

/// The contents of `relative` inside the directory `dir`, read as `diff` reads `{out}`
/// (readRegularFile): a regular file of at most `maxBytes`, a FIFO or device refused without a
/// blocking open. A symbolic link (of the file or of a directory on the way) is followed only while
/// it stays inside `dir`; one that leaves it is refused (status notRegular) without being read.
/// The name is resolved first, and the file then opened is judged again by its descriptor, so a
/// link swapped in between (by a program still running) cannot lead the read outside.
BoundedRead readInside(const std::filesystem::path &dir, const std::string &relative,
                       std::size_t maxBytes);

} // namespace lo::system
