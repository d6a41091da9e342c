// The base of an object that holds a process-wide state while it lives (a signal mask, a signal
// disposition, a registered path): it is neither copied nor moved, so that the state is given
// back exactly once.
#pragma once

namespace lo::system {

class Pinned {
public:
  Pinned(const Pinned &) = delete;
  Pinned &operator=(const Pinned &) = delete;

protected:
  Pinned() = default;
  ~Pinned() = default;
};

} // namespace lo::system
