// Running a child process with extra environment variables, reading its stdout line by line
// as it runs (progress) and keeping its stderr for the error message if it fails.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace coheriq::tool {

struct ChildResult {
  int exit_code = 0;        // the child's exit status, or 128 + signal when a signal killed it
  std::string stderr_text;  // everything the child wrote to stderr
};

// Runs `argv[0]` with `argv` and the current environment plus `env` (overriding), calling
// `on_line` with each line the child writes to stdout. Throws std::runtime_error when the
// child cannot be started.
ChildResult run_child(const std::vector<std::string>& argv,
                      const std::vector<std::pair<std::string, std::string>>& env,
                      const std::function<void(const std::string&)>& on_line);

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
