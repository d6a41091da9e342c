#include "tools/system/worker.hpp"

#include "tools/system/child_process.hpp"
#include "tools/system/interrupt.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace lo::system {

Worker::Worker(std::vector<std::string> argv, std::size_t maxLine, std::size_t maxStderr)
    : argv_(std::move(argv)), maxLine_(maxLine), maxStderr_(maxStderr) {}

Worker::~Worker() { stop(); }

bool Worker::start(std::string &error) {
  Pipe in, out, err;
  pid_t pid = -1;
  if (const int execErrno = spawn(argv_, in.fd[0], out.fd[1], err.fd[1], pid)) {
    error = std::strerror(execErrno);
    return false;
  }
  ++starts_;
  pid_ = pid;
  in_ = std::exchange(in.fd[1], -1);
  out_ = std::exchange(out.fd[0], -1);
  err_ = std::exchange(err.fd[0], -1);
  for (int fd : {in_, out_, err_})
    ::fcntl(fd, F_SETFL, O_NONBLOCK);
  pending_.clear();
  outClosed_ = false;
  return true;
}

void Worker::stop() {
  if (pid_ < 0)
    return;
  ::kill(-pid_, SIGKILL);
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  for (int *fd : {&in_, &out_, &err_})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
  pid_ = -1;
}

/// Waits up to `timeoutMs` for the worker's output (and, with `wantWrite`, room on its input),
/// and reads what is there: standard output into pending_, standard error into stderr_.
void Worker::pump(int timeoutMs, bool wantWrite, bool &writable) {
  pollfd fds[3] = {{out_, static_cast<short>(outClosed_ ? 0 : POLLIN), 0},
                   {err_, static_cast<short>(err_ >= 0 ? POLLIN : 0), 0},
                   {wantWrite ? in_ : -1, POLLOUT, 0}};
  writable = false;
  if (::poll(fds, 3, timeoutMs) <= 0)
    return;
  if (!outClosed_ && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
    outClosed_ = !drain(out_, pending_, maxLine_ + 2);
  if (err_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
    if (!drain(err_, stderr_, maxStderr_)) {
      ::close(err_);
      err_ = -1;
    }
  writable = wantWrite && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP));
}

Worker::Reply Worker::exchange(std::string_view request, Clock::time_point deadline) {
  Reply r;
  stderr_.clear();
  if (pid_ < 0 && !start(r.error)) {
    r.status = Reply::Status::failedToStart;
    return r;
  }
  using S = Reply::Status;
  auto finish = [&](S status) {
    r.status = status;
    if (err_ >= 0) { // what it wrote to standard error so far
      std::string more;
      drain(err_, more, maxStderr_);
      stderr_ += more.substr(0, maxStderr_ > stderr_.size() ? maxStderr_ - stderr_.size() : 0);
    }
    if (status != S::answered) {
      // Anything but an answer: the worker is stopped; an exit status is kept when it exited.
      int wstatus = 0;
      bool exited = false;
      if (status == S::exited) {
        // It closed its standard output: give it a moment to exit by itself.
        for (int i = 0; i < 40 && !exited; ++i) {
          exited = ::waitpid(pid_, &wstatus, WNOHANG) == pid_;
          if (!exited)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      }
      ::kill(-pid_, SIGKILL);
      if (!exited)
        while (::waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
        }
      if (status == S::exited && exited && WIFSIGNALED(wstatus)) {
        r.status = S::signaled;
        r.code = WTERMSIG(wstatus);
      } else if (status == S::exited) {
        r.code = exited && WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
      }
      pid_ = -1; // already reaped
      for (int *fd : {&in_, &out_, &err_})
        if (*fd >= 0) {
          ::close(*fd);
          *fd = -1;
        }
    }
    r.standardError = stderr_;
    if (r.standardError.size() >= maxStderr_)
      r.standardError += "...";
    return r;
  };

  std::string line(request);
  line.push_back('\n');
  std::size_t written = 0;
  while (true) {
    if (InterruptGuard::received())
      return finish(S::interrupted);
    const std::size_t newline = pending_.find('\n');
    if (newline != std::string::npos) {
      if (newline > maxLine_)
        return finish(S::tooLong);
      r.line = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      return finish(S::answered);
    }
    if (pending_.size() > maxLine_)
      return finish(S::tooLong);
    if (outClosed_)
      return finish(S::exited);
    if (Clock::now() >= deadline)
      return finish(S::timedOut);
    bool writable = false;
    pump(waitMs(deadline, 50), written < line.size(), writable);
    if (writable) {
      const ssize_t n = ::write(in_, line.data() + written, line.size() - written);
      if (n > 0)
        written += static_cast<std::size_t>(n);
      else if (n < 0 && errno != EAGAIN && errno != EINTR)
        written = line.size(); // EPIPE: it is gone; its closed output says how
    }
  }
}

std::string describe(const Worker::Reply &r, std::chrono::milliseconds timeout) {
  using S = Worker::Reply::Status;
  switch (r.status) {
  case S::answered: return "answered";
  case S::exited:
    return r.code >= 0 ? "exited with status " + std::to_string(r.code) + " without answering"
                       : "closed its standard output without answering";
  case S::signaled:
    return "was killed by signal " + std::to_string(r.code) + " (" + ::strsignal(r.code) + ")";
  case S::timedOut: return "timed out after " + std::to_string(timeout.count()) + " ms";
  case S::tooLong: return "answered with a line longer than the cap";
  case S::failedToStart: return "could not start: " + r.error;
  case S::interrupted: return "was stopped by an interrupt";
  }
  return "";
}

} // namespace lo::system
