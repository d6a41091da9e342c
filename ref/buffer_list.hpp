// What the lists held in one buffer share (ref/packed_list.hpp, ref/text_list.hpp): a size as
// LEB128 (seven bits a byte, the low ones first, the high bit set on every byte but the last: one
// byte below 128), and the members an input iterator derives from its `++it`.
#pragma once

#include <cstddef>
#include <iterator>

namespace lo::buffer {

/// Appends `n` to `out` (a container of char).
template <class Out> void putSize(Out &out, std::size_t n) {
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7f) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
}

/// The size at `p`; `p` then points past it.
inline std::size_t getSize(const char *&p) {
  std::size_t n = 0;
  for (unsigned shift = 0;; shift += 7) {
    const auto byte = static_cast<unsigned char>(*p++);
    n |= static_cast<std::size_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return n;
  }
}

/// The base of iterator `D` over values `V` read by value: its types, and `it++` from `++it`.
template <class D, class V> struct ValueIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = V;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = V;
  D operator++(int) {
    D was = static_cast<D &>(*this);
    ++static_cast<D &>(*this);
    return was;
  }
};

} // namespace lo::buffer
