// Plugin discovery: the manifests on COHERIQ_ENGINE_PATH and in the install prefix, read safely
// (regular files of bounded size, nothing world-writable) and parsed. Nothing is loaded here.
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/core.hpp"
#include "core/plugin.hpp"

#ifndef COHERIQ_ENGINE_DIR
#define COHERIQ_ENGINE_DIR ""
#endif
#ifndef COHERIQ_ENGINE_DIR_FROM_BINDIR
#define COHERIQ_INSTALL_BINDIR ""
#define COHERIQ_INSTALL_LIBDIR ""
#define COHERIQ_ENGINE_DIR_FROM_BINDIR ""
#define COHERIQ_ENGINE_DIR_FROM_LIBDIR ""
#endif

namespace coheriq::detail {
namespace {

constexpr std::string_view manifest_suffix = ".coheriq-engine";
constexpr std::size_t max_manifest_bytes = 64 * 1024;  // a manifest is a dozen short lines

// Reads the manifest at `path` into `text`; returns why it was refused, or empty. Only a regular
// file of at most max_manifest_bytes is read: the type is checked before opening (opening a FIFO
// for reading blocks until a writer comes), the file is opened non-blocking in case it was
// replaced in between, and checked again on the open descriptor.
std::string read_manifest(const std::string& path, std::string& text, bool& world_writable) {
  const auto not_regular = [](mode_t mode) {
    return std::string("is ") + file_kind(mode) +
           ", not a regular file; only regular files are read as manifests, remove it from the "
           "plugin directory";
  };
  const auto errno_text = [](const char* what) {
    return std::string(what) + ": " + std::strerror(errno) + "; check the file and its permissions";
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno_text("cannot read it");
  if (!S_ISREG(st.st_mode)) return not_regular(st.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return errno_text("cannot open it");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) return errno_text("cannot read it");
  if (!S_ISREG(st.st_mode)) return not_regular(st.st_mode);
  const auto too_big = [] {
    return "is larger than " + std::to_string(max_manifest_bytes) +
           " bytes, which no manifest is; remove it from the plugin directory";
  };
  if (st.st_size > static_cast<off_t>(max_manifest_bytes)) return too_big();
  std::string buffer(max_manifest_bytes + 1, '\0');
  std::size_t got = 0;
  while (got < buffer.size()) {  // the file may grow after fstat: read one byte past the bound
    const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_text("cannot read it");
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_manifest_bytes) return too_big();
  buffer.resize(got);
  world_writable = (st.st_mode & S_IWOTH) != 0;
  text = std::move(buffer);
  return "";
}

// The file of the executable or shared library this code is linked into (resolved), or empty.
std::string framework_binary() {
  static const char anchor = 0;  // any address inside the framework's binary
  Dl_info info{};
  link_map* map = nullptr;
  if (dladdr1(&anchor, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) == 0) return "";
  // The main program's link map has an empty name (dladdr would give argv[0], which may be
  // relative or a bare name found on PATH): the kernel knows its file.
  const char* file = map != nullptr && map->l_name != nullptr && map->l_name[0] != '\0'
                         ? map->l_name
                         : "/proc/self/exe";
  char* real = realpath(file, nullptr);
  if (real == nullptr) return "";
  std::string out = real;
  std::free(real);
  return out;
}

// `dir` with `relative` (a path of "../" steps, then names) appended, the steps taken lexically.
std::string descend(std::string dir, std::string_view relative) {
  while (relative.substr(0, 3) == "../") {
    dir = directory_of(dir);
    relative.remove_prefix(3);
  }
  return dir + "/" + std::string(relative);
}

// Whether `dir`'s last components are `tail` ("/usr/lib" ends in "lib", "/usr/glib" does not).
bool ends_in(std::string_view dir, std::string_view tail) {
  return dir.size() > tail.size() && dir.substr(dir.size() - tail.size()) == tail &&
         dir[dir.size() - tail.size() - 1] == '/';
}

// The installed engine directory: <prefix>/share/coheriq/engines of the installation this binary
// belongs to, when it sits in the install's bindir or libdir; else the configured directory (a
// build tree, or a binary installed elsewhere).
std::string installed_engine_dir() {
  const std::string binary = framework_binary();
  if (!binary.empty()) {
    const std::string dir = directory_of(binary);
    const std::pair<std::string_view, std::string_view> layouts[] = {
        {COHERIQ_INSTALL_BINDIR, COHERIQ_ENGINE_DIR_FROM_BINDIR},
        {COHERIQ_INSTALL_LIBDIR, COHERIQ_ENGINE_DIR_FROM_LIBDIR}};
    for (const auto& [installed_in, to_engines] : layouts) {
      if (!installed_in.empty() && !to_engines.empty() && ends_in(dir, installed_in)) {
        return descend(dir, to_engines);
      }
    }
  }
  return COHERIQ_ENGINE_DIR;
}

}  // namespace

const char* file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

std::vector<ManifestFile> find_manifests() {
  std::vector<std::string> dirs;
  if (const char* p = std::getenv("COHERIQ_ENGINE_PATH")) {
    std::string_view rest = p;
    while (true) {
      const std::size_t colon = rest.find(':');
      std::string_view dir = rest.substr(0, colon);
      while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);  // "dir/x", not "dir//x"
      if (!dir.empty()) dirs.emplace_back(dir);
      if (colon == std::string_view::npos) break;
      rest = rest.substr(colon + 1);
    }
  }
  if (std::string installed = installed_engine_dir(); !installed.empty()) {
    dirs.push_back(std::move(installed));
  }

  // The same directory or file reached twice (a path listed twice, `dir/` and `dir`, a symlink,
  // the default directory named explicitly) is read once: files are told apart by canonical path.
  std::vector<std::string> seen;
  const auto first_time = [&](const std::string& path) {
    char* real = realpath(path.c_str(), nullptr);
    const std::string key = real != nullptr ? std::string(real) : path;
    std::free(real);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return false;
    seen.push_back(key);
    return true;
  };
  std::vector<ManifestFile> out;
  for (const std::string& dir : dirs) {
    if (!first_time(dir)) continue;
    // Whoever can write a manifest chooses the code this process loads: a directory or manifest
    // that anyone may write is refused (even with the sticky bit: anyone could add a manifest).
    struct stat st {};
    const bool open_dir = ::stat(dir.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) != 0;
    DIR* d = opendir(dir.c_str());
    if (d == nullptr) continue;  // a missing directory on the path is not an error
    std::vector<std::string> files;
    while (const dirent* ent = readdir(d)) {
      const std::string_view n = ent->d_name;
      if (n.size() > manifest_suffix.size() &&
          n.substr(n.size() - manifest_suffix.size()) == manifest_suffix) {
        files.push_back(dir + "/" + std::string(n));
      }
    }
    closedir(d);
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
      if (!first_time(f)) continue;
      std::string text;
      bool open_file = false;
      if (std::string why = read_manifest(f, text, open_file); !why.empty()) {
        ManifestFile bad;
        bad.path = f;
        bad.error = "coheriq: plugin manifest " + shown_path(f) + ": " + why;
        out.push_back(std::move(bad));
        continue;
      }
      out.push_back(examine_manifest(f, text));
      if (open_dir || open_file) {
        const std::string& where = open_dir ? dir : f;
        out.back().error = "coheriq: plugin manifest " + shown_path(f) +
                           " is refused: " + (open_dir ? "its directory " : "the file ") +
                           shown_path(where) +
                           " is world-writable, so anyone could choose the code this process "
                           "loads; fix the mode (chmod o-w " +
                           shown_path(where) + ")";
      }
    }
  }
  return out;
}

}  // namespace coheriq::detail
