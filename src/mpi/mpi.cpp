// coheriq::mpi: one engine across the ranks of a job, the node's threads shared, and the report.
//
// Each collective runs in two steps: every rank describes itself into a string, without throwing
// (a failure becomes part of the description), then every rank gathers every description
// (MPI_Allgatherv) and computes the same decision from the same data. So all ranks reach every
// collective call, and all throw or none does.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_domain.hpp>
#include <coheriq/mpi.hpp>

#include <sched.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace coheriq::mpi {
namespace {

// ------------------------------ Plumbing

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    throw Error(std::string("coheriq: ") + call + " failed: " + mpi_error_text(code) +
                "; check the MPI installation and the job's launch (docs/cluster.md)");
  }
}

// Before any collective: a communicator this rank can use. Checked on every rank alike (the same
// program), so a refusal here cannot leave another rank waiting.
void require_usable(MPI_Comm comm, const char* function) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    throw Error(std::string("coheriq: coheriq::mpi::") + function +
                " needs MPI to be initialized and not finalized; call it between MPI_Init and "
                "MPI_Finalize");
  }
  if (comm == MPI_COMM_NULL) {
    throw Error(std::string("coheriq: coheriq::mpi::") + function +
                " was given MPI_COMM_NULL; pass the communicator of the ranks that must agree "
                "(e.g. MPI_COMM_WORLD)");
  }
}

int rank_of(MPI_Comm comm) {
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

int size_of(MPI_Comm comm) {
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

// Every rank's string, on every rank, in rank order.
std::vector<std::string> allgather(MPI_Comm comm, const std::string& mine) {
  const int size = size_of(comm);
  // A description is a few KiB. One beyond 1 GiB (not seen in practice) is sent empty, which
  // every rank then refuses alike when decoding it: no rank is left waiting.
  int length =
      mine.size() > static_cast<std::size_t>(INT_MAX / 2) ? 0 : static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm), "MPI_Allgather");
  std::vector<int> offsets(static_cast<std::size_t>(size));
  long long total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = static_cast<int>(total);
    total += lengths[i];
    if (total > INT_MAX) {
      throw Error(
          "coheriq: the ranks' descriptions exceed 2 GiB together; use a smaller "
          "communicator");
    }
  }
  std::vector<char> all(static_cast<std::size_t>(total) + 1);
  check(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                       MPI_CHAR, comm),
        "MPI_Allgatherv");
  std::vector<std::string> out;
  out.reserve(lengths.size());
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    out.emplace_back(all.data() + offsets[i], static_cast<std::size_t>(lengths[i]));
  }
  return out;
}

std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  if (MPI_Get_processor_name(name, &length) != MPI_SUCCESS) return "?";
  return std::string(name, static_cast<std::size_t>(length));
}

// Length-prefixed fields: "<bytes>:<text>" each, so any byte may appear in a field.
class Writer {
 public:
  Writer& str(std::string_view s) {
    out_ += std::to_string(s.size());
    out_ += ':';
    out_ += s;
    return *this;
  }
  Writer& num(long long n) { return str(std::to_string(n)); }
  Writer& list(const std::vector<std::string>& items) {
    num(static_cast<long long>(items.size()));
    for (const std::string& s : items) str(s);
    return *this;
  }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  std::string str() {
    const std::size_t colon = in_.find(':', pos_);
    if (colon == std::string::npos) fail();
    const std::string digits = in_.substr(pos_, colon - pos_);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) fail();
    const std::size_t length = std::stoull(digits);
    if (length > in_.size() - colon - 1) fail();
    std::string s = in_.substr(colon + 1, length);
    pos_ = colon + 1 + length;
    return s;
  }
  long long num() {
    const std::string s = str();
    try {
      return std::stoll(s);
    } catch (const std::exception&) {
      fail();
    }
  }
  std::vector<std::string> list() {
    const long long n = num();
    if (n < 0 || static_cast<std::size_t>(n) > in_.size()) fail();
    std::vector<std::string> items;
    for (long long i = 0; i < n; ++i) items.push_back(str());
    return items;
  }

 private:
  [[noreturn]] static void fail() {
    // Only a rank of another build of this component could send something else.
    throw Error(
        "coheriq: a rank sent a description this rank cannot read; run the same build of "
        "coheriq on every rank");
  }
  const std::string& in_;
  std::size_t pos_ = 0;
};

// ------------------------------ Text

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += separator;
    out += items[i];
  }
  return out;
}

// Caller- and environment-given text, escaped and bounded like the library's own messages.
std::string printable(std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  const std::size_t shown = std::min<std::size_t>(s.size(), 200);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (shown < s.size()) out += "...(" + std::to_string(s.size() - shown) + " more bytes)";
  return out;
}

// "0-3,5,7-8"
std::string rank_ranges(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(ranks[i]);
    if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

// "rank 1 on host n1", "ranks 0-3,6 on hosts n1, n2 and 3 more"
std::string ranks_on(const std::vector<int>& ranks, const std::vector<std::string>& hosts) {
  std::vector<std::string> names;
  for (int r : ranks) {
    const std::string& h = hosts[static_cast<std::size_t>(r)];
    if (std::find(names.begin(), names.end(), h) == names.end()) names.push_back(h);
  }
  std::string out = (ranks.size() == 1 ? "rank " : "ranks ") + rank_ranges(ranks) +
                    (names.size() == 1 ? " on host " : " on hosts ");
  const std::size_t shown = std::min<std::size_t>(names.size(), 4);
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + printable(names[i]);
  if (shown < names.size()) out += " and " + std::to_string(names.size() - shown) + " more";
  return out;
}

// Ranks grouped by a per-rank text, groups in order of their first rank: "<text> on ranks ..."
std::vector<std::pair<std::string, std::vector<int>>> group(const std::vector<std::string>& keys) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  for (std::size_t r = 0; r < keys.size(); ++r) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == keys[r]; });
    if (it == groups.end()) {
      groups.push_back({keys[r], {static_cast<int>(r)}});
    } else {
      it->second.push_back(static_cast<int>(r));
    }
  }
  return groups;
}

// The name-based API reaches only domains that registered themselves; the kernels domain does
// when its API is linked, which this component ensures by calling into it (never locks). Its
// errors (a malformed COHERIQ_ENGINE) are seen again, and reported, by the caller.
void materialize_kernels(std::string_view domain) {
  if (domain != kernels::domain_name) return;
  try {
    (void)kernels::active_engine();
  } catch (const Error&) {
  }
}

// ------------------------------ What a rank knows for the engine choice

struct EngineRow {
  std::string name;
  bool supported = false;
  std::string why_not;  // "missing avx512f", "cannot be enabled (...)"
};

struct RankState {
  std::string host;
  std::string error;  // this rank could not describe itself
  std::string env_var;
  bool env_set = false;
  std::string env_value;
  std::string state;  // DomainStatus::state
  std::string engine;
  std::string reason;
  std::string locked_by;
  std::vector<EngineRow> engines;  // highest priority first
};

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
    } catch (const UnknownDomainError&) {
      throw;
    } catch (const Error& e) {
      // Only an open domain consults its variable; the decision below reads it for all ranks.
      s.env_var = env_var_after(domain, e.what());
      if (s.env_var.empty()) throw;
      s.state = "open";
    }
    if (!s.env_var.empty()) {
      if (const char* raw = std::getenv(s.env_var.c_str())) {
        s.env_set = true;
        s.env_value = raw;
      }
    }
    (void)coheriq::host();  // a malformed host variable is this rank's problem, said here
    // The kernels' threads are shared after enabling: a malformed COHERIQ_NUM_THREADS must fail
    // the call before anything changes.
    if (domain == kernels::domain_name) (void)kernels::num_threads();
    for (const EngineInfo& e : coheriq::engines(domain)) {
      s.engines.push_back({e.name, e.supported, e.supported ? std::string() : why_not(e)});
    }
  } catch (const std::exception& e) {
    s.error = e.what();
  }
  return s;
}

std::string encode(const RankState& s) {
  Writer w;
  w.str(s.host).str(s.error).str(s.env_var).num(s.env_set).str(s.env_value).str(s.state);
  w.str(s.engine).str(s.reason).str(s.locked_by).num(static_cast<long long>(s.engines.size()));
  for (const EngineRow& e : s.engines) w.str(e.name).num(e.supported).str(e.why_not);
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
  const long long n = r.num();
  for (long long i = 0; i < n; ++i) {
    EngineRow e;
    e.name = r.str();
    e.supported = r.num() != 0;
    e.why_not = r.str();
    s.engines.push_back(std::move(e));
  }
  return s;
}

const EngineRow* find_engine(const RankState& s, const std::string& name) {
  for (const EngineRow& e : s.engines) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// The grammar of the library's engine variables: comma-separated tokens, blanks around them
// ignored, each an engine name ([A-Za-z0-9_.-]+) or "auto". Throws on anything else. An empty
// or blank value gives no tokens.
std::vector<std::string> parse_tokens(const std::string& value, const std::string& var) {
  std::vector<std::string> tokens;
  if (value.find_first_not_of(" \t") == std::string::npos) return tokens;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    std::string t =
        value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t first = t.find_first_not_of(" \t");
    const std::size_t last = t.find_last_not_of(" \t");
    t = first == std::string::npos ? std::string() : t.substr(first, last - first + 1);
    const bool name_ok = !t.empty() && t.find_first_not_of(
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                           "0123456789_.-") == std::string::npos;
    if (!name_ok) {
      throw Error("coheriq: " + var + "='" + printable(value) + "' has " +
                  (t.empty() ? std::string("an empty entry")
                             : "the entry '" + printable(t) + "', which is not an engine name") +
                  "; give comma-separated engine names or auto, the same on every rank");
    }
    tokens.push_back(t);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return tokens;
}

struct Decision {
  std::string engine;  // empty on failure
  std::string error;
  enum class Kind { error, unknown, unsupported, locked } kind = Kind::error;
};

Decision fail(Decision::Kind kind, std::string message) {
  Decision d;
  d.kind = kind;
  d.error = std::move(message);
  return d;
}

// The same function of the same table on every rank: the same decision everywhere.
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
          const std::vector<std::string> t = parse_tokens(s.env_value, var);
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

  std::vector<std::string> tokens;
  std::string setting = "auto";  // how the choice is described in messages
  if (ranks[0].env_set) {
    try {
      tokens = parse_tokens(ranks[0].env_value, var);
    } catch (const Error& e) {
      return fail(Decision::Kind::error, e.what());
    }
    if (!tokens.empty()) setting = var + "=" + printable(join(tokens, ","));
  }
  if (tokens.empty()) tokens.push_back("auto");  // unset, empty: auto under this call

  // 3. Every named engine exists on every rank (a typo fails loudly, wherever it is).
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

  // 4. The first entry every rank supports.
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

  // 5. A rank that already settled the domain on another engine cannot follow.
  {
    std::vector<std::string> keys;
    bool any = false;
    for (const RankState& s : ranks) {
      if (s.state != "open" && s.engine != choice) {
        any = true;
        keys.push_back(
            "'" + printable(s.engine) + "' is " + s.state +
            (s.locked_by.empty() ? " by " + s.reason : " by the first use of " + s.locked_by));
      } else {
        keys.push_back("");
      }
    }
    if (any) {
      std::vector<std::string> parts;
      for (const auto& [what, members] : group(keys)) {
        if (!what.empty()) parts.push_back(what + " on " + ranks_on(members, hosts));
      }
      return fail(Decision::Kind::locked,
                  head + "the common choice is '" + choice + "' (" + setting +
                      "), but the domain already has another engine: " + join(parts, "; ") +
                      ". Call enable_common_engine on every rank before the domain's first use, "
                      "instead of enable_engine");
    }
  }
  Decision d;
  d.engine = choice;
  return d;
}

[[noreturn]] void raise(const Decision& d) {
  switch (d.kind) {
    case Decision::Kind::unknown:
      throw UnknownEngineError(d.error);
    case Decision::Kind::unsupported:
      throw UnsupportedEngineError(d.error);
    case Decision::Kind::locked:
      throw EngineLockedError(d.error);
    case Decision::Kind::error:
      break;
  }
  throw Error(d.error);
}

// ------------------------------ Threads

cpu_set_t affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    CPU_ZERO(&set);
    CPU_SET(0, &set);  // what threads.cpp assumes too: one CPU when the mask cannot be read
  }
  return set;
}

MPI_Comm node_comm(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_of(comm), MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  return node;
}

int node_size(MPI_Comm comm) {
  MPI_Comm node = node_comm(comm);
  const int size = size_of(node);
  MPI_Comm_free(&node);
  return size;
}

// ------------------------------ The report

std::string encode(const RankReport& r) {
  Writer w;
  w.num(r.rank).str(r.host).num(r.node_ranks);
  w.str(r.cpu.arch).str(r.cpu.brand).list(r.cpu.features).list(r.cpu.disabled).str(r.cpu.vendor);
  w.num(r.cpu.family).num(r.cpu.model).num(static_cast<long long>(r.cpu.vector_bits));
  w.num(static_cast<long long>(r.cpu.l1d_bytes)).num(static_cast<long long>(r.cpu.l2_bytes));
  w.list(r.supported).str(r.engine).str(r.state).num(static_cast<long long>(r.threads));
  w.str(r.error);
  return w.text();
}

RankReport decode_report(const std::string& text) {
  Reader rd(text);
  RankReport r;
  r.rank = static_cast<int>(rd.num());
  r.host = rd.str();
  r.node_ranks = static_cast<int>(rd.num());
  r.cpu.arch = rd.str();
  r.cpu.brand = rd.str();
  r.cpu.features = rd.list();
  r.cpu.disabled = rd.list();
  r.cpu.vendor = rd.str();
  r.cpu.family = static_cast<int>(rd.num());
  r.cpu.model = static_cast<int>(rd.num());
  r.cpu.vector_bits = static_cast<std::size_t>(rd.num());
  r.cpu.l1d_bytes = static_cast<std::size_t>(rd.num());
  r.cpu.l2_bytes = static_cast<std::size_t>(rd.num());
  r.supported = rd.list();
  r.engine = rd.str();
  r.state = rd.str();
  r.threads = static_cast<std::size_t>(rd.num());
  r.error = rd.str();
  return r;
}

std::string bytes_text(std::size_t bytes) {
  if (bytes == 0) return "?";
  if (bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string cpu_text(const HostInfo& h) {
  std::string s = h.arch;
  if (!h.vendor.empty()) s += " " + h.vendor;
  s += " family " + std::to_string(h.family) + " model " + std::to_string(h.model);
  if (!h.brand.empty()) s += " \"" + printable(h.brand) + "\"";
  s += ", L1d " + bytes_text(h.l1d_bytes) + ", L2 " + bytes_text(h.l2_bytes);
  if (h.vector_bits != 0) s += ", vector " + std::to_string(h.vector_bits) + " bits";
  return s;
}

}  // namespace

std::size_t share_node_threads(MPI_Comm comm) {
  require_usable(comm, "share_node_threads");
  const cpu_set_t mine = affinity();
  std::string error;  // a malformed COHERIQ_NUM_THREADS: every rank throws it, not this one only
  std::size_t current = 0;
  try {
    current = kernels::num_threads();
  } catch (const std::exception& e) {
    error = e.what();
  }
  const std::vector<std::string> errors = allgather(comm, error);
  std::vector<std::string> hosts = allgather(comm, processor_name());
  std::vector<std::string> parts;
  for (const auto& [what, members] : group(errors)) {
    if (!what.empty()) parts.push_back(ranks_on(members, hosts) + ": " + what);
  }
  if (!parts.empty()) {
    throw Error("coheriq: share_node_threads: some ranks cannot tell their thread count: " +
                join(parts, "; ") + ". Fix COHERIQ_NUM_THREADS on those ranks and rerun");
  }
  MPI_Comm node = node_comm(comm);
  std::vector<std::string> masks;
  try {
    masks = allgather(node, std::string(reinterpret_cast<const char*>(&mine), sizeof(mine)));
  } catch (...) {
    MPI_Comm_free(&node);
    throw;
  }
  MPI_Comm_free(&node);
  // Explicit: the variable, or set_num_threads(n) with n other than the default (a count equal
  // to the default cannot be told apart from it, and is shared like the default).
  if (std::getenv("COHERIQ_NUM_THREADS") != nullptr ||
      current != static_cast<std::size_t>(CPU_COUNT(&mine))) {
    return current;
  }
  int sharing = 0;  // node ranks whose CPUs overlap this rank's, itself included
  for (const std::string& m : masks) {
    if (m.size() != sizeof(cpu_set_t)) continue;
    cpu_set_t other;
    std::copy(m.begin(), m.end(), reinterpret_cast<char*>(&other));
    cpu_set_t both;
    CPU_AND(&both, &mine, &other);
    if (CPU_COUNT(&both) > 0) ++sharing;
  }
  const int cpus = CPU_COUNT(&mine);
  kernels::set_num_threads(static_cast<std::size_t>(std::max(1, cpus / std::max(1, sharing))));
  return kernels::num_threads();
}

std::string enable_common_engine(MPI_Comm comm, std::string_view domain) {
  require_usable(comm, "enable_common_engine");
  // Step 1: what every rank supports, and the same decision everywhere.
  std::vector<RankState> ranks;
  for (const std::string& text : allgather(comm, encode(describe_for_choice(domain)))) {
    ranks.push_back(decode(text));
  }
  std::vector<std::string> hosts;
  for (const RankState& s : ranks) hosts.push_back(s.host);
  // At most one round per engine: each round either ends or makes one engine unusable.
  for (std::size_t round = 0;; ++round) {
    const Decision decision = decide(ranks, domain);
    if (decision.engine.empty()) raise(decision);
    // Step 2: enable. Step 1 checked what can be checked without enabling, so this fails only
    // where enabling itself fails (a plugin library that does not load); the ranks agree on the
    // outcome before anyone throws.
    std::string error;
    try {
      coheriq::enable_engine(domain, decision.engine);
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
      return decision.engine;
    }
    if (enabled.empty() && round < ranks[0].engines.size()) {
      // Failed everywhere, so nothing changed: like the library's auto and lists, pass over
      // the engine (an engine named alone then fails with this reason).
      for (std::size_t r = 0; r < ranks.size(); ++r) {
        for (EngineRow& e : ranks[r].engines) {
          if (e.name == decision.engine) {
            e.supported = false;
            e.why_not = "cannot be enabled (" + errors[r] + ")";
          }
        }
      }
      continue;
    }
    // The choice is one-way: the ranks that enabled it keep it.
    throw Error(
        "coheriq: enable_common_engine(domain '" + printable(domain) + "'): every rank chose '" +
        decision.engine + "', but enabling it failed on " + join(parts, "; ") +
        "; it stays enabled on " + ranks_on(enabled, hosts) +
        ". End the job (MPI_Abort) and fix the failing ranks, or name another engine in " +
        (ranks[0].env_var.empty() ? std::string("the domain's variable") : ranks[0].env_var));
  }
}

std::vector<RankReport> gather_report(MPI_Comm comm, std::string_view domain) {
  require_usable(comm, "gather_report");
  RankReport mine;
  mine.rank = rank_of(comm);
  mine.host = processor_name();
  mine.node_ranks = node_size(comm);
  materialize_kernels(domain);
  try {
    mine.cpu = coheriq::host();
    for (const EngineInfo& e : coheriq::engines(domain)) {
      if (e.supported) mine.supported.push_back(e.name);
    }
    const DomainStatus status = coheriq::status(domain);
    mine.state = status.state;
    mine.threads = kernels::num_threads();
    mine.engine = coheriq::active_engine(domain);  // last: the likeliest to throw
  } catch (const std::exception& e) {
    mine.error = e.what();
  }
  std::vector<RankReport> all;
  for (const std::string& text : allgather(comm, encode(mine))) all.push_back(decode_report(text));
  return all;
}

std::string format_report(const std::vector<RankReport>& ranks, std::string_view domain) {
  std::set<std::string> hosts;
  for (const RankReport& r : ranks) hosts.insert(r.host);
  std::string out = "coheriq: domain " + printable(domain) + " on " + std::to_string(ranks.size()) +
                    (ranks.size() == 1 ? " rank, " : " ranks, ") + std::to_string(hosts.size()) +
                    (hosts.size() == 1 ? " node\n" : " nodes\n");
  if (ranks.empty()) return out;

  // The features every rank has; each row shows what it has beyond them and what it disabled.
  std::vector<std::string> common;
  bool first = true;
  for (const RankReport& r : ranks) {
    if (r.cpu.arch.empty()) continue;  // coheriq::host() failed there
    if (first) {
      common = r.cpu.features;
      first = false;
      continue;
    }
    std::vector<std::string> kept;
    std::set_intersection(common.begin(), common.end(), r.cpu.features.begin(),
                          r.cpu.features.end(), std::back_inserter(kept));
    common = std::move(kept);
  }
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"rank", "host", "node ranks", "engine", "threads", "supported",
                  "CPU features beyond the common set"});
  for (const RankReport& r : ranks) {
    if (!r.error.empty()) {
      rows.push_back({std::to_string(r.rank), printable(r.host), std::to_string(r.node_ranks), "-",
                      r.threads ? std::to_string(r.threads) : "-",
                      r.supported.empty() ? "-" : join(r.supported, ","), "error: " + r.error});
      continue;
    }
    std::vector<std::string> extra;
    for (const std::string& f : r.cpu.features) {
      if (!std::binary_search(common.begin(), common.end(), f)) extra.push_back("+" + f);
    }
    std::string diff = extra.empty() ? "-" : join(extra, " ");
    if (!r.cpu.disabled.empty()) diff += " (disabled: " + join(r.cpu.disabled, ",") + ")";
    rows.push_back({std::to_string(r.rank), printable(r.host), std::to_string(r.node_ranks),
                    r.engine + (r.state == "open" ? " (not chosen yet)" : ""),
                    std::to_string(r.threads), join(r.supported, ","), diff});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 2, ' ');
    }
    out += line + "\n";
  }
  out +=
      "common CPU features: " + (common.empty() ? std::string("none") : join(common, " ")) + "\n";
  std::vector<std::string> cpus;
  for (const RankReport& r : ranks) cpus.push_back(r.cpu.arch.empty() ? "" : cpu_text(r.cpu));
  std::vector<std::string> hosts_of;
  for (const RankReport& r : ranks) hosts_of.push_back(r.host);
  for (const auto& [cpu, members] : group(cpus)) {
    if (!cpu.empty()) out += "cpu of " + ranks_on(members, hosts_of) + ": " + cpu + "\n";
  }
  return out;
}

}  // namespace coheriq::mpi
