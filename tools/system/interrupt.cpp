#include "tools/system/interrupt.hpp"

namespace lo::system {

InterruptGuard::InterruptGuard() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &oldPipe_);
}

InterruptGuard::~InterruptGuard() { ::sigaction(SIGPIPE, &oldPipe_, nullptr); }

} // namespace lo::system
