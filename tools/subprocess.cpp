#include "subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace coheriq::tool {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// Splits what arrived on stdout into lines; a partial line waits for the next chunk.
class LineSplitter {
 public:
  explicit LineSplitter(const std::function<void(const std::string&)>& on_line)
      : on_line_(on_line) {}
  void feed(const char* data, std::size_t size) {
    pending_.append(data, size);
    std::size_t start = 0;
    for (std::size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1) {
      on_line_(pending_.substr(start, nl - start));
    }
    pending_.erase(0, start);
  }
  void finish() {
    if (!pending_.empty()) on_line_(pending_);
    pending_.clear();
  }

 private:
  const std::function<void(const std::string&)>& on_line_;
  std::string pending_;
};

// The signal received (0: none) and the child it is forwarded to (0: none running). Touched by
// the handler: lock-free atomics only.
std::atomic<int> received_signal{0};
std::atomic<pid_t> running_child{0};

void on_interrupt(int signal) {
  received_signal.store(signal);
  const pid_t child = running_child.load();
  if (child > 0) kill(child, signal);
}

// After an interrupt the signal is forwarded again every kResendInterval while the child runs,
// and a child still running kGracePeriod after the first forward gets SIGKILL: a child that
// ignores the signal (or whose signal was lost on the way) cannot keep the command waiting.
constexpr auto kResendInterval = std::chrono::milliseconds(250);
constexpr auto kGracePeriod = std::chrono::seconds(5);

// The timeout of each wait for the child: none (-1) until an interrupt arrives; then short, each
// wait forwarding the signal again or, past the grace period, killing the child.
class ChildWatch {
 public:
  explicit ChildWatch(pid_t pid) : pid_(pid) {}
  int poll_timeout_ms() {
    const int signal = received_signal.load();
    if (signal == 0) return -1;
    const auto now = std::chrono::steady_clock::now();
    if (!interrupted_) {
      interrupted_ = true;
      first_forward_ = last_forward_ = now;  // the handler (or run_child) forwarded it once
    } else if (now - first_forward_ >= kGracePeriod) {
      kill(pid_, SIGKILL);
    } else if (now - last_forward_ >= kResendInterval) {
      kill(pid_, signal);
      last_forward_ = now;
    }
    return static_cast<int>(kResendInterval.count());
  }

 private:
  pid_t pid_;
  bool interrupted_ = false;
  std::chrono::steady_clock::time_point first_forward_, last_forward_;
};

}  // namespace

Interrupted::Interrupted(int signal_)
    : std::runtime_error(std::string("interrupted by ") + (signal_ == SIGINT    ? "SIGINT"
                                                           : signal_ == SIGTERM ? "SIGTERM"
                                                           : signal_ == SIGHUP  ? "SIGHUP"
                                                                                : "a signal")),
      signal(signal_) {}

void catch_interrupts() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked poll returns EINTR
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

void throw_if_interrupted() {
  if (const int signal = received_signal.load(); signal != 0) throw Interrupted(signal);
}

void die_by(int signal) {
  std::signal(signal, SIG_DFL);
  std::raise(signal);
  _exit(128 + signal);  // not reached: the default action of these signals ends the process
}

ChildResult run_child(const std::vector<std::string>& argv,
                      const std::vector<std::pair<std::string, std::string>>& env,
                      const std::function<void(const std::string&)>& on_line) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw_errno("pipe");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw_errno("pipe");
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  throw_if_interrupted();
  const pid_t pid = fork();
  if (pid < 0) throw_errno("fork");
  if (pid == 0) {
    // The child: the tool is single-threaded, so setenv between fork and exec is safe. exec
    // restores the default action of the signals this process catches.
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  running_child.store(pid);
  // A signal that came between the check above and now was not forwarded: forward it.
  if (const int signal = received_signal.load(); signal != 0) kill(pid, signal);
  close(out_pipe[1]);
  close(err_pipe[1]);

  ChildResult result;
  LineSplitter lines(on_line);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char chunk[4096];
  ChildWatch watch(pid);
  while (open_fds > 0) {
    if (poll(fds, 2, watch.poll_timeout_ms()) < 0) {
      if (errno == EINTR) continue;
      throw_errno("poll");
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
      if (got > 0) {
        const auto size = static_cast<std::size_t>(got);
        if (i == 0) {
          lines.feed(chunk, size);
        } else {
          result.stderr_text.append(chunk, size);
        }
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  lines.finish();

  // The child closed its pipes; once interrupted, it is waited for under the same watch.
  int status = 0;
  for (;;) {
    const int timeout = watch.poll_timeout_ms();
    const pid_t done = waitpid(pid, &status, timeout < 0 ? 0 : WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw_errno("waitpid");
    if (done == 0) poll(nullptr, 0, timeout);
  }
  running_child.store(0);
  throw_if_interrupted();
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string executable_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/coheriq-bench-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw_errno("cannot create a directory " + pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace coheriq::tool
