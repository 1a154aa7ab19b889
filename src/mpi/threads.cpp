// share_node_threads: the kernels' default thread count divided among the ranks that share CPUs.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/mpi.hpp>

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "mpi/internal.hpp"

namespace coheriq::mpi {
namespace {

using namespace internal;

cpu_set_t affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    CPU_ZERO(&set);
    CPU_SET(0, &set);  // what threads.cpp assumes too: one CPU when the mask cannot be read
  }
  return set;
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
                detail::join(parts, "; ") + ". Fix COHERIQ_NUM_THREADS on those ranks and rerun");
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

}  // namespace coheriq::mpi
