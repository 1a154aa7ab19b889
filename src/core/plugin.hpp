// Plugin engines: a text manifest (read when engines are listed) and a shared object (loaded only
// when its engine, or one inheriting it, is enabled and the host check passed).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

struct Manifest {
  std::string path;  // the manifest file
  std::string domain;
  std::string name;
  std::vector<std::string> bases;
  std::vector<std::string> requires_features;
  int priority = 0;
  std::string description;
  std::string library;  // resolved against the manifest's directory
  std::string abi;
  std::vector<std::string> overrides;  // optional: candidates the library overrides
  std::vector<std::pair<std::string, std::string>> layouts;  // optional: class -> layout name
};

// Parses a manifest's text. `path` names the file in errors and resolves `library`.
// Throws PluginError naming the file and line of the first malformed line.
Manifest parse_manifest(std::string_view text, std::string_view path);

// Every manifest (*.coheriq-engine) in the directories of COHERIQ_ENGINE_PATH, then in the
// install prefix's engine directory. Throws PluginError for a manifest that does not parse.
std::vector<Manifest> find_manifests();

}  // namespace coheriq::detail
