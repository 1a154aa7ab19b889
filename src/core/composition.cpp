// Composition: C3 linearization of engine bases, providers per candidate, and the coherence rule
// of docs/design.md, "An engine is a coherent unit" (every kernel sees the layout its provider was
// written for).
#include <algorithm>
#include <map>

#include "core/core.hpp"
#include "core/messages.hpp"

namespace coheriq::detail {
namespace {

using Mro = std::vector<const Engine*>;

std::vector<std::string> names_of(const Mro& engines) {
  std::vector<std::string> names;
  for (const Engine* e : engines) names.push_back(e->spec.name);
  return names;
}

class Linearizer {
 public:
  explicit Linearizer(DomainCore& d) : d_(d) {}

  const Mro& mro(const Engine& e) {
    if (auto it = done_.find(&e); it != done_.end()) return it->second;
    if (auto it = std::find(path_.begin(), path_.end(), &e); it != path_.end()) {
      std::vector<std::string> cycle = names_of(Mro(it, path_.end()));
      cycle.push_back(e.spec.name);
      throw CompositionError("coheriq: engines of domain '" + d_.name +
                             "' form a cycle of bases: " + join(cycle, " -> ") +
                             "; an engine cannot inherit from itself, remove one of these bases");
    }
    path_.push_back(&e);
    std::vector<Mro> seqs;
    Mro bases;
    for (const std::string& base_name : e.spec.bases) {
      const Engine* base = d_.find(base_name);
      if (base == nullptr) {
        throw CompositionError("coheriq: " + engine_of(d_, e.spec.name) + " names base '" +
                               printable(base_name) + "', which is not registered; " +
                               known_engines(d_) +
                               ". Register the base engine first or fix the name");
      }
      seqs.push_back(mro(*base));
      bases.push_back(base);
    }
    seqs.push_back(bases);
    Mro result{&e};
    merge(e, seqs, result);
    path_.pop_back();
    return done_.emplace(&e, std::move(result)).first->second;
  }

 private:
  // C3 merge: repeatedly take the first head that appears in no sequence's tail.
  void merge(const Engine& e, std::vector<Mro>& seqs, Mro& out) {
    while (true) {
      seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](const Mro& s) { return s.empty(); }),
                 seqs.end());
      if (seqs.empty()) return;
      const Engine* next = nullptr;
      for (const Mro& s : seqs) {
        const Engine* head = s.front();
        const bool in_tail = std::any_of(seqs.begin(), seqs.end(), [&](const Mro& t) {
          return std::find(t.begin() + 1, t.end(), head) != t.end();
        });
        if (!in_tail) {
          next = head;
          break;
        }
      }
      if (next == nullptr) {
        std::vector<std::string> heads;
        for (const Mro& s : seqs) heads.push_back(s.front()->spec.name);
        heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
        throw CompositionError(
            "coheriq: cannot compose " + engine_of(d_, e.spec.name) + ": its bases (" +
            join(e.spec.bases) +
            ") order these engines inconsistently, so no C3 linearization exists: " + join(heads) +
            ". Reorder the bases of '" + e.spec.name +
            "' to agree with the order its bases already imply");
      }
      out.push_back(next);
      for (Mro& s : seqs) {
        if (!s.empty() && s.front() == next) s.erase(s.begin());
      }
    }
  }

  DomainCore& d_;
  std::map<const Engine*, Mro> done_;
  Mro path_;
};

// Whether `e` defines the layout of class `cls` in a composition: it declares one, and, in the
// reproducible mode, its table for the mode has a kernel that touches the class (an engine whose
// own kernels of a class are fast-only leaves the class to its bases in the mode, layout and all).
bool defines_layout(const DomainCore& d, const Engine& e, std::size_t cls, bool reproducible) {
  if (!e.defines_layout[cls]) return false;
  if (!reproducible) return true;
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    if (e.reproducible_function[k] == nullptr) continue;
    for (std::size_t touched : d.touches[k]) {
      if (touched == cls) return true;
    }
  }
  return false;
}

const Engine* first_layout(const DomainCore& d, const Mro& mro, std::size_t cls,
                           bool reproducible) {
  for (const Engine* e : mro) {
    if (defines_layout(d, *e, cls, reproducible)) return e;
  }
  return mro.back();  // reference
}

std::string size_text(std::size_t bytes) {
  if (bytes == 0) return "unknown";
  if (bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string families_text(const std::vector<int>& families) {
  std::vector<std::string> names;
  for (int f : families) names.push_back(std::to_string(f));
  return join(names, " or ");
}

// What the host lacks of the requirements of every engine of `mro` beyond feature bits (the
// union over the MRO: every engine's requirement must hold), one entry per property.
std::vector<std::string> missing_host_requirements(const Mro& mro) {
  std::vector<std::string> missing;
  std::vector<std::string> vendors;  // "'AuthenticAMD' (engine x)"
  std::string vendor;                // the first required
  bool vendors_conflict = false;
  std::vector<int> families;  // accepted by every engine that names some
  bool families_named = false;
  std::vector<std::string> family_owners;
  std::size_t vector_bits = 0;
  std::size_t l1d = 0;
  std::size_t l2 = 0;
  for (const Engine* e : mro) {
    const HostRequirements& r = e->spec.host;
    if (!r.vendor.empty()) {
      if (vendor.empty()) vendor = r.vendor;
      if (r.vendor != vendor) vendors_conflict = true;
      vendors.push_back(quoted(r.vendor) + " (engine " + quoted(e->spec.name) + ")");
    }
    if (!r.families.empty()) {
      if (!families_named) {
        families = r.families;
      } else {
        std::vector<int> kept;
        for (int f : families) {
          if (std::find(r.families.begin(), r.families.end(), f) != r.families.end()) {
            kept.push_back(f);
          }
        }
        families = std::move(kept);
      }
      families_named = true;
      family_owners.push_back(families_text(r.families) + " (engine '" + e->spec.name + "')");
    }
    vector_bits = std::max(vector_bits, r.min_vector_bits);
    l1d = std::max(l1d, r.min_l1d_bytes);
    l2 = std::max(l2, r.min_l2_bytes);
  }
  if (vendor.empty() && !families_named && vector_bits == 0 && l1d == 0 && l2 == 0) return missing;

  const HostInfo& h = host_info();
  if (vendors_conflict) {
    missing.push_back("conflicting vendor requirements " + join(vendors, " and ") +
                      ", which no host meets");
  } else if (!vendor.empty() && h.vendor != vendor) {
    missing.push_back("vendor " + printable(vendor) + " (this host: " +
                      (h.vendor.empty() ? std::string("unknown") : printable(h.vendor)) + ")");
  }
  if (families_named && families.empty()) {
    missing.push_back("conflicting CPU family requirements " + join(family_owners, " and ") +
                      ", which no host meets");
  } else if (families_named &&
             std::find(families.begin(), families.end(), h.family) == families.end()) {
    missing.push_back("CPU family " + families_text(families) +
                      " (this host: " + std::to_string(h.family) + ")");
  }
  if (h.vector_bits < vector_bits) {
    missing.push_back("a vector length of at least " + std::to_string(vector_bits) +
                      " bits (this host: " +
                      (h.vector_bits == 0 ? std::string("no scalable vectors")
                                          : std::to_string(h.vector_bits) + " bits") +
                      ")");
  }
  if (h.l1d_bytes < l1d) {
    missing.push_back("an L1d cache of at least " + size_text(l1d) +
                      " per core (this host: " + size_text(h.l1d_bytes) + ")");
  }
  if (h.l2_bytes < l2) {
    missing.push_back("an L2 cache of at least " + size_text(l2) +
                      " per core (this host: " + size_text(h.l2_bytes) + ")");
  }
  return missing;
}

}  // namespace

std::string layout_name(const DomainCore& d, const Engine& e, std::size_t cls, bool reproducible) {
  for (const LayoutSpec& l : e.spec.layouts) {
    if (l.candidate_class != d.classes[cls]) continue;
    return reproducible && !l.reproducible_name.empty() ? l.reproducible_name : l.name;
  }
  return std::string(REFERENCE);
}

Composition compose(DomainCore& d, std::string_view engine_name) {
  const Engine* engine = d.find(engine_name);
  if (engine == nullptr) {
    throw UnknownEngineError("coheriq: domain '" + d.name + "' has no engine named " +
                             quoted(engine_name) + "; " + known_engines(d) +
                             ". Check the spelling, or install the plugin that provides it");
  }
  // A malformed host variable fails every composition, whatever the engine needs: it is never a
  // reason to pass one engine over for another.
  (void)host_info();
  Linearizer lin(d);
  Composition c;
  c.mro = lin.mro(*engine);

  for (const Engine* e : c.mro) {
    if (!e->refusal.empty() && c.incoherent.empty()) c.incoherent = e->refusal;
  }
  c.reproducible = reproducible_mode(d);
  if (c.reproducible && c.incoherent.empty()) {
    std::vector<std::string> not_honouring;
    bool plugin = false;
    for (const Engine* e : c.mro) {
      if (e->honours_reproducible) continue;
      not_honouring.push_back(quoted(e->spec.name));
      plugin = plugin || e->origin.rfind("plugin:", 0) == 0;
    }
    if (!not_honouring.empty()) {
      c.incoherent = "coheriq: " + engine_of(d, engine->spec.name) +
                     " does not honour the reproducible mode, which is on (" +
                     reproducible_setting(d) + "): " + join(not_honouring) +
                     (not_honouring.size() == 1 ? " declares" : " declare") + " no kernels for it" +
                     (plugin ? " (a plugin does with 'reproducible = yes' in its manifest, when "
                               "its kernels follow the domain's canonical orders)"
                             : "") +
                     ". Enable an engine that honours it (coheriq info lists them), or turn the "
                     "mode off";
    }
  }

  c.provider.resize(d.candidates.size());
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    for (const Engine* e : c.mro) {
      const auto& table = c.reproducible ? e->reproducible_function : e->function;
      if (table[k] != nullptr) {
        c.provider[k] = e;
        break;
      }
    }
  }
  c.layout.resize(d.classes.size());
  for (std::size_t cls = 0; cls < d.classes.size(); ++cls) {
    c.layout[cls] = first_layout(d, c.mro, cls, c.reproducible);
  }

  // Coherence: kernel k, touching class cls, must see the layout its provider saw on its own.
  std::vector<std::string> to_override;
  std::vector<std::string> details;
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    const Engine* p = c.provider[k];
    for (std::size_t cls : d.touches[k]) {
      const Engine* seen_by_provider = first_layout(d, lin.mro(*p), cls, c.reproducible);
      if (seen_by_provider != c.layout[cls]) {
        to_override.push_back(d.candidates[k]);
        details.push_back(
            d.candidates[k] + " comes from '" + p->spec.name + "', written for layout '" +
            layout_name(d, *seen_by_provider, cls, c.reproducible) + "' of " + d.classes[cls] +
            " (from '" + seen_by_provider->spec.name + "'), but the layout in effect is '" +
            layout_name(d, *c.layout[cls], cls, c.reproducible) + "' (from '" +
            c.layout[cls]->spec.name + "')");
        break;
      }
    }
  }
  if (!to_override.empty() && c.incoherent.empty()) {
    c.incoherent =
        ("coheriq: " + engine_of(d, engine->spec.name) + " is incoherent: " + join(details, "; ") +
         ". Override in '" + engine->spec.name + "': " + join(to_override) +
         " (or keep the inherited layout)");
  }

  for (const Engine* e : c.mro) {
    c.required.insert(c.required.end(), e->spec.required_features.begin(),
                      e->spec.required_features.end());
  }
  std::sort(c.required.begin(), c.required.end());
  c.required.erase(std::unique(c.required.begin(), c.required.end()), c.required.end());
  for (const std::string& f : c.required) {
    if (!host_has(f)) c.missing.push_back(f);
  }
  c.missing_host = missing_host_requirements(c.mro);
  return c;
}

Composition compose_coherent(DomainCore& d, std::string_view engine) {
  Composition c = compose(d, engine);
  for (const Engine* e : c.mro) {
    if (!e->refusal.empty()) throw PluginError(e->refusal);
  }
  if (!c.incoherent.empty()) throw CompositionError(c.incoherent);
  return c;
}

}  // namespace coheriq::detail
