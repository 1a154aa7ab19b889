// Running a child process with extra environment variables, reading its stdout line by line
// as it runs (progress) and keeping its stderr for the error message if it fails.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace coheriq::tool {

struct ChildResult {
  int exit_code = 0;        // the child's exit status, or 128 + signal when a signal killed it
  std::string stderr_text;  // everything the child wrote to stderr
};

// Runs `argv[0]` (searched in PATH when it has no '/') with `argv` and the current environment
// plus `env` (overriding), calling `on_line` with each line the child writes to stdout. Throws
// std::runtime_error when the child cannot be started, and Interrupted when a signal of
// catch_interrupts() arrived (the child, sent the same signal, has ended by then).
ChildResult run_child(const std::vector<std::string>& argv,
                      const std::vector<std::pair<std::string, std::string>>& env,
                      const std::function<void(const std::string&)>& on_line);

// SIGINT, SIGTERM or SIGHUP received while catch_interrupts() is in effect: thrown so that the
// stack unwinds (temporary files go) before the command ends by the same signal.
struct Interrupted : std::runtime_error {
  explicit Interrupted(int signal_);
  int signal;
};

// From now on SIGINT, SIGTERM and SIGHUP are recorded and forwarded to the running child
// instead of killing this process at once; run_child throws Interrupted after it.
void catch_interrupts();
// Throws Interrupted if one of those signals has arrived.
void throw_if_interrupted();
// Ends the process by `signal` with its default action (so a caller sees how it ended).
[[noreturn]] void die_by(int signal);

// The directory holding this executable (from /proc/self/exe), or "" when unknown.
std::string executable_dir();

// A new private directory under $TMPDIR (or /tmp), removed with everything in it on
// destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace coheriq::tool
