#include "ref/hash.hpp"

#include <chrono>
#include <cstring>
#include <sys/random.h>
#include <unistd.h>

namespace lo {

HashKey drawKey(RandomSource random) {
  HashKey key;
  unsigned char bytes[16];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const long n = random(bytes + got, sizeof bytes - got);
    if (n <= 0)
      break;
    got += static_cast<std::size_t>(n);
  }
  if (got == sizeof bytes) {
    std::memcpy(&key.k0, bytes, 8);
    std::memcpy(&key.k1, bytes + 8, 8);
    return key;
  }
  // No random source (a kernel before 3.17, a seccomp filter): the clock, the process id and an
  // address, which an input file cannot predict either.
  const auto now = static_cast<std::uint64_t>(
      std::chrono::high_resolution_clock::now().time_since_epoch().count());
  SipHasher h(HashKey{now, static_cast<std::uint64_t>(::getpid())});
  h.word(reinterpret_cast<std::uintptr_t>(&key));
  key.k0 = h.finish();
  h.word(now);
  key.k1 = h.finish();
  return key;
}

const HashKey &processHashKey() {
  static const HashKey key =
      drawKey([](void *into, std::size_t size) -> long { return ::getrandom(into, size, 0); });
  return key;
}

void SipHasher::bytes(std::string_view s) {
  word(s.size());
  const char *p = s.data();
  std::size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t m;
    std::memcpy(&m, p, 8); // little-endian on every target of this project
    word(m);
  }
  if (n) {
    std::uint64_t m = 0;
    std::memcpy(&m, p, n);
    word(m);
  }
}

std::uint64_t SipHasher::finish() const {
  SipHasher f = *this;
  f.v2_ ^= 0xff;
  f.round();
  f.round();
  f.round();
  return f.v0_ ^ f.v1_ ^ f.v2_ ^ f.v3_;
}

} // namespace lo
