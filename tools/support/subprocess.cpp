#include "tools/support/subprocess.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

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

} // namespace

Result run(const std::vector<std::string> &argv, const Options &options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto deadline = start + options.timeout;
  Pipe err, out, exec; // exec: reports an execvp failure (closed by a successful exec)
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid < 0)
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    const int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(devnull, 0);
    ::dup2(options.captureStdout ? out.fd[1] : devnull, 1);
    ::dup2(err.fd[1], 2);
    ::execvp(args[0], args.data());
    const int e = errno;
    [[maybe_unused]] ssize_t w = ::write(exec.fd[1], &e, sizeof e);
    ::_exit(127);
  }
  ::setpgid(pid, pid); // also from the parent, so that the group exists before any kill
  err.closeWrite();
  out.closeWrite();
  exec.closeWrite();

  Result r;
  int execErrno = 0;
  if (::read(exec.fd[0], &execErrno, sizeof execErrno) == sizeof execErrno) {
    ::waitpid(pid, nullptr, 0);
    r.status = Result::Status::failedToStart;
    r.error = std::strerror(execErrno);
    return r;
  }

  bool timedOut = false;
  int status = 0;
  bool reaped = false;
  std::vector<pollfd> fds;
  if (options.captureStdout)
    fds.push_back({out.fd[0], POLLIN, 0});
  fds.push_back({err.fd[0], POLLIN, 0});
  std::size_t open = fds.size();
  while (!reaped) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      timedOut = true;
      break;
    }
    if (open > 0) {
      // Wake up now and then to notice a child that exited while a grandchild keeps a pipe open.
      const int wait = static_cast<int>(std::min<long long>(left.count(), 50));
      if (::poll(fds.data(), fds.size(), wait) < 0 && errno != EINTR)
        break;
      for (auto &p : fds) {
        if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
          continue;
        std::string &into = p.fd == err.fd[0] ? r.standardError : r.standardOutput;
        if (!drain(p.fd, into, options.maxCapture)) {
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
        into.append(buffer,
                    std::min(static_cast<std::size_t>(n), into.size() < options.maxCapture
                                                              ? options.maxCapture - into.size()
                                                              : std::size_t{0}));
    }
  r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  if (timedOut) {
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
  }
  return "";
}

} // namespace lo::subprocess
