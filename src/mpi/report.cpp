// gather_report and format_report: every rank's row, and the text a job log prints.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/mpi.hpp>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "core/env.hpp"
#include "core/text.hpp"
#include "mpi/internal.hpp"

namespace coheriq::mpi {
namespace {

using detail::join;
using detail::printable;
using namespace internal;

int node_size(MPI_Comm comm) {
  MPI_Comm node = node_comm(comm);
  const int size = size_of(node);
  MPI_Comm_free(&node);
  return size;
}

std::string encode(const RankReport& r) {
  Writer w;
  w.num(r.rank).str(r.host).num(r.node_ranks);
  w.str(r.cpu.arch).str(r.cpu.brand).list(r.cpu.features).list(r.cpu.disabled).str(r.cpu.vendor);
  w.num(r.cpu.family).num(r.cpu.model).num(static_cast<long long>(r.cpu.vector_bits));
  w.num(static_cast<long long>(r.cpu.l1d_bytes)).num(static_cast<long long>(r.cpu.l2_bytes));
  w.list(r.supported).str(r.engine).str(r.state).num(static_cast<long long>(r.threads));
  w.str(r.error).num(r.reproducible).str(r.reproducible_by);
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
  r.reproducible = rd.num() != 0;
  r.reproducible_by = rd.str();
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

// The reproducible mode, when some rank has it on (with the mode off the report is as it was):
// on everywhere, the ranks' engines may differ and their results do not; on some ranks only, the
// results differ (a job that enable_common_engine would refuse). Ranks in error do not count.
std::string mode_line(const std::vector<RankReport>& ranks, const std::vector<std::string>& hosts) {
  std::vector<std::string> keys;
  bool any_on = false;
  bool any_off = false;
  for (const RankReport& r : ranks) {
    if (!r.error.empty()) {
      keys.push_back("");
    } else if (r.reproducible) {
      keys.push_back("on (" + r.reproducible_by + ")");
      any_on = true;
    } else {
      keys.push_back("off");
      any_off = true;
    }
  }
  if (!any_on) return "";
  std::vector<std::string> parts;  // "on (COHERIQ_REPRODUCIBLE=1) on ranks 0-3 on host vm"
  std::string only;                // the one setting, when every rank has the same
  for (const auto& [mode, members] : group(keys)) {
    if (mode.empty()) continue;
    parts.push_back(mode + " on " + ranks_on(members, hosts));
    only = mode;
  }
  if (any_off) {
    return "reproducible mode: " + join(parts, "; ") +
           ": results differ between ranks; turn it on on every rank or on none\n";
  }
  return "reproducible mode: " + (parts.size() == 1 ? only : join(parts, "; ")) +
         ": each rank runs its own engine, and results are bitwise the same on all of them\n";
}

}  // namespace

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
    mine.reproducible = status.reproducible;
    if (mine.reproducible) {
      // The variable when it says so (it would have turned the mode on by itself), else the call.
      const char* value = status.reproducible_env_var.empty()
                              ? nullptr
                              : std::getenv(status.reproducible_env_var.c_str());
      mine.reproducible_by = value != nullptr && detail::parse_switch(value) == true
                                 ? status.reproducible_env_var + "=1"
                                 : "enable_reproducible";
    }
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
  out += mode_line(ranks, hosts_of);
  return out;
}

}  // namespace coheriq::mpi
