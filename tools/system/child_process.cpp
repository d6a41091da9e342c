#include "tools/system/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <unistd.h>

namespace lo::system {

Pipe::Pipe() {
  if (::pipe2(fd, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
}

Pipe::~Pipe() {
  closeRead();
  closeWrite();
}

void Pipe::closeRead() {
  if (fd[0] >= 0)
    ::close(fd[0]);
  fd[0] = -1;
}

void Pipe::closeWrite() {
  if (fd[1] >= 0)
    ::close(fd[1]);
  fd[1] = -1;
}

bool drain(int fd, std::string &into, std::size_t max) {
  char buffer[65536];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n < 0)
    return errno == EINTR || errno == EAGAIN;
  if (n == 0)
    return false;
  const std::size_t room = into.size() < max ? max - into.size() : 0;
  into.append(buffer, std::min(room, static_cast<std::size_t>(n)));
  return true;
}

int spawn(const std::vector<std::string> &argv, int in, int out, int err, pid_t &pid) {
  // posix_spawnp, not fork and exec: the parent may be a large (sanitized) process whose page
  // tables a fork would copy only for the exec to drop them; glibc's posix_spawnp shares them
  // until the exec (vfork semantics) and returns an exec's errno itself.
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  if (int e = ::posix_spawn_file_actions_init(&actions))
    throw std::runtime_error(std::string("posix_spawn: ") + std::strerror(e));
  if (int e = ::posix_spawnattr_init(&attributes)) {
    ::posix_spawn_file_actions_destroy(&actions);
    throw std::runtime_error(std::string("posix_spawn: ") + std::strerror(e));
  }
  const int standard[] = {in, out, err};
  for (int target = 0; target < 3; ++target) {
    if (standard[target] < 0)
      ::posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0);
    else
      ::posix_spawn_file_actions_adddup2(&actions, standard[target], target);
  }
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM})
    sigaddset(&defaults, sig);
  ::posix_spawnattr_setsigdefault(&attributes, &defaults);
  ::posix_spawnattr_setpgroup(&attributes, 0); // a process group of its own
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  const int execErrno =
      ::posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), ::environ);
  ::posix_spawnattr_destroy(&attributes);
  ::posix_spawn_file_actions_destroy(&actions);
  return execErrno;
}

} // namespace lo::system
