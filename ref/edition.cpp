#include "ref/edition.hpp"

#include <cstdlib>
#include <optional>

namespace lo {

std::string editionNames(EditionSet set) {
  std::string out;
  for (std::size_t i = 0; i < vocabularySize<Edition>(); ++i)
    if (set & editionBit(static_cast<Edition>(i))) {
      if (!out.empty())
        out += ", ";
      out += spelling(static_cast<Edition>(i));
    }
  return out;
}

std::string editionHint(EditionSet fits, Edition judged) {
  // The edition that fits nearest the judged one is the one to suggest (the newer of two as near).
  const auto at = static_cast<long>(judged);
  std::optional<long> best;
  for (long i = 0; i < static_cast<long>(vocabularySize<Edition>()); ++i)
    if ((fits & editionBit(static_cast<Edition>(i))) &&
        (!best || std::labs(i - at) <= std::labs(*best - at)))
      best = i;
  if (!best)
    return "valid in no edition";
  return "valid in edition " + editionNames(fits) + ": use --edition " +
         std::string(spelling(static_cast<Edition>(*best)));
}

} // namespace lo
