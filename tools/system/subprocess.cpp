#include "tools/system/subprocess.hpp"

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
#include <utility>

namespace lo::subprocess {

std::vector<std::string> splitCommand(std::string_view command) {
  std::vector<std::string> out;
  std::string word;
  bool inWord = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord)
        out.push_back(std::move(word));
      word.clear();
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '\'') {
      const std::size_t end = command.find('\'', i + 1);
      if (end == std::string_view::npos)
        throw std::invalid_argument("unterminated ' in the command");
      word.append(command.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i >= command.size())
          throw std::invalid_argument("unterminated \" in the command");
        if (command[i] == '"')
          break;
        if (command[i] == '\\' && i + 1 < command.size() &&
            (command[i + 1] == '"' || command[i + 1] == '\\'))
          ++i;
        word.push_back(command[i]);
      }
    } else if (c == '\\' && i + 1 < command.size()) {
      word.push_back(command[++i]);
    } else {
      word.push_back(c);
    }
  }
  if (inWord)
    out.push_back(std::move(word));
  if (out.empty())
    throw std::invalid_argument("the command is empty");
  return out;
}

std::vector<std::string> substitute(const std::vector<std::string> &argv,
                                    const std::map<std::string, std::string> &values) {
  std::vector<std::string> out;
  out.reserve(argv.size());
  for (const std::string &arg : argv) {
    std::string result;
    for (std::size_t i = 0; i < arg.size();) {
      bool replaced = false;
      if (arg[i] == '{') {
        const std::size_t close = arg.find('}', i);
        if (close != std::string::npos) {
          const auto it = values.find(arg.substr(i + 1, close - i - 1));
          if (it != values.end()) {
            result += it->second; // inserted as data: never scanned again
            i = close + 1;
            replaced = true;
          }
        }
      }
      if (!replaced)
        result.push_back(arg[i++]);
    }
    out.push_back(std::move(result));
  }
  return out;
}

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

namespace {

volatile std::sig_atomic_t gSignal = 0;
struct sigaction gOldInt, gOldTerm, gOldPipe;

extern "C" void onInterrupt(int signal) { gSignal = signal; }

/// Milliseconds until `deadline`, at most `cap`, at least 0.
int waitMs(Clock::time_point deadline, int cap) {
  const auto now = Clock::now();
  if (deadline <= now)
    return 0;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
  return static_cast<int>(std::min<long long>(left.count() + 1, cap));
}

/// Why a wait stops before what it waits for: an interrupt (InterruptGuard) or the deadline.
enum class Stop { no, interrupted, timedOut };

Stop stopBefore(Clock::time_point deadline);

/// In a child, before exec: the dispositions a program expects.
void resetSignalsInChild() {
  ::signal(SIGPIPE, SIG_DFL);
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
}

} // namespace

InterruptGuard::InterruptGuard() {
  gSignal = 0;
  struct sigaction a {};
  a.sa_handler = onInterrupt;
  sigemptyset(&a.sa_mask);
  a.sa_flags = SA_RESETHAND; // no SA_RESTART: a blocking call returns EINTR
  ::sigaction(SIGINT, &a, &gOldInt);
  ::sigaction(SIGTERM, &a, &gOldTerm);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &gOldPipe);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &gOldInt, nullptr);
  ::sigaction(SIGTERM, &gOldTerm, nullptr);
  ::sigaction(SIGPIPE, &gOldPipe, nullptr);
}

int InterruptGuard::received() { return gSignal; }

namespace {

Stop stopBefore(Clock::time_point deadline) {
  if (InterruptGuard::received())
    return Stop::interrupted;
  return Clock::now() >= deadline ? Stop::timedOut : Stop::no;
}

} // namespace

namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (::pipe2(fd, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  ~Pipe() {
    closeRead();
    closeWrite();
  }
  void closeRead() {
    if (fd[0] >= 0)
      ::close(fd[0]);
    fd[0] = -1;
  }
  void closeWrite() {
    if (fd[1] >= 0)
      ::close(fd[1]);
    fd[1] = -1;
  }
};

/// Appends what can be read now; false at end of file.
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

/// Starts `argv` in a process group of its own, with `in`, `out` and `err` as its standard input,
/// output and error (-1: /dev/null). Returns 0 with the child's id in `pid`, or the errno of an
/// exec that failed (the child then reaped).
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

} // namespace

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

// --- Worker ---------------------------------------------------------------------------------

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

} // namespace lo::subprocess
