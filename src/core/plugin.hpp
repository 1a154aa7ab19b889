// Plugin engines: a text manifest (read when engines are listed) and a shared object (loaded only
// when its engine, or one inheriting it, is enabled and the host check passed). Three files, one
// job each: manifest.cpp parses a manifest's text, discovery.cpp finds and reads the files,
// plugin.cpp makes engines of them and loads their libraries.
#pragma once

#include <coheriq/engine.hpp>

#include <sys/types.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coheriq::detail {

struct Manifest {
  std::string path;  // the manifest file
  std::string domain;
  std::string name;
  std::vector<std::string> bases;
  std::vector<std::string> requires_features;  // cpu_features names of this architecture
  HostRequirements host;                       // optional `host` key
  int priority = 0;
  std::string description;
  std::string library;  // resolved against the manifest's directory
  std::string abi;
  std::vector<std::string> overrides;  // optional: candidates the library overrides
  std::vector<std::pair<std::string, std::string>> layouts;  // optional: class -> layout name
  bool reproducible = false;  // optional `reproducible = yes`: its kernels follow the domain's
                              // canonical order, and serve the reproducible mode too
};

// ------------------------------ Parsing (manifest.cpp)

// Parses a manifest's text. `path` names the file in errors and resolves `library`.
// Throws PluginError naming the file and line of the first malformed line.
Manifest parse_manifest(std::string_view text, std::string_view path);

// One file found on the plugin path: its manifest, or why it was refused. A refused file keeps
// what could still be read of it (its domain and engine name), so that its engine can be
// reported as unusable rather than unknown.
struct ManifestFile {
  std::string path;
  std::string domain;  // empty when it cannot be read
  std::string name;    // empty when it cannot be read (or is not a valid engine name)
  Manifest manifest;   // valid when `error` is empty
  std::string error;   // a complete "coheriq: plugin manifest ..." message, or empty
};

// The file at `path` whose contents are `text`: parsed, or refused with what can still be read of
// it. Never throws.
ManifestFile examine_manifest(const std::string& path, const std::string& text);

// A path as messages show it: escaped, and bounded a little above PATH_MAX.
std::string shown_path(std::string_view path);
// The directory part of `path`: "." when it has none.
std::string directory_of(std::string_view path);

// ------------------------------ Discovery (discovery.cpp)

// Every manifest (*.coheriq-engine) in the directories of COHERIQ_ENGINE_PATH, then in the
// install prefix's engine directory. Never throws for a file: a file that does not parse is
// returned with its error.
std::vector<ManifestFile> find_manifests();

// What a file that is not a regular file is: "a FIFO", "a directory", ...
const char* file_kind(mode_t mode);

}  // namespace coheriq::detail
