// Files and directories for the commands that write several files (`gen`, `diff`).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace lo::files {

/// A new directory `parent/STEM-XXXXXX` (mkdtemp); throws std::runtime_error on failure.
std::filesystem::path makeTempDir(const std::filesystem::path &parent, const std::string &stem);

/// $TMPDIR, else /tmp.
std::filesystem::path tempParent();

/// Writes `text` to `path` whole or not at all (io::OutputFile).
void writeFile(const std::filesystem::path &path, std::string_view text);

} // namespace lo::files
