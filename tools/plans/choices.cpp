#include "tools/plans/choices.hpp"

#include <stdexcept>

namespace lo::plans {

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t Rng::below(std::uint64_t n) {
  if (n == 0) // no value lies in [0, 0): a caller's bug, never a division by zero
    throw std::logic_error("Rng::below(0): the range is empty");
  // Reject the top (2^64 mod n) values so that every residue is equally likely.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    const std::uint64_t r = next();
    if (r >= threshold)
      return r % n;
  }
}

std::uint64_t WordsChoices::below(std::uint64_t n) {
  if (n == 0)
    throw std::logic_error("WordsChoices::below(0): the range is empty");
  const std::uint64_t w = at_ < words_.size() ? words_[at_++] : 0;
  return w == 0 ? 0 : Rng(w).next() % n;
}

} // namespace lo::plans
