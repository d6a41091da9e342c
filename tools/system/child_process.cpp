#include "tools/system/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace lo::subprocess {

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

namespace {

/// In a child, before exec: the dispositions a program expects.
void resetSignalsInChild() {
  ::signal(SIGPIPE, SIG_DFL);
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
}

} // namespace

int spawn(const std::vector<std::string> &argv, int in, int out, int err, pid_t &pid) {
  Pipe exec; // reports an execvp failure (closed by a successful exec)
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    resetSignalsInChild();
    const int devnull = in < 0 || out < 0 || err < 0 ? ::open("/dev/null", O_RDWR) : -1;
    ::dup2(in < 0 ? devnull : in, 0);
    ::dup2(out < 0 ? devnull : out, 1);
    ::dup2(err < 0 ? devnull : err, 2);
    ::execvp(args[0], args.data());
    const int e = errno;
    [[maybe_unused]] ssize_t w = ::write(exec.fd[1], &e, sizeof e);
    ::_exit(127);
  }
  ::setpgid(pid, pid); // also from the parent, so that the group exists before any kill
  exec.closeWrite();
  int execErrno = 0;
  if (::read(exec.fd[0], &execErrno, sizeof execErrno) == sizeof execErrno) {
    ::waitpid(pid, nullptr, 0);
    return execErrno;
  }
  return 0;
}

} // namespace lo::subprocess
