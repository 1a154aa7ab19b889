// Coheriq on MPI: every rank of a job runs the same engine (or, in the reproducible mode, each rank
// its own, with the same results), or every rank fails with one message.
//
// The optional component coheriq::mpi (find_package(coheriq COMPONENTS mpi)), built when CMake
// finds MPI (OpenMPI from Debian). Every function here is collective over `comm`: every rank of
// it must call it, in the same order, after MPI_Init. None of them leaves a rank waiting in a
// collective while another throws: the ranks agree on success or failure before anyone throws,
// and then all throw the same coheriq::Error. Recipes and the report: docs/cluster.md.
#pragma once

#include <mpi.h>

#include <coheriq/coheriq.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq::mpi {

// Enables the same engine of `domain` on every rank and returns its name. Every rank learns what
// every other rank supports; then:
// - the domain's variable (COHERIQ_ENGINE for the kernels) names engines: the first entry that
//   every rank supports ("auto" in the list: the highest-priority engine every rank supports);
// - unset, empty or "auto": the highest-priority engine every rank supports.
// With the domain's reproducible mode on (coheriq::enable_reproducible, or COHERIQ_REPRODUCIBLE=1
// for the kernels) every engine that honours the mode gives bitwise the same results, so no rank
// gives up its best engine: each rank enables the first entry that it supports itself ("auto": its
// highest-priority engine that honours the mode), and the call returns this rank's engine. Every
// named engine must still exist on every rank.
// The variable and the mode must mean the same on every rank (unset, empty and "auto" agree; for
// the mode, unset, empty and "0"). Throws coheriq::Error, the same on every rank, naming the ranks
// and hosts that differ, when: the variable or the mode differs between ranks, no entry is
// supported on every rank (in the mode: some rank supports no entry), a rank already uses another
// engine of the domain than its choice (call this before the first use, instead of enable_engine),
// a rank cannot describe itself (unknown domain, malformed COHERIQ_DISABLE_CPU_FEATURES,
// COHERIQ_REPRODUCIBLE or COHERIQ_NUM_THREADS), or enabling fails on some ranks (a plugin library
// missing there). Only in that last case do the ranks that enabled their engine keep it (enabling
// is one-way); otherwise a failed call changes nothing on any rank. An engine that fails to enable
// on every rank (in the mode: on a rank) is passed over there like an unsupported one. For the
// kernels domain (coheriq.kernels) it also calls share_node_threads(comm).
std::string enable_common_engine(MPI_Comm comm, std::string_view domain);

// Divides the kernels' default thread count among the ranks that share CPUs on a node
// (MPI_Comm_split_type MPI_COMM_TYPE_SHARED, then the ranks whose affinity masks overlap this
// rank's): each gets max(1, CPUs of its affinity mask / ranks sharing them). Leaves the count
// alone when it was set explicitly: COHERIQ_NUM_THREADS is set, or set_num_threads chose a count
// other than the default. Returns coheriq::kernels::num_threads() afterwards. A malformed
// COHERIQ_NUM_THREADS on any rank: every rank throws coheriq::Error naming it.
std::size_t share_node_threads(MPI_Comm comm);

// One rank, as gather_report saw it.
struct RankReport {
  int rank = 0;
  std::string host;                    // MPI_Get_processor_name
  int node_ranks = 1;                  // ranks of `comm` on the same node
  HostInfo cpu;                        // coheriq::host() on that rank
  std::vector<std::string> supported;  // engines of the domain supported there, by priority
  std::string engine;                  // coheriq::active_engine(domain), or empty on error
  std::string state;                   // "open", "chosen" or "locked"
  std::size_t threads = 0;             // coheriq::kernels::num_threads(), 0 on error
  std::string error;                   // why the rank could not describe itself, or empty
  bool reproducible = false;           // DomainStatus::reproducible: the mode is on there
  std::string reproducible_by;         // what turned it on ("COHERIQ_REPRODUCIBLE=1" or
                                       // "enable_reproducible"), or empty
};

// Every rank's row, on every rank, in rank order. Never throws for one rank's trouble: that rank's
// `error` says what went wrong.
std::vector<RankReport> gather_report(MPI_Comm comm, std::string_view domain);

// The report as text for a job log (rank 0 prints it): one line per rank (host, engine, threads,
// supported engines, the CPU features that differ from the set every rank has), then that common
// set, each distinct CPU and, when some rank has the reproducible mode on, a line that says so.
// Not collective.
std::string format_report(const std::vector<RankReport>& ranks, std::string_view domain);

}  // namespace coheriq::mpi
