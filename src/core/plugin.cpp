// Plugin engines: manifest parsing, discovery and loading.
#include "core/plugin.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/core.hpp"
#include "core/env.hpp"

#include <link.h>

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

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A path as it appears in messages: escaped, and bounded a little above PATH_MAX.
std::string shown(std::string_view path) { return printable(path, 4200); }

[[noreturn]] void fail(std::string_view path, std::size_t line, const std::string& what) {
  throw PluginError("coheriq: plugin manifest " + shown(path) + ":" + std::to_string(line) + ": " +
                    what);
}

// Manifests are UTF-8 text: a line holding a control byte (other than a tab), DEL, or bytes that
// are not UTF-8 is refused rather than kept, so that no such value reaches a listing or a message.
bool is_text(std::string_view line) {
  std::string untabbed(line);
  std::replace(untabbed.begin(), untabbed.end(), '\t', ' ');
  std::string expected;  // what printable() makes of clean text: backslashes doubled
  for (char c : untabbed) {
    if (c == '\\') expected += '\\';
    expected += c;
  }
  return printable(untabbed, untabbed.size()) == expected;
}

std::string directory_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string(".") : std::string(path.substr(0, slash));
}

// A decimal number of at most max; false when `text` is anything else.
bool parse_number(std::string_view text, std::size_t max, std::size_t& out) {
  if (text.empty() || text.size() > 20) return false;
  std::size_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const auto digit = static_cast<std::size_t>(c - '0');
    if (v > (max - digit) / 10) return false;
    v = v * 10 + digit;
  }
  out = v;
  return true;
}

// `vendor=V, family=F|F..., min_vector_bits=N, min_l1d=N, min_l2=N`, each item optional. Returns
// the error, or empty.
std::string parse_host(std::string_view value, HostRequirements& host) {
  constexpr std::string_view items = "vendor, family, min_vector_bits, min_l1d, min_l2";
  constexpr std::size_t max_size = std::size_t{1} << 40;
  std::vector<std::string> seen;
  std::string_view rest = value;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || trim(item.substr(0, eq)).empty() ||
        trim(item.substr(eq + 1)).empty()) {
      return "item '" + printable(item) + "' is not 'name=value'; items are " + std::string(items) +
             ", separated by ','";
    }
    const std::string key(trim(item.substr(0, eq)));
    const std::string_view v = trim(item.substr(eq + 1));
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return "item '" + printable(key) + "' appears twice";
    }
    seen.push_back(key);
    const auto number = [&](std::size_t& out) {
      if (parse_number(v, max_size, out)) return std::string();
      return key + " must be a decimal number (bits or bytes), got '" + printable(v) + "'";
    };
    std::string error;
    if (key == "vendor") {
      host.vendor = v;
    } else if (key == "family") {
      std::string_view families = v;
      while (error.empty()) {
        const std::size_t bar = families.find('|');
        std::size_t f = 0;
        if (!parse_number(trim(families.substr(0, bar)), 65535, f)) {
          error =
              "family must be numbers separated by '|' (e.g. 25|26), got '" + printable(v) + "'";
        }
        host.families.push_back(static_cast<int>(f));
        if (bar == std::string_view::npos) break;
        families = families.substr(bar + 1);
      }
    } else if (key == "min_vector_bits") {
      error = number(host.min_vector_bits);
    } else if (key == "min_l1d") {
      error = number(host.min_l1d_bytes);
    } else if (key == "min_l2") {
      error = number(host.min_l2_bytes);
    } else {
      error = "unknown item '" + printable(key) + "'; items are " + std::string(items);
    }
    if (!error.empty()) return error;
    if (comma == std::string_view::npos) return "";
    rest = rest.substr(comma + 1);
  }
}

}  // namespace

Manifest parse_manifest(std::string_view text, std::string_view path) {
  Manifest m;
  m.path = std::string(path);
  std::vector<std::string> seen;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(pos, end - pos));
    ++line_no;
    pos = end + 1;
    if (!is_text(line)) {
      fail(path, line_no,
           "the line holds a control byte or bytes that are not UTF-8 ('" + printable(line) +
               "'); a manifest is UTF-8 text, fix the line");
    }
    if (line.empty() || line.front() == '#') {
      if (end == text.size()) break;
      continue;
    }
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      fail(path, line_no, "expected 'key = value', got '" + printable(line) + "'");
    }
    const std::string key(trim(line.substr(0, eq)));
    const std::string_view value = trim(line.substr(eq + 1));
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      fail(path, line_no, "key '" + printable(key) + "' appears twice");
    }
    seen.push_back(key);
    if (value.empty()) fail(path, line_no, "key '" + printable(key) + "' has no value");
    const auto list = [&](std::string_view what) {
      try {
        return parse_engine_list(value, key);
      } catch (const Error& e) {
        fail(path, line_no, std::string(what) + ": " + std::string(e.what()).substr(9));
      }
    };
    if (key == "domain") {
      m.domain = value;
    } else if (key == "name") {
      if (list("name").size() != 1 || value == "auto" || value == "reference") {
        fail(path, line_no, "name must be one engine name (not 'auto' or 'reference')");
      }
      m.name = value;
    } else if (key == "bases") {
      m.bases = list("bases");
    } else if (key == "requires") {
      m.requires_features = list("requires");
      // A misspelt name would read as a feature every host lacks (`fma` for `fma3`).
      if (const auto unknown = unknown_feature_names(m.requires_features); !unknown.empty()) {
        fail(path, line_no,
             "requires " + printable(join(unknown)) +
                 ", which cpu_features does not know on this architecture; valid names: " +
                 join(known_feature_names()));
      }
    } else if (key == "host") {
      if (const std::string error = parse_host(value, m.host); !error.empty()) {
        fail(path, line_no, "host: " + error);
      }
    } else if (key == "priority") {
      const std::string v(value);
      char* endp = nullptr;
      const long p = std::strtol(v.c_str(), &endp, 10);
      if (endp == v.c_str() || *endp != '\0' || p < -1000000 || p > 1000000) {
        fail(path, line_no, "priority must be an integer, got '" + printable(v) + "'");
      }
      m.priority = static_cast<int>(p);
    } else if (key == "description") {
      m.description = value;
    } else if (key == "library") {
      m.library =
          value.front() == '/' ? std::string(value) : directory_of(path) + "/" + std::string(value);
    } else if (key == "abi") {
      m.abi = value;
    } else if (key == "overrides") {
      m.overrides = list("overrides");
    } else if (key == "layouts") {
      // Class=layout pairs separated by ';' (class names may contain commas in templates).
      std::string_view rest = value;
      while (!rest.empty()) {
        const std::size_t semi = rest.find(';');
        const std::string_view item = trim(rest.substr(0, semi));
        const std::size_t colon = item.find(':');
        if (colon == std::string_view::npos || trim(item.substr(0, colon)).empty() ||
            trim(item.substr(colon + 1)).empty()) {
          fail(path, line_no, "layouts are 'Class: layout-name' pairs separated by ';'");
        }
        m.layouts.emplace_back(trim(item.substr(0, colon)), trim(item.substr(colon + 1)));
        if (semi == std::string_view::npos) break;
        rest = rest.substr(semi + 1);
      }
    } else {
      fail(path, line_no,
           "unknown key '" + printable(key) +
               "'; keys are domain, name, bases, requires, host, priority, description, library, "
               "abi, overrides, layouts");
    }
    if (end == text.size()) break;
  }
  for (const char* required : {"domain", "name", "library", "abi"}) {
    if (std::find(seen.begin(), seen.end(), required) == seen.end()) {
      fail(path, line_no, std::string("missing required key '") + required + "'");
    }
  }
  return m;
}

namespace {

// The value of `key` in a manifest that may not parse: the trimmed value of its one line, or
// empty when it has none, or more than one.
std::string peek(std::string_view text, std::string_view key) {
  std::string found;
  int count = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    const std::size_t eq = line.find('=');
    if (!line.empty() && line.front() != '#' && eq != std::string_view::npos &&
        trim(line.substr(0, eq)) == key) {
      found = trim(line.substr(eq + 1));
      ++count;
    }
    if (end == text.size()) break;
  }
  return count == 1 ? found : std::string();
}

bool engine_name_like(std::string_view name) {
  if (name.empty() || name == "auto" || name == "reference") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

// A file that was read: parsed, or refused with what can still be read of it.
ManifestFile examine(const std::string& path, const std::string& text) {
  ManifestFile f;
  f.path = path;
  try {
    f.manifest = parse_manifest(text, path);
    f.domain = f.manifest.domain;
    f.name = f.manifest.name;
  } catch (const Error& e) {
    f.error = e.what();
    f.domain = peek(text, "domain");
    f.name = peek(text, "name");
    if (!engine_name_like(f.name)) f.name.clear();
  }
  return f;
}

const char* file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

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

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
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
      if (!installed_in.empty() && !to_engines.empty() &&
          ends_with(dir, "/" + std::string(installed_in))) {
        return descend(dir, to_engines);
      }
    }
  }
  return COHERIQ_ENGINE_DIR;
}

}  // namespace

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
        bad.error = "coheriq: plugin manifest " + shown(f) + ": " + why;
        out.push_back(std::move(bad));
        continue;
      }
      out.push_back(examine(f, text));
      if (open_dir || open_file) {
        const std::string& where = open_dir ? dir : f;
        out.back().error = "coheriq: plugin manifest " + shown(f) +
                           " is refused: " + (open_dir ? "its directory " : "the file ") +
                           shown(where) +
                           " is world-writable, so anyone could choose the code this process "
                           "loads; fix the mode (chmod o-w " +
                           shown(where) + ")";
      }
    }
  }
  return out;
}

namespace {

// Why the plugin library at `library` must not be loaded (world-writable, or its directory is),
// or empty. A library that does not exist is not this check's business: loading reports it.
std::string unsafe_library(const std::string& library) {
  struct stat st {};
  for (const std::string& p : {library, directory_of(library)}) {
    if (::stat(p.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) != 0) {
      return "plugin library " + shown(library) +
             " is refused: " + (p == library ? "the file " : "its directory ") + shown(p) +
             " is world-writable, so anyone could replace the code this process would run; fix "
             "the mode (chmod o-w " +
             shown(p) + ")";
    }
  }
  return "";
}

}  // namespace

// Loads the plugin's shared object and fills the engine's overrides. Called after the host check.
// On any error the library is closed again and nothing changes.
void load_plugin(Engine& e, const Manifest& m, const DomainCore& d) {
  const std::string where = "coheriq: plugin engine '" + m.name + "' (" + shown(m.path) + ")";
  const std::string library = shown(m.library);
  // dlopen runs the library's ELF constructors before any of its data can be checked: check
  // everything that can be checked without loading it first. A FIFO would block dlopen's open().
  struct stat st {};
  if (::stat(m.library.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    throw PluginError(where + ": cannot load " + library + ": " + file_kind(st.st_mode) +
                      ", not a regular file. Check the manifest's library path");
  }
  if (const std::string why = unsafe_library(m.library); !why.empty()) {
    throw PluginError(where + ": " + why);
  }
  void* handle = dlopen(m.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    throw PluginError(where + ": cannot load " + library + ": " +
                      printable(err ? err : "unknown error", 4200) +
                      ". Check the manifest's library path");
  }
  struct Closer {
    void* handle;
    bool keep = false;
    ~Closer() {
      if (!keep) dlclose(handle);
    }
  } closer{handle};

  const auto* p = static_cast<const PluginEngine*>(dlsym(handle, "coheriq_plugin_engine"));
  if (p == nullptr) {
    throw PluginError(where + ": " + library +
                      " does not export coheriq_plugin_engine; define it with "
                      "COHERIQ_PLUGIN_ENGINE");
  }
  const std::string plugin_domain_abi = p->domain_abi ? p->domain_abi : "";
  if (p->abi_version != plugin_abi_version || plugin_domain_abi != d.desc.abi) {
    throw PluginError(where + ": built against ABI " + printable(plugin_domain_abi) +
                      " (plugin ABI " + std::to_string(p->abi_version) + "), this process has " +
                      std::string(d.desc.abi) + " (plugin ABI " +
                      std::to_string(plugin_abi_version) +
                      "); rebuild the plugin against this version of " + d.name);
  }
  if (p->name == nullptr || m.name != p->name) {
    throw PluginError(where + ": the library says its engine is '" +
                      printable(p->name ? p->name : "") + "'; fix the manifest's name");
  }
  std::vector<const void*> functions(d.candidates.size(), nullptr);
  std::vector<std::string> provided;
  for (std::size_t i = 0; p->overrides != nullptr && i < p->overrides->size; ++i) {
    const Override& o = p->overrides->entries[i];
    const std::size_t k = d.candidate_index(o.candidate);
    if (k == npos || o.function == nullptr) {
      throw PluginError(where + ": overrides unknown candidate '" + printable(o.candidate) + "'");
    }
    functions[k] = o.function;
    provided.emplace_back(o.candidate);
  }
  if (!m.overrides.empty()) {
    std::vector<std::string> declared = m.overrides;
    std::sort(declared.begin(), declared.end());
    std::sort(provided.begin(), provided.end());
    if (declared != provided) {
      throw PluginError(where + ": the manifest says it overrides " + join(declared) +
                        " but the library overrides " + join(provided) + "; make them agree");
    }
  }
  e.function = std::move(functions);
  closer.keep = true;  // the library stays loaded for the life of the process
}

namespace {

// An engine that is listed but can never be enabled: composing it throws `why`.
std::unique_ptr<Engine> refused_engine(DomainCore& d, const std::string& name,
                                       const std::string& path, std::string why) {
  EngineSpec spec;
  spec.domain = d.name;
  spec.name = name;
  spec.description = "unusable plugin engine (see its error)";
  auto e = make_engine(d, spec, "plugin:" + shown(path));
  e->refusal = std::move(why);
  return e;
}

// The engine of a manifest that parsed, or a refused engine when the domain rejects its spec.
std::unique_ptr<Engine> plugin_engine(DomainCore& d, const Manifest& m) {
  // A declared, not yet loaded override: listing shows the plugin as its provider; loading
  // replaces every entry before anything is installed.
  static const char declared = 0;
  EngineSpec spec;
  spec.domain = m.domain;
  spec.name = m.name;
  spec.description = m.description;
  spec.bases = m.bases;
  spec.required_features = m.requires_features;
  spec.host = m.host;
  spec.priority = m.priority;
  for (const auto& [cls, layout] : m.layouts) {
    if (d.class_index(cls) == npos) {  // checked here so that the message echoes it bounded
      return refused_engine(d, m.name, m.path,
                            "coheriq: plugin manifest " + shown(m.path) + " defines a layout of '" +
                                printable(cls) + "', which is not a candidate class of domain '" +
                                d.name + "'; classes: " + join(d.classes));
    }
    spec.layouts.push_back({cls, layout});
  }
  std::unique_ptr<Engine> e;
  try {
    e = make_engine(d, spec, "plugin:" + shown(m.path));
  } catch (const CompositionError& err) {
    return refused_engine(d, m.name, m.path,
                          std::string(err.what()) + " (plugin manifest " + shown(m.path) + ")");
  }
  for (const std::string& o : m.overrides) {
    const std::size_t k = d.candidate_index(o);
    if (k == npos) {
      return refused_engine(d, m.name, m.path,
                            "coheriq: plugin manifest " + shown(m.path) + " overrides '" + o +
                                "', which is not a candidate of domain '" + d.name +
                                "'; candidates: " + join(d.candidates));
    }
    e->function[k] = &declared;
  }
  if (m.abi != d.desc.abi) {
    e->refusal = "coheriq: plugin engine '" + m.name + "' (" + shown(m.path) +
                 ") was built for ABI '" + printable(m.abi) + "', this process has '" +
                 std::string(d.desc.abi) + "'; rebuild the plugin against this version of " +
                 d.name;
  }
  if (const std::string why = unsafe_library(m.library); !why.empty() && e->refusal.empty()) {
    e->refusal = "coheriq: plugin engine '" + m.name + "' (" + shown(m.path) + "): " + why;
  }
  e->loader = [m, &d](Engine& engine) { load_plugin(engine, m, d); };
  return e;
}

}  // namespace

// Never throws for a manifest: one bad file in a shared plugin directory must not stop the jobs
// that do not use it. A file whose engine name can be read makes that engine unusable (its
// `refusal` is the reason); any other bad file is kept in `broken_manifests`, where selection
// failures and `coheriq info` report it. A file whose domain cannot be read may belong to any
// domain, so every domain reports it.
void add_plugins(DomainCore& d) {
  const std::vector<ManifestFile> files = find_manifests();
  std::vector<std::string> broken;
  std::vector<std::string> names;                    // in path order
  std::vector<std::vector<const ManifestFile*>> by;  // per name: its files
  for (const ManifestFile& f : files) {
    if (!f.domain.empty() && f.domain != d.name) continue;
    if (f.domain.empty() || f.name.empty()) {
      broken.push_back(f.error);
      continue;
    }
    const auto taken = std::find_if(d.engines.begin(), d.engines.end(),
                                    [&](const auto& e) { return e->spec.name == f.name; });
    if (taken != d.engines.end()) {
      // An engine of the domain itself (built in, or linked in) cannot be replaced by a file.
      broken.push_back("coheriq: plugin manifest " + shown(f.path) + " names engine '" + f.name +
                       "', which domain '" + d.name + "' already has (" + (*taken)->origin +
                       "); the manifest is ignored, rename its engine");
      continue;
    }
    const auto it = std::find(names.begin(), names.end(), f.name);
    if (it == names.end()) {
      names.push_back(f.name);
      by.push_back({&f});
    } else {
      by[static_cast<std::size_t>(it - names.begin())].push_back(&f);
    }
  }
  std::vector<std::unique_ptr<Engine>> added;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::vector<const ManifestFile*>& same = by[i];
    const ManifestFile& f = *same.front();
    if (same.size() > 1) {
      // Two different files claim one engine: which one a job gets must not depend on the order
      // of COHERIQ_ENGINE_PATH, so neither is used.
      std::vector<std::string> paths;
      for (const ManifestFile* g : same) paths.push_back(shown(g->path));
      added.push_back(refused_engine(
          d, f.name, f.path,
          "coheriq: plugin engine '" + f.name + "' of domain '" + d.name + "' is provided by " +
              std::to_string(same.size()) + " different manifests: " + join(paths) +
              "; remove all but one of them from the plugin directories"));
    } else if (f.error.empty()) {
      added.push_back(plugin_engine(d, f.manifest));
    } else {
      added.push_back(refused_engine(d, f.name, f.path, f.error));
    }
  }
  for (auto& e : added) d.engines.push_back(std::move(e));
  d.broken_manifests = std::move(broken);
}

}  // namespace coheriq::detail
