// The one path to standard error of a line that names the tool (docs/spec.md §4.5): "Errors go to
// standard error as `lowering-oracle: ...` on one line", and `prove`'s warning and notes alike.
// tools/main.cpp prints every error through it (a command throws, main catches and prints); a
// command prints through it only a line that is not an error, while it goes on.
#pragma once

#include <string_view>

namespace lo::cli {

/// "lowering-oracle: TEXT" on one line of standard error, TEXT shown as every report shows text
/// from the input (docs/spec.md §3.5: control characters escaped, never cut), so that no input
/// can forge or hide a line. Text already shown is unchanged by it.
void printDiagnostic(std::string_view text);

} // namespace lo::cli
