#include "tools/system/cleanup.hpp"

#include <atomic>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace lo::system {

namespace {

constexpr int kSlots = 64;
constexpr std::size_t kNameMax = 256;

struct Slot {
  std::atomic<bool> used{false};
  int dirFd = -1;
  bool directory = false;
  char name[kNameMax] = {};
};

Slot gSlots[kSlots];
std::atomic<bool> gClaim[kSlots];

// SignalsDeferred: whether one lives, the kinds deferred once already (bit 1 SIGINT, bit 2
// SIGTERM) and the signal received.
volatile std::sig_atomic_t gDeferring = 0;
volatile std::sig_atomic_t gDeferred = 0;
volatile std::sig_atomic_t gReceived = 0;

std::sig_atomic_t kindBit(int sig) { return sig == SIGINT ? 1 : 2; }

/// Removes the tree `name` in `dirFd`, depth first, with a buffer per level on the stack (at most
/// kMaxDepth levels: the trees removed here, gen's suites, have three).
void removeTree(int dirFd, const char *name, int depth) {
  constexpr int kMaxDepth = 6;
  if (::unlinkat(dirFd, name, 0) == 0 || depth > kMaxDepth)
    return;
  const int fd = ::openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return;
  alignas(8) char buf[2048];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0)
      break;
    for (long off = 0; off < n;) {
      struct Entry {
        std::uint64_t ino;
        std::int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[1];
      };
      const auto *e = reinterpret_cast<const Entry *>(buf + off);
      off += e->reclen;
      const char *child = buf + (off - e->reclen) + offsetof(Entry, name);
      if (std::strcmp(child, ".") == 0 || std::strcmp(child, "..") == 0)
        continue;
      removeTree(fd, child, depth + 1);
    }
  }
  ::close(fd);
  ::unlinkat(dirFd, name, AT_REMOVEDIR);
}

extern "C" void onSignal(int sig) {
  if (gDeferring && !(gDeferred & kindBit(sig))) {
    gDeferred = gDeferred | kindBit(sig);
    gReceived = sig;
    return; // the command stops by itself
  }
  runCleanup();
  std::signal(sig, SIG_DFL);
  ::raise(sig); // the conventional status: killed by this signal
}

/// Installs onSignal for `sig`, without SA_RESTART: a blocking call returns EINTR.
void install(int sig, struct sigaction *old) {
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  ::sigaction(sig, &sa, old);
}

/// For a registration: onSignal where the disposition is the default.
void installHandlers() {
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL)
      continue; // ours already, ignored (a background job) or handled by the command itself
    install(sig, nullptr);
  }
}

bool anyRegistered() {
  for (const Slot &s : gSlots)
    if (s.used.load(std::memory_order_acquire))
      return true;
  return false;
}

/// The disposition before a SignalsDeferred, put back; the default stays onSignal while a path is
/// registered, so that a signal still removes it.
void restore(int sig, const struct sigaction &old) {
  if (old.sa_handler == SIG_DFL && anyRegistered())
    install(sig, nullptr);
  else
    ::sigaction(sig, &old, nullptr);
}

} // namespace

void runCleanup() {
  for (Slot &s : gSlots) {
    if (!s.used.load(std::memory_order_acquire))
      continue;
    if (s.directory)
      removeTree(s.dirFd, s.name, 0);
    else
      ::unlinkat(s.dirFd, s.name, 0);
  }
}

CleanupOnSignal::CleanupOnSignal(int dirFd, const std::string &name, bool directory) {
  if (name.size() >= kNameMax)
    return; // not watched: longer than any name a temporary file is given here
  installHandlers();
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!gClaim[i].compare_exchange_strong(expected, true))
      continue;
    Slot &s = gSlots[i];
    s.dirFd = dirFd;
    s.directory = directory;
    std::memcpy(s.name, name.c_str(), name.size() + 1);
    s.used.store(true, std::memory_order_release);
    slot_ = i;
    return;
  }
}

void CleanupOnSignal::release() {
  if (slot_ < 0)
    return;
  gSlots[slot_].used.store(false, std::memory_order_release);
  gClaim[slot_].store(false);
  slot_ = -1;
}

CleanupOnSignal::~CleanupOnSignal() { release(); }

DirectoryCleanupOnSignal::DirectoryCleanupOnSignal(const std::string &path) {
  std::string parent = ".", name = path;
  while (name.size() > 1 && name.back() == '/')
    name.pop_back();
  if (const auto slash = name.rfind('/'); slash != std::string::npos) {
    parent = slash == 0 ? "/" : name.substr(0, slash);
    name = name.substr(slash + 1);
  }
  parentFd_ = ::open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (parentFd_ >= 0)
    entry_ = std::make_unique<CleanupOnSignal>(parentFd_, name, true);
}

void DirectoryCleanupOnSignal::release() {
  entry_.reset();
  if (parentFd_ >= 0)
    ::close(parentFd_);
  parentFd_ = -1;
}

DirectoryCleanupOnSignal::~DirectoryCleanupOnSignal() { release(); }

SignalsDeferred::SignalsDeferred() {
  gDeferred = 0;
  gReceived = 0;
  gDeferring = 1;
  install(SIGINT, &oldInt_);
  install(SIGTERM, &oldTerm_);
}

SignalsDeferred::~SignalsDeferred() {
  gDeferring = 0;
  restore(SIGINT, oldInt_);
  restore(SIGTERM, oldTerm_);
}

int SignalsDeferred::received() { return gReceived; }

SignalsHeld::SignalsHeld() {
  static_assert(sizeof(sigset_t) <= sizeof(saved_));
  sigset_t held;
  sigemptyset(&held);
  sigaddset(&held, SIGINT);
  sigaddset(&held, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &held, reinterpret_cast<sigset_t *>(saved_));
}

SignalsHeld::~SignalsHeld() {
  pthread_sigmask(SIG_SETMASK, reinterpret_cast<const sigset_t *>(saved_), nullptr);
}

} // namespace lo::system
