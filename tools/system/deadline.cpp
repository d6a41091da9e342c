#include "tools/system/deadline.hpp"

#include "tools/system/interrupt.hpp"

#include <algorithm>

namespace lo::system {

Clock::time_point deadlineAfter(std::chrono::milliseconds timeout, Clock::time_point now) {
  if (timeout.count() <= 0)
    return now;
  // Compare in milliseconds before converting to the clock's finer unit, which would overflow.
  const auto room =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::time_point::max() - now);
  if (timeout >= room)
    return Clock::time_point::max();
  return now + timeout;
}

int waitMs(Clock::time_point deadline, int cap) {
  const auto now = Clock::now();
  if (deadline <= now)
    return 0;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
  return static_cast<int>(std::min<long long>(left.count() + 1, cap));
}

Stop stopBefore(Clock::time_point deadline) {
  if (InterruptGuard::received())
    return Stop::interrupted;
  return Clock::now() >= deadline ? Stop::timedOut : Stop::no;
}

} // namespace lo::system
