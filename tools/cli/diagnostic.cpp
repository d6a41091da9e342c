#include "tools/cli/diagnostic.hpp"

#include "ref/io/escape.hpp"

#include <iostream>

namespace lo::cli {

void printDiagnostic(std::string_view text) {
  std::cerr << "lowering-oracle: " << io::shownText(text, io::kUncut) << '\n';
}

} // namespace lo::cli
