// lo-hash-probe: prints the keyed hash of a fixed string, of a fixed node id and of a fixed kind,
// in this process. tests/hardening/hash_test.cpp runs it twice: two processes draw two keys.
#include "ref/hash.hpp"
#include "ref/opkind.hpp"

#include <cstdio>

int main() {
  const lo::OpKind kind{lo::KindTag::flatten, {{2, 3}}};
  std::printf("%016llx %016llx %016llx\n",
              static_cast<unsigned long long>(lo::keyedHash(std::string_view("lowering-oracle"))),
              static_cast<unsigned long long>(lo::keyedHash(std::uint64_t{42})),
              static_cast<unsigned long long>(lo::hashKind(kind)));
  return 0;
}
