// The MPI component's internals, shared by its files, one job each: wire.cpp (MPI calls and the
// wire format of the ranks' descriptions), ranks.cpp (how ranks are named in messages),
// decision.cpp (enable_common_engine and its decision), threads.cpp (share_node_threads) and
// report.cpp (gather_report, format_report).
//
// Each collective runs in two steps: every rank describes itself into a string, without throwing
// (a failure becomes part of the description), then every rank gathers every description
// (MPI_Allgatherv) and computes the same decision from the same data. So all ranks reach every
// collective call, and all throw or none does.
#pragma once

#include <mpi.h>

#include <coheriq/coheriq.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coheriq::mpi::internal {

// ------------------------------ MPI calls (wire.cpp)

// Throws coheriq::Error naming `call` when `code` is not MPI_SUCCESS.
void check(int code, const char* call);
// Before any collective: a communicator this rank can use. Checked on every rank alike (the same
// program), so a refusal here cannot leave another rank waiting.
void require_usable(MPI_Comm comm, const char* function);
int rank_of(MPI_Comm comm);
int size_of(MPI_Comm comm);
// Every rank's string, on every rank, in rank order.
std::vector<std::string> allgather(MPI_Comm comm, const std::string& mine);
std::string processor_name();
// The ranks of `comm` on this node (MPI_COMM_TYPE_SHARED); the caller frees it.
MPI_Comm node_comm(MPI_Comm comm);

// ------------------------------ The wire format (wire.cpp)

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

// Reads what a Writer wrote; throws coheriq::Error on anything else (only a rank of another build
// of this component could send something else).
class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  std::string str();
  long long num();
  std::vector<std::string> list();

 private:
  const std::string& in_;
  std::size_t pos_ = 0;
};

// ------------------------------ Ranks in messages (ranks.cpp)

// "rank 1 on host n1", "ranks 0-3,6 on hosts n1, n2 and 3 more"
std::string ranks_on(const std::vector<int>& ranks, const std::vector<std::string>& hosts);
// Ranks grouped by a per-rank text, groups in order of their first rank.
std::vector<std::pair<std::string, std::vector<int>>> group(const std::vector<std::string>& keys);
// The name-based API reaches only domains that registered themselves; the kernels domain does
// when its API is linked, which this component ensures by calling into it (never locks). Its
// errors (a malformed COHERIQ_ENGINE) are seen again, and reported, by the caller.
void materialize_kernels(std::string_view domain);

// ------------------------------ The choice of engines (decision.cpp)

// One engine of the domain as one rank sees it.
struct EngineRow {
  std::string name;
  bool supported = false;
  bool reproducible = false;  // EngineInfo::reproducible: it honours the reproducible mode
  std::string why_not;        // "missing avx512f", "cannot be enabled (...)"
};

// What one rank sends the others before the choice.
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
  // The reproducible mode: on or off (DomainStatus::reproducible), its variable (empty when the
  // domain has no mode, or this rank could not tell it) and that variable's raw value, for
  // messages.
  bool reproducible = false;
  std::string mode_var;
  bool mode_set = false;
  std::string mode_value;
  std::vector<EngineRow> engines;  // highest priority first
};

std::string encode(const RankState& s);
RankState decode(const std::string& text);

struct Decision {
  // Per rank, in rank order: the same engine everywhere, or in the reproducible mode each rank's
  // own. Empty on failure.
  std::vector<std::string> engines;
  std::string error;
  enum class Kind { error, unknown, unsupported, locked } kind = Kind::error;
};

// The same function of the same table on every rank, so the same decision everywhere; a pure
// function of its arguments (tests/mpi/decision_test.cpp feeds it tables of made-up ranks).
Decision decide(const std::vector<RankState>& ranks, std::string_view domain);

}  // namespace coheriq::mpi::internal
