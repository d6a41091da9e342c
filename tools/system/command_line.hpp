// The command of `diff --impl` and `diff --worker` as arguments (docs/spec.md §4.3): "It is split
// into arguments like a shell splits words, but no shell runs it; `{plan}`, `{out}`, `{mode}` and
// `{equality}` are replaced inside each argument."
//
// The command is split into arguments once, like a POSIX shell splits words (quotes and
// backslashes), but no shell ever runs it: placeholders are substituted inside each argument and
// the result goes to execvp (tools/system/spawn.hpp), so a file name is always exactly one
// argument.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lo::system {

/// Splits a command template into arguments: white space separates, '...' keeps everything
/// literally, "..." keeps everything but `\"` and `\\`, and a backslash outside quotes escapes the
/// next character. Throws std::invalid_argument on an unterminated quote or an empty command.
std::vector<std::string> splitCommand(std::string_view command);

/// Replaces every `{name}` of `values` in every argument. Other braces are left alone.
std::vector<std::string> substitute(const std::vector<std::string> &argv,
                                    const std::map<std::string, std::string> &values);

} // namespace lo::system
