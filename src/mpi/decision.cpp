// enable_common_engine: every rank describes what it supports, every rank gathers all
// descriptions and computes the same decision, then every rank enables its engine: the same one
// everywhere, or with the reproducible mode on, each rank its own (they give the same bits).
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_domain.hpp>
#include <coheriq/mpi.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "core/env.hpp"
#include "core/text.hpp"
#include "mpi/internal.hpp"

namespace coheriq::mpi {
namespace {

using detail::join;
using detail::printable;
using namespace internal;

std::string why_not(const EngineInfo& e) {
  // A composition or plugin error, worded as when enabling fails on every rank (below).
  if (!e.error.empty()) return "cannot be enabled (" + e.error + ")";
  std::vector<std::string> missing = e.missing_features;
  missing.insert(missing.end(), e.missing_host.begin(), e.missing_host.end());
  if (missing.empty()) return "not usable on this host";
  return "missing " + join(missing, ", ");
}

// The variable of an open domain whose status() threw because the variable, as the library
// reads it, cannot be satisfied on this rank (this call reads it for the whole job instead). The
// kernels' is known; another domain's is the one the library's message starts with.
std::string env_var_after(std::string_view domain, const std::string& message) {
  if (domain == kernels::domain_name) return std::string(kernels::Domain::env_var);
  const std::string prefix = "coheriq: ";
  if (message.compare(0, prefix.size(), prefix) != 0) return "";
  const std::size_t end = message.find_first_not_of(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_", prefix.size());
  if (end == std::string::npos || end == prefix.size() || message[end] != '=') return "";
  std::string name = message.substr(prefix.size(), end - prefix.size());
  return std::getenv(name.c_str()) != nullptr ? name : "";
}

// The reproducible mode's variable when status() threw (above): the kernels' is known; another
// domain's goes unread on this rank (the decision's advice takes its name from another rank).
std::string mode_var_after(std::string_view domain) {
  if (domain == kernels::domain_name) return std::string(kernels::Domain::reproducible_env_var);
  return "";
}

RankState describe_for_choice(std::string_view domain) {
  RankState s;
  s.host = processor_name();
  materialize_kernels(domain);
  try {
    try {
      const DomainStatus status = coheriq::status(domain);
      s.env_var = status.env_var;
      s.state = status.state;
      s.engine = status.engine;
      s.reason = status.reason;
      s.locked_by = status.locked_by;
      s.mode_var = status.reproducible_env_var;
    } catch (const UnknownDomainError&) {
      throw;
    } catch (const Error& e) {
      // Only an open domain consults its variable; the decision below reads it for all ranks.
      s.env_var = env_var_after(domain, e.what());
      if (s.env_var.empty()) throw;
      s.state = "open";
      s.mode_var = mode_var_after(domain);
    }
    if (!s.env_var.empty()) {
      if (const char* raw = std::getenv(s.env_var.c_str())) {
        s.env_set = true;
        s.env_value = raw;
      }
    }
    // Asked apart from status(), which may have thrown for the engine variable first. A mode
    // variable that is neither 0 nor 1 throws here: this rank's error, named to every rank.
    s.reproducible = coheriq::reproducible(domain);
    if (!s.mode_var.empty()) {
      if (const char* raw = std::getenv(s.mode_var.c_str())) {
        s.mode_set = true;
        s.mode_value = raw;
      }
    }
    (void)coheriq::host();  // a malformed host variable is this rank's problem, said here
    // The kernels' threads are shared after enabling: a malformed COHERIQ_NUM_THREADS must fail
    // the call before anything changes.
    if (domain == kernels::domain_name) (void)kernels::num_threads();
    for (const EngineInfo& e : coheriq::engines(domain)) {
      s.engines.push_back(
          {e.name, e.supported, e.reproducible, e.supported ? std::string() : why_not(e)});
    }
  } catch (const std::exception& e) {
    s.error = e.what();
  }
  return s;
}

[[noreturn]] void raise(const Decision& d, const std::string& message) {
  switch (d.kind) {
    case Decision::Kind::unknown:
      throw UnknownEngineError(message);
    case Decision::Kind::unsupported:
      throw UnsupportedEngineError(message);
    case Decision::Kind::locked:
      throw EngineLockedError(message);
    case Decision::Kind::error:
      break;
  }
  throw Error(message);
}

}  // namespace

namespace internal {
namespace {

const EngineRow* find_engine(const RankState& s, const std::string& name) {
  for (const EngineRow& e : s.engines) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

Decision fail(Decision::Kind kind, std::string message) {
  Decision d;
  d.kind = kind;
  d.error = std::move(message);
  return d;
}

// A rank's mode for messages: "on (COHERIQ_REPRODUCIBLE='1')", "off (COHERIQ_REPRODUCIBLE
// unset)", "on (enable_reproducible; COHERIQ_REPRODUCIBLE unset)"; the variable only where the
// rank read it.
std::string mode_text(const RankState& s) {
  const std::string& var = s.mode_var;
  std::string source;
  if (!var.empty()) {
    source = s.mode_set ? var + "='" + printable(s.mode_value) + "'" : var + " unset";
  }
  const bool by_variable = s.mode_set && detail::parse_switch(s.mode_value) == true;
  if (s.reproducible && !by_variable) {
    source = "enable_reproducible" + (source.empty() ? "" : "; " + source);
  }
  return std::string(s.reproducible ? "on" : "off") + (source.empty() ? "" : " (" + source + ")");
}

// What a rank may run in the reproducible mode.
bool usable_in_mode(const EngineRow& e) { return e.supported && e.reproducible; }

}  // namespace

std::string encode(const RankState& s) {
  Writer w;
  w.str(s.host).str(s.error).str(s.env_var).num(s.env_set).str(s.env_value).str(s.state);
  w.str(s.engine).str(s.reason).str(s.locked_by);
  w.num(s.reproducible).str(s.mode_var).num(s.mode_set).str(s.mode_value);
  w.num(static_cast<long long>(s.engines.size()));
  for (const EngineRow& e : s.engines) {
    w.str(e.name).num(e.supported).num(e.reproducible).str(e.why_not);
  }
  return w.text();
}

RankState decode(const std::string& text) {
  Reader r(text);
  RankState s;
  s.host = r.str();
  s.error = r.str();
  s.env_var = r.str();
  s.env_set = r.num() != 0;
  s.env_value = r.str();
  s.state = r.str();
  s.engine = r.str();
  s.reason = r.str();
  s.locked_by = r.str();
  s.reproducible = r.num() != 0;
  s.mode_var = r.str();
  s.mode_set = r.num() != 0;
  s.mode_value = r.str();
  const long long n = r.num();
  for (long long i = 0; i < n; ++i) {
    EngineRow e;
    e.name = r.str();
    e.supported = r.num() != 0;
    e.reproducible = r.num() != 0;
    e.why_not = r.str();
    s.engines.push_back(std::move(e));
  }
  return s;
}

Decision decide(const std::vector<RankState>& ranks, std::string_view domain) {
  const std::string head = "coheriq: enable_common_engine(domain '" + printable(domain) + "'): ";
  std::vector<std::string> hosts;
  for (const RankState& s : ranks) hosts.push_back(s.host);

  // 1. A rank that could not describe itself.
  {
    std::vector<std::string> keys;
    bool any = false;
    for (const RankState& s : ranks) {
      keys.push_back(s.error);
      any = any || !s.error.empty();
    }
    if (any) {
      std::vector<std::string> parts;
      for (const auto& [error, members] : group(keys)) {
        if (!error.empty()) parts.push_back(ranks_on(members, hosts) + ": " + error);
      }
      return fail(Decision::Kind::error, head +
                                             "some ranks cannot take part: " + join(parts, "; ") +
                                             ". Fix that on those ranks and rerun");
    }
  }

  // 2. The variable must mean one thing for the whole job.
  const std::string var = ranks[0].env_var.empty() ? std::string() : ranks[0].env_var;
  {
    // Compared by meaning: unset, empty and "auto" agree, and so do " avx2" and "avx2".
    std::vector<std::string> keys;
    for (const RankState& s : ranks) {
      std::string key = "auto";
      if (s.env_set) {
        try {
          const std::vector<std::string> t = detail::parse_engine_list(s.env_value, var);
          if (!t.empty()) key = join(t, ",");
        } catch (const Error&) {
          key = "malformed:" + s.env_value;
        }
      }
      keys.push_back(key);
    }
    const auto groups = group(keys);
    if (groups.size() > 1) {
      std::vector<std::string> parts;
      for (const auto& [meaning, members] : groups) {
        const RankState& first = ranks[static_cast<std::size_t>(members[0])];
        parts.push_back(
            (first.env_set ? "'" + printable(first.env_value) + "'" : std::string("unset")) +
            " on " + ranks_on(members, hosts));
      }
      return fail(Decision::Kind::error, head + var +
                                             " differs between ranks: " + join(parts, "; ") +
                                             ". Give it the same value on every rank (mpirun -x " +
                                             var + "=..., or export it before srun) and rerun");
    }
  }

  // 3. The reproducible mode too: on some ranks and off on others, the ranks' results would
  // differ in the last bits, the very thing the mode is turned on against. Compared by meaning
  // (status().reproducible): unset, empty and "0" agree.
  {
    std::string mode_var;  // for the advice; the same build everywhere: any rank that names it
    for (const RankState& s : ranks) {
      if (mode_var.empty()) mode_var = s.mode_var;
    }
    const bool on = ranks[0].reproducible;
    const bool differs = std::any_of(ranks.begin(), ranks.end(),
                                     [&](const RankState& s) { return s.reproducible != on; });
    if (differs) {
      std::vector<std::string> keys;
      for (const RankState& s : ranks) keys.push_back(mode_text(s));
      std::vector<std::string> parts;
      for (const auto& [text, members] : group(keys)) {
        parts.push_back(text + " on " + ranks_on(members, hosts));
      }
      const std::string how = mode_var.empty()
                                  ? std::string("call enable_reproducible on every rank")
                                  : "mpirun -x " + mode_var +
                                        "=1 or =0, or export it before srun; or call "
                                        "enable_reproducible on every rank";
      return fail(Decision::Kind::error,
                  head + "the reproducible mode differs between ranks: " + join(parts, "; ") +
                      ". Turn it on on every rank or on none (" + how + ") and rerun");
    }
  }

  std::vector<std::string> tokens;
  std::string setting = "auto";  // how the choice is described in messages
  if (ranks[0].env_set) {
    try {
      tokens = detail::parse_engine_list(ranks[0].env_value, var);
    } catch (const Error& e) {
      return fail(Decision::Kind::error, e.what());
    }
    if (!tokens.empty()) setting = var + "=" + printable(join(tokens, ","));
  }
  if (tokens.empty()) tokens.push_back("auto");  // unset, empty: auto under this call

  // 4. Every named engine exists on every rank (a typo fails loudly, wherever it is), in the
  // reproducible mode too, although there a rank may never reach the entry.
  for (const std::string& t : tokens) {
    if (t == "auto") continue;
    std::vector<int> lacking;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      if (find_engine(ranks[r], t) == nullptr) lacking.push_back(static_cast<int>(r));
    }
    if (!lacking.empty()) {
      std::vector<std::string> known;
      for (const EngineRow& e : ranks[static_cast<std::size_t>(lacking[0])].engines) {
        known.push_back(e.name);
      }
      return fail(Decision::Kind::unknown,
                  head + setting + " names '" + printable(t) + "', which is not an engine of '" +
                      printable(domain) + "' on " + ranks_on(lacking, hosts) +
                      " (engines there: " + join(known, ", ") + "). Fix " + var +
                      ", or give every rank the same build and plugins (COHERIQ_ENGINE_PATH)");
    }
  }

  // 5. The choice.
  const bool per_rank = ranks[0].reproducible;
  std::vector<std::string> choices(ranks.size());
  if (per_rank) {
    // The reproducible mode: every engine that honours it gives the same bits, so each rank runs
    // the first entry it supports itself ("auto": its best engine that honours the mode).
    std::vector<int> stuck;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      for (const std::string& t : tokens) {
        if (t == "auto") {
          for (const EngineRow& e : ranks[r].engines) {
            if (usable_in_mode(e)) {
              choices[r] = e.name;
              break;
            }
          }
        } else if (usable_in_mode(*find_engine(ranks[r], t))) {
          choices[r] = t;
        }
        if (!choices[r].empty()) break;
      }
      if (choices[r].empty()) stuck.push_back(static_cast<int>(r));
    }
    if (!stuck.empty()) {
      std::vector<std::string> reasons;
      for (const std::string& t : tokens) {
        std::vector<std::string> keys;
        for (int r : stuck) {
          if (t == "auto") {
            keys.push_back("no engine there honours the reproducible mode");
            continue;
          }
          const EngineRow& e = *find_engine(ranks[static_cast<std::size_t>(r)], t);
          keys.push_back(!e.supported ? e.why_not : "does not honour the reproducible mode");
        }
        std::vector<std::string> parts;
        for (const auto& [why, members] : group(keys)) {
          std::vector<int> which;
          for (int m : members) which.push_back(stuck[static_cast<std::size_t>(m)]);
          parts.push_back(why + " on " + ranks_on(which, hosts));
        }
        reasons.push_back("'" + t + "': " + join(parts, "; "));
      }
      std::vector<std::string> keys;
      for (int r : stuck) {
        std::vector<std::string> usable;
        for (const EngineRow& e : ranks[static_cast<std::size_t>(r)].engines) {
          if (usable_in_mode(e)) usable.push_back(e.name);
        }
        keys.push_back(usable.empty() ? std::string("none") : join(usable, ", "));
      }
      std::vector<std::string> usable;
      for (const auto& [names, members] : group(keys)) {
        std::vector<int> which;
        for (int m : members) which.push_back(stuck[static_cast<std::size_t>(m)]);
        usable.push_back(names + " on " + ranks_on(which, hosts));
      }
      return fail(Decision::Kind::unsupported,
                  head + setting + ", in the reproducible mode (each rank runs the first entry " +
                      "it supports): no entry is supported on " + ranks_on(stuck, hosts) + " (" +
                      join(reasons, "; ") + "). Those ranks could run in the mode: " +
                      join(usable, "; ") + "; add one of them to " + var +
                      " or set it to auto, or run the job on nodes that have what is missing");
    }
  } else {
    // The same engine everywhere: the first entry every rank supports.
    const auto everywhere = [&](const std::string& name) {
      return std::all_of(ranks.begin(), ranks.end(), [&](const RankState& s) {
        const EngineRow* e = find_engine(s, name);
        return e != nullptr && e->supported;
      });
    };
    std::string choice;
    for (const std::string& t : tokens) {
      if (t == "auto") {
        for (const EngineRow& e : ranks[0].engines) {
          if (everywhere(e.name)) {
            choice = e.name;
            break;
          }
        }
      } else if (everywhere(t)) {
        choice = t;
      }
      if (!choice.empty()) break;
    }
    if (choice.empty()) {
      std::vector<std::string> reasons;
      for (const std::string& t : tokens) {
        if (t == "auto") {
          reasons.push_back("'auto': no engine is supported on every rank");
          continue;
        }
        std::vector<std::string> keys;
        for (const RankState& s : ranks) {
          const EngineRow* e = find_engine(s, t);
          keys.push_back(e->supported ? std::string() : e->why_not);
        }
        std::vector<std::string> parts;
        std::vector<int> fine;
        for (const auto& [why, members] : group(keys)) {
          if (why.empty()) {
            fine = members;
          } else {
            parts.push_back(why + " on " + ranks_on(members, hosts));
          }
        }
        reasons.push_back("'" + t + "': " + join(parts, "; ") +
                          (fine.empty() ? "" : " (supported on " + ranks_on(fine, hosts) + ")"));
      }
      std::vector<std::string> common;
      for (const EngineRow& e : ranks[0].engines) {
        if (everywhere(e.name)) common.push_back(e.name);
      }
      return fail(Decision::Kind::unsupported,
                  head + setting + ": no engine in the list is supported on every rank (" +
                      join(reasons, "; ") + "). Supported on every rank: " +
                      (common.empty() ? std::string("none") : join(common, ", ")) + "; set " + var +
                      " to one of them or to auto, or run the job on nodes that have what is "
                      "missing");
    }
    choices.assign(ranks.size(), choice);
  }

  // 6. A rank that already settled the domain on another engine than its choice cannot follow.
  {
    std::vector<std::string> keys;
    bool any = false;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      const RankState& s = ranks[r];
      if (s.state != "open" && s.engine != choices[r]) {
        any = true;
        keys.push_back(
            "'" + printable(s.engine) + "' is " + s.state +
            (s.locked_by.empty() ? " by " + s.reason : " by the first use of " + s.locked_by) +
            (per_rank ? " instead of '" + choices[r] + "'" : ""));
      } else {
        keys.push_back("");
      }
    }
    if (any) {
      std::vector<std::string> parts;
      for (const auto& [what, members] : group(keys)) {
        if (!what.empty()) parts.push_back(what + " on " + ranks_on(members, hosts));
      }
      const std::string chosen =
          per_rank ? "in the reproducible mode each rank runs its own choice (" + setting + ")"
                   : "the common choice is '" + choices[0] + "' (" + setting + ")";
      return fail(Decision::Kind::locked,
                  head + chosen +
                      ", but the domain already has another engine: " + join(parts, "; ") +
                      ". Call enable_common_engine on every rank before the domain's first use, "
                      "instead of enable_engine");
    }
  }
  Decision d;
  d.engines = std::move(choices);
  return d;
}

}  // namespace internal

std::string enable_common_engine(MPI_Comm comm, std::string_view domain) {
  require_usable(comm, "enable_common_engine");
  const std::size_t me = static_cast<std::size_t>(rank_of(comm));
  // Step 1: what every rank supports, and the same decision everywhere.
  std::vector<RankState> ranks;
  for (const std::string& text : allgather(comm, encode(describe_for_choice(domain)))) {
    ranks.push_back(decode(text));
  }
  std::vector<std::string> hosts;
  for (const RankState& s : ranks) hosts.push_back(s.host);
  // The ranks that enabled their engine in an earlier round (the reproducible mode only).
  std::vector<int> holding;
  // Each failing round makes at least one (rank, engine) unusable, so the loop ends.
  for (std::size_t round = 0;; ++round) {
    const Decision decision = decide(ranks, domain);
    if (decision.engines.empty()) {
      if (holding.empty()) raise(decision, decision.error);
      raise(decision, decision.error + ". Meanwhile " + ranks_on(holding, hosts) +
                          " enabled their engine, and keep it (enabling is one-way): end the job "
                          "(MPI_Abort)");
    }
    const std::string& mine = decision.engines[me];
    // Step 2: enable. Step 1 checked what can be checked without enabling, so this fails only
    // where enabling itself fails (a plugin library that does not load); the ranks agree on the
    // outcome before anyone throws.
    std::string error;
    try {
      coheriq::enable_engine(domain, mine);
    } catch (const std::exception& e) {
      error = e.what();
    }
    const std::vector<std::string> errors = allgather(comm, error);
    std::vector<int> enabled;
    std::vector<std::string> parts;
    for (const auto& [what, members] : group(errors)) {
      if (what.empty()) {
        enabled = members;
      } else {
        parts.push_back(ranks_on(members, hosts) + ": " + what);
      }
    }
    if (parts.empty()) {
      if (domain == kernels::domain_name) (void)share_node_threads(comm);
      return mine;
    }
    const auto pass_over = [&](std::size_t r) {
      for (EngineRow& e : ranks[r].engines) {
        if (e.name == decision.engines[r]) {
          e.supported = false;
          e.why_not = "cannot be enabled (" + errors[r] + ")";
        }
      }
    };
    if (ranks[0].reproducible) {
      // Each rank's choice is its own: a rank whose engine fails to enable passes it over and
      // takes its next entry, like the library's lists; the others keep theirs (enabling the
      // same engine again changes nothing).
      for (std::size_t r = 0; r < ranks.size(); ++r) {
        if (!errors[r].empty()) pass_over(r);
      }
      holding = enabled;
      continue;
    }
    if (enabled.empty() && round < ranks[0].engines.size()) {
      // Failed everywhere, so nothing changed: like the library's auto and lists, pass over
      // the engine (an engine named alone then fails with this reason).
      for (std::size_t r = 0; r < ranks.size(); ++r) pass_over(r);
      continue;
    }
    // The choice is one-way: the ranks that enabled it keep it.
    throw Error(
        "coheriq: enable_common_engine(domain '" + printable(domain) + "'): every rank chose '" +
        mine + "', but enabling it failed on " + join(parts, "; ") + "; it stays enabled on " +
        ranks_on(enabled, hosts) +
        ". End the job (MPI_Abort) and fix the failing ranks, or name another engine in " +
        (ranks[0].env_var.empty() ? std::string("the domain's variable") : ranks[0].env_var));
  }
}

}  // namespace coheriq::mpi
