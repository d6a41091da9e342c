// The programs' allocation policy (docs/performance.md, "Huge pages"): every allocation of 4 MiB
// and more is advised to the kernel as transparent huge pages (madvise MADV_HUGEPAGE), so that a
// large plan's text, simdjson's index of it and the tables built from it fault in 2 MiB at a time
// instead of 4 KiB. The replaceable allocation functions below are linked into the programs
// alone (`lo_huge_pages`, CMakeLists.txt: the binary and the bare baseline of tools/bench), never
// into a library: a program that links lowering_oracle keeps its own allocator. Under
// AddressSanitizer or MemorySanitizer (the test build) the file defines nothing: the sanitizer's
// runtime replaces these functions itself.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define LO_ALLOCATOR_OF_A_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LO_ALLOCATOR_OF_A_SANITIZER 1
#endif

#ifndef LO_ALLOCATOR_OF_A_SANITIZER
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>

namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
constexpr std::size_t kAdviseFrom = 2 * kHugePage;

/// malloc, and the advice for the whole huge pages inside a large block. The advice is a hint: a
/// kernel without transparent huge pages, or with them off, refuses it, and nothing changes.
void *allocate(std::size_t n) noexcept {
  void *p = std::malloc(n == 0 ? 1 : n);
  if (p != nullptr && n >= kAdviseFrom) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t begin = (at + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t end = (at + n) & ~(kHugePage - 1);
    if (end > begin)
      madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
  }
  return p;
}

void *allocateOrThrow(std::size_t n) {
  for (;;) {
    if (void *p = allocate(n))
      return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr)
      throw std::bad_alloc();
    handler();
  }
}

} // namespace

void *operator new(std::size_t n) { return allocateOrThrow(n); }
void *operator new[](std::size_t n) { return allocateOrThrow(n); }
void *operator new(std::size_t n, const std::nothrow_t &) noexcept { return allocate(n); }
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept { return allocate(n); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

#endif // LO_ALLOCATOR_OF_A_SANITIZER
