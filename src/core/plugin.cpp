// Plugin engines: each manifest of the domain becomes an engine (or a refused one), whose shared
// object is loaded only when the engine, or one inheriting it, is enabled on a host able to run it.
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>

#include "core/core.hpp"
#include "core/plugin.hpp"

namespace coheriq::detail {
namespace {

// Why the plugin library at `library` must not be loaded (world-writable, or its directory is),
// or empty. A library that does not exist is not this check's business: loading reports it.
std::string unsafe_library(const std::string& library) {
  struct stat st {};
  for (const std::string& p : {library, directory_of(library)}) {
    if (::stat(p.c_str(), &st) == 0 && (st.st_mode & S_IWOTH) != 0) {
      return "plugin library " + shown_path(library) +
             " is refused: " + (p == library ? "the file " : "its directory ") + shown_path(p) +
             " is world-writable, so anyone could replace the code this process would run; fix "
             "the mode (chmod o-w " +
             shown_path(p) + ")";
    }
  }
  return "";
}

}  // namespace

// Loads the plugin's shared object and fills the engine's overrides. Called after the host check.
// On any error the library is closed again and nothing changes.
void load_plugin(Engine& e, const Manifest& m, const DomainCore& d) {
  const std::string where = "coheriq: plugin engine '" + m.name + "' (" + shown_path(m.path) + ")";
  const std::string library = shown_path(m.library);
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
  if (m.reproducible) e.reproducible_function = e.function;
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
  auto e = make_engine(d, spec, "plugin:" + shown_path(path));
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
                            "coheriq: plugin manifest " + shown_path(m.path) +
                                " defines a layout of '" + printable(cls) +
                                "', which is not a candidate class of domain '" + d.name +
                                "'; classes: " + join(d.classes));
    }
    spec.layouts.push_back({cls, layout});
  }
  std::unique_ptr<Engine> e;
  try {
    e = make_engine(d, spec, "plugin:" + shown_path(m.path));
  } catch (const CompositionError& err) {
    return refused_engine(
        d, m.name, m.path,
        std::string(err.what()) + " (plugin manifest " + shown_path(m.path) + ")");
  }
  for (const std::string& o : m.overrides) {
    const std::size_t k = d.candidate_index(o);
    if (k == npos) {
      return refused_engine(d, m.name, m.path,
                            "coheriq: plugin manifest " + shown_path(m.path) + " overrides '" + o +
                                "', which is not a candidate of domain '" + d.name +
                                "'; candidates: " + join(d.candidates));
    }
    e->function[k] = &declared;
  }
  e->honours_reproducible = m.reproducible;
  e->reproducible_function = e->function;
  if (m.abi != d.desc.abi) {
    // The manifest alone is wrong as often as the library: give both cures (the library's own
    // ABI is checked again when it is loaded, so correcting the line cannot run a wrong plugin).
    const std::string abi(d.desc.abi);
    e->refusal = "coheriq: plugin engine '" + m.name + "' (" + shown_path(m.path) +
                 "): its manifest says abi = " + printable(m.abi) + ", domain '" + d.name +
                 "' in this process has abi = " + abi + " (coheriq info prints it). If the " +
                 "library was built against this version of " + d.name + ", set 'abi = " + abi +
                 "' in the manifest; otherwise rebuild the plugin against it and set that line";
  }
  if (const std::string why = unsafe_library(m.library); !why.empty() && e->refusal.empty()) {
    e->refusal = "coheriq: plugin engine '" + m.name + "' (" + shown_path(m.path) + "): " + why;
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
      broken.push_back("coheriq: plugin manifest " + shown_path(f.path) + " names engine '" +
                       f.name + "', which domain '" + d.name + "' already has (" +
                       (*taken)->origin + "); the manifest is ignored, rename its engine");
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
      for (const ManifestFile* g : same) paths.push_back(shown_path(g->path));
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
