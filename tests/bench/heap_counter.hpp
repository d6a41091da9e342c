// Heap accounting for the benchmarks and tests that assert a peak memory independent of length:
// replaces the global operator new and delete to count the bytes live at once.
//
// Include this header in exactly one source file of a binary (it defines the replacement
// functions, which must not be defined twice). Shared by tests/bench/micro.cpp and
// tests/stream/stream_test.cpp.
#pragma once

#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace lo::heap {

inline std::atomic<std::size_t> liveBytes{0}, peakBytes{0};

inline void *counted(std::size_t n) {
  void *p = std::malloc(n ? n : 1);
  if (!p)
    throw std::bad_alloc();
  const std::size_t live = liveBytes += malloc_usable_size(p);
  std::size_t peak = peakBytes.load();
  while (live > peak && !peakBytes.compare_exchange_weak(peak, live)) {
  }
  return p;
}

inline void uncounted(void *p) {
  if (p) {
    liveBytes -= malloc_usable_size(p);
    std::free(p);
  }
}

/// Restarts the peak at the bytes live now; returns them.
inline std::size_t resetPeak() {
  const std::size_t live = liveBytes.load();
  peakBytes = live;
  return live;
}

/// The peak since the last resetPeak(), above what was live then (`before`).
inline std::size_t peakSince(std::size_t before) { return peakBytes.load() - before; }

} // namespace lo::heap

void *operator new(std::size_t n) { return lo::heap::counted(n); }
void *operator new[](std::size_t n) { return lo::heap::counted(n); }
void operator delete(void *p) noexcept { lo::heap::uncounted(p); }
void operator delete[](void *p) noexcept { lo::heap::uncounted(p); }
void operator delete(void *p, std::size_t) noexcept { lo::heap::uncounted(p); }
void operator delete[](void *p, std::size_t) noexcept { lo::heap::uncounted(p); }
// The nothrow forms too (simdjson allocates its parser with `new (std::nothrow) T[]`): every form
// that can pair with the deletes above must allocate with malloc, or AddressSanitizer reports an
// alloc-dealloc mismatch.
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return lo::heap::counted(n);
  } catch (...) {
    return nullptr;
  }
}
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return lo::heap::counted(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void *p, const std::nothrow_t &) noexcept { lo::heap::uncounted(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { lo::heap::uncounted(p); }
