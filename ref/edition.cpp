#include "ref/edition.hpp"

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

std::string editionHint(EditionSet fits) {
  // The newest edition that fits is the one to suggest.
  for (std::size_t i = vocabularySize<Edition>(); i-- > 0;)
    if (fits & editionBit(static_cast<Edition>(i)))
      return "valid in edition " + editionNames(fits) + ": use --edition " +
             std::string(spelling(static_cast<Edition>(i)));
  return "valid in no edition";
}

} // namespace lo
