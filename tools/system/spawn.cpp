#include "tools/system/spawn.hpp"

#include "tools/system/child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace lo::system {

Result run(const std::vector<std::string> &argv, const Options &options) {
  const auto start = Clock::now();
  const auto deadline = std::min(options.deadline, deadlineAfter(options.timeout, start));
  Pipe err, out;
  pid_t pid = -1;
  const int execErrno = spawn(argv, -1, options.captureStdout ? out.fd[1] : -1, err.fd[1], pid);
  err.closeWrite();
  out.closeWrite();

  Result r;
  if (execErrno) {
    r.status = Result::Status::failedToStart;
    r.error = std::strerror(execErrno);
    return r;
  }

  Stop stop = Stop::no;
  int status = 0;
  bool reaped = false;
  // One byte more than allowed on standard output, to tell a full output from a cut one.
  const std::size_t maxStdout = options.maxStdout + 1;
  auto limit = [&](int fd) { return fd == err.fd[0] ? options.maxCapture : maxStdout; };
  std::vector<pollfd> fds;
  if (options.captureStdout)
    fds.push_back({out.fd[0], POLLIN, 0});
  fds.push_back({err.fd[0], POLLIN, 0});
  std::size_t open = fds.size();
  while (!reaped && (stop = stopBefore(deadline)) == Stop::no) {
    if (open > 0) {
      // Wake up now and then to notice a child that exited while a grandchild keeps a pipe open.
      const int wait = waitMs(deadline, 50);
      if (::poll(fds.data(), fds.size(), wait) < 0 && errno != EINTR)
        break;
      for (auto &p : fds) {
        if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
          continue;
        std::string &into = p.fd == err.fd[0] ? r.standardError : r.standardOutput;
        if (!drain(p.fd, into, limit(p.fd))) {
          p.fd = -1; // poll ignores negative descriptors
          --open;
        }
      }
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    reaped = ::waitpid(pid, &status, WNOHANG) == pid;
  }
  ::kill(-pid, SIGKILL); // the implementation and anything it left behind
  if (!reaped)
    ::waitpid(pid, &status, 0);
  for (auto &p : fds) // what was written before the exit
    if (p.fd >= 0) {
      ::fcntl(p.fd, F_SETFL, O_NONBLOCK);
      std::string &into = p.fd == err.fd[0] ? r.standardError : r.standardOutput;
      char buffer[65536];
      for (ssize_t n; (n = ::read(p.fd, buffer, sizeof buffer)) > 0;)
        into.append(buffer, std::min(static_cast<std::size_t>(n), into.size() < limit(p.fd)
                                                                      ? limit(p.fd) - into.size()
                                                                      : std::size_t{0}));
    }
  if (r.standardOutput.size() > options.maxStdout) {
    r.standardOutput.resize(options.maxStdout);
    r.stdoutTruncated = true;
  }
  r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  if (stop == Stop::interrupted) {
    r.status = Result::Status::interrupted;
  } else if (stop == Stop::timedOut) {
    r.status = Result::Status::timedOut;
  } else if (WIFSIGNALED(status)) {
    r.status = Result::Status::signaled;
    r.code = WTERMSIG(status);
  } else {
    r.status = Result::Status::exited;
    r.code = WEXITSTATUS(status);
  }
  if (r.standardError.size() >= options.maxCapture)
    r.standardError += "...";
  return r;
}

std::string describe(const Result &r, std::chrono::milliseconds timeout) {
  switch (r.status) {
  case Result::Status::exited: return "exited with status " + std::to_string(r.code);
  case Result::Status::signaled:
    return "was killed by signal " + std::to_string(r.code) + " (" + ::strsignal(r.code) + ")";
  case Result::Status::timedOut:
    return "timed out after " + std::to_string(timeout.count()) + " ms";
  case Result::Status::failedToStart: return "could not start: " + r.error;
  case Result::Status::interrupted: return "was stopped by an interrupt";
  }
  return "";
}

ForkResult runForked(const std::function<std::string()> &work, Clock::time_point deadline,
                     std::size_t maxAnswer) {
  Pipe answer;
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    answer.closeRead();
    std::string text;
    char tag = 'A';
    try {
      text = work();
    } catch (const std::exception &e) {
      tag = 'F';
      text = e.what();
    }
    bool ok = ::write(answer.fd[1], &tag, 1) == 1;
    for (std::size_t at = 0; ok && at < text.size();) {
      const ssize_t n = ::write(answer.fd[1], text.data() + at, text.size() - at);
      ok = n > 0 || (n < 0 && errno == EINTR);
      at += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    ::_exit(ok ? 0 : 1); // no atexit handlers, no flushing of the parent's buffers
  }
  answer.closeWrite();
  ForkResult r;
  std::string text;
  bool open = true;
  Stop stop = Stop::no;
  pollfd p{answer.fd[0], POLLIN, 0};
  while (open && (stop = stopBefore(deadline)) == Stop::no) {
    if (::poll(&p, 1, waitMs(deadline, 50)) > 0)
      open = drain(p.fd, text, maxAnswer + 1);
  }
  if (open)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (stop == Stop::interrupted)
    r.status = ForkResult::Status::interrupted;
  else if (stop == Stop::timedOut)
    r.status = ForkResult::Status::timedOut;
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty() ||
           text.size() > maxAnswer)
    r.status = ForkResult::Status::crashed;
  else {
    r.status = text[0] == 'A' ? ForkResult::Status::answered : ForkResult::Status::failed;
    r.answer = text.substr(1);
  }
  return r;
}

} // namespace lo::system
