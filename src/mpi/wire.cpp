// MPI calls and the wire format of the ranks' descriptions (length-prefixed fields).
#include <climits>
#include <exception>
#include <string>
#include <vector>

#include "mpi/internal.hpp"

namespace coheriq::mpi::internal {
namespace {

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

[[noreturn]] void fail() {
  // Only a rank of another build of this component could send something else.
  throw Error(
      "coheriq: a rank sent a description this rank cannot read; run the same build of "
      "coheriq on every rank");
}

}  // namespace

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    throw Error(std::string("coheriq: ") + call + " failed: " + mpi_error_text(code) +
                "; check the MPI installation and the job's launch (docs/cluster.md)");
  }
}

// Before any collective: a communicator this rank can use. Checked on every rank alike (the same

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

MPI_Comm node_comm(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_of(comm), MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  return node;
}

std::string Reader::str() {
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

long long Reader::num() {
  const std::string s = str();
  try {
    return std::stoll(s);
  } catch (const std::exception&) {
    fail();
  }
}

std::vector<std::string> Reader::list() {
  const long long n = num();
  if (n < 0 || static_cast<std::size_t>(n) > in_.size()) fail();
  std::vector<std::string> items;
  for (long long i = 0; i < n; ++i) items.push_back(str());
  return items;
}

}  // namespace coheriq::mpi::internal
