// The decision of enable_common_engine over tables of made-up ranks (no MPI run: decide is a pure
// function of the gathered table), and format_report's line about the reproducible mode. The
// jobs under mpirun (mpi.sh) check the same on real ranks; these cases also cover the mode before
// the kernels domain offers it, and tables no single host can produce.
#include <doctest/doctest.h>

#include <coheriq/mpi.hpp>

#include <string>
#include <vector>

#include "mpi/internal.hpp"

namespace {

using coheriq::mpi::internal::decide;
using coheriq::mpi::internal::Decision;
using coheriq::mpi::internal::EngineRow;
using coheriq::mpi::internal::RankState;

constexpr const char* kDomain = "coheriq.kernels";

// The engines of an x86-64 host, highest priority first, all honouring the mode but `fast`.
RankState rank(const std::string& host, bool avx512 = true) {
  RankState s;
  s.host = host;
  s.env_var = "COHERIQ_ENGINE";
  s.state = "open";
  s.engine = "reference";
  s.reason = "default";
  s.mode_var = "COHERIQ_REPRODUCIBLE";
  s.engines = {
      {"fast", avx512, false, avx512 ? "" : "missing avx512f"},
      {"avx512", avx512, true, avx512 ? "" : "missing avx512f"},
      {"avx2", true, true, ""},
      {"reference", true, true, ""},
  };
  return s;
}

// COHERIQ_REPRODUCIBLE set to `value` on that rank (on for "1", as the library reads it).
RankState with_mode(RankState s, const std::string& value) {
  s.mode_set = true;
  s.mode_value = value;
  s.reproducible = value == "1";
  return s;
}

RankState with_engine_var(RankState s, const std::string& value) {
  s.env_set = true;
  s.env_value = value;
  return s;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("mode off: the same engine everywhere, the best every rank supports") {
  const Decision d = decide({rank("a", false), rank("b")}, kDomain);
  CHECK(d.error.empty());
  CHECK(d.engines == std::vector<std::string>{"avx2", "avx2"});
}

TEST_CASE("mode off: unset, empty and 0 agree") {
  const Decision d =
      decide({with_mode(rank("a"), "0"), rank("b"), with_mode(rank("c"), "")}, kDomain);
  CHECK(d.error.empty());
  CHECK(d.engines == std::vector<std::string>{"fast", "fast", "fast"});
}

TEST_CASE("mode on: each rank its own best engine that honours the mode") {
  const Decision d = decide({with_mode(rank("a", false), "1"), with_mode(rank("b"), "1")}, kDomain);
  CHECK(d.error.empty());
  // `fast` is passed over on rank b: it does not honour the mode.
  CHECK(d.engines == std::vector<std::string>{"avx2", "avx512"});
}

TEST_CASE("mode on: auto in a list, and the first entry each rank supports") {
  for (const char* list : {"auto", "avx512,avx2", " avx512 , auto"}) {
    CAPTURE(list);
    const Decision d = decide({with_engine_var(with_mode(rank("a", false), "1"), list),
                               with_engine_var(with_mode(rank("b"), "1"), list)},
                              kDomain);
    CHECK(d.error.empty());
    CHECK(d.engines == std::vector<std::string>{"avx2", "avx512"});
  }
}

TEST_CASE("mode on: a rank that supports no entry makes every rank fail, naming it") {
  const Decision d = decide({with_engine_var(with_mode(rank("a", false), "1"), "avx512"),
                             with_engine_var(with_mode(rank("b"), "1"), "avx512"),
                             with_engine_var(with_mode(rank("c", false), "1"), "avx512")},
                            kDomain);
  CHECK(d.engines.empty());
  CHECK(d.kind == Decision::Kind::unsupported);
  CHECK(contains(d.error,
                 "coheriq: enable_common_engine(domain 'coheriq.kernels'): "
                 "COHERIQ_ENGINE=avx512, in the reproducible mode"));
  CHECK(contains(d.error,
                 "no entry is supported on ranks 0,2 on hosts a, c ('avx512': missing "
                 "avx512f on ranks 0,2 on hosts a, c)"));
  CHECK(contains(d.error, "could run in the mode: avx2, reference on ranks 0,2 on hosts a, c"));
}

TEST_CASE("mode on: an entry that does not honour the mode is not run") {
  const Decision d = decide({with_engine_var(with_mode(rank("a"), "1"), "fast")}, kDomain);
  CHECK(d.kind == Decision::Kind::unsupported);
  CHECK(contains(d.error, "'fast': does not honour the reproducible mode on rank 0 on host a"));
}

TEST_CASE("mode on: a typo fails on every rank, even one that would not reach it") {
  const Decision d = decide({with_engine_var(with_mode(rank("a"), "1"), "avx2,avx2x"),
                             with_engine_var(with_mode(rank("b"), "1"), "avx2,avx2x")},
                            kDomain);
  CHECK(d.kind == Decision::Kind::unknown);
  CHECK(contains(d.error,
                 "names 'avx2x', which is not an engine of 'coheriq.kernels' on ranks "
                 "0,1 on hosts a, b"));
}

TEST_CASE("the mode differs between ranks: every rank fails, naming each setting") {
  RankState by_call = rank("d");
  by_call.reproducible = true;  // enable_reproducible in the program, not the variable
  const Decision d =
      decide({with_mode(rank("a"), "1"), rank("b"), with_mode(rank("c"), "0"), by_call}, kDomain);
  CHECK(d.engines.empty());
  CHECK(d.kind == Decision::Kind::error);
  CHECK(contains(d.error,
                 "the reproducible mode differs between ranks: on (COHERIQ_REPRODUCIBLE='1') on "
                 "rank 0 on host a; off (COHERIQ_REPRODUCIBLE unset) on rank 1 on host b; off "
                 "(COHERIQ_REPRODUCIBLE='0') on rank 2 on host c; on (enable_reproducible; "
                 "COHERIQ_REPRODUCIBLE unset) on rank 3 on host d. Turn it on on every rank or "
                 "on none (mpirun -x COHERIQ_REPRODUCIBLE=1"));
}

TEST_CASE("a rank that could not read the mode's variable: its mode alone, the advice named") {
  RankState quiet = rank("a");
  quiet.mode_var.clear();  // another domain's, whose status() threw on its engine variable
  const Decision d = decide({quiet, with_mode(rank("b"), "1")}, kDomain);
  CHECK(contains(d.error, ": off on rank 0 on host a; on (COHERIQ_REPRODUCIBLE='1') on rank 1"));
  CHECK(contains(d.error, "(mpirun -x COHERIQ_REPRODUCIBLE=1 or =0"));
}

TEST_CASE("mode on: a rank locked on another engine than its own choice") {
  RankState locked = with_mode(rank("b"), "1");
  locked.state = "locked";
  locked.locked_by = "dot.f64";
  RankState chosen = with_mode(rank("c", false), "1");
  chosen.state = "chosen";
  chosen.engine = "avx2";  // its own choice: fine
  chosen.reason = "enable_engine";
  const Decision d = decide({with_mode(rank("a"), "1"), locked, chosen}, kDomain);
  CHECK(d.kind == Decision::Kind::locked);
  CHECK(contains(d.error,
                 "in the reproducible mode each rank runs its own choice (auto), but the "
                 "domain already has another engine: 'reference' is locked by the first "
                 "use of dot.f64 instead of 'avx512' on rank 1 on host b. Call"));
  const Decision fine = decide({with_mode(rank("a"), "1"), chosen}, kDomain);
  CHECK(fine.engines == std::vector<std::string>{"avx512", "avx2"});
}

TEST_CASE("a rank's description crosses the wire whole") {
  RankState s = with_engine_var(with_mode(rank("n1", false), "1"), "avx2");
  s.error = "x:y";
  const RankState t = coheriq::mpi::internal::decode(coheriq::mpi::internal::encode(s));
  CHECK(t.host == s.host);
  CHECK(t.error == s.error);
  CHECK(t.env_value == "avx2");
  CHECK(t.reproducible);
  CHECK(t.mode_var == "COHERIQ_REPRODUCIBLE");
  CHECK(t.mode_set);
  CHECK(t.mode_value == "1");
  REQUIRE(t.engines.size() == s.engines.size());
  CHECK(t.engines[0].name == "fast");
  CHECK_FALSE(t.engines[0].reproducible);
  CHECK(t.engines[0].why_not == "missing avx512f");
  CHECK(t.engines[1].reproducible);
}

TEST_CASE("format_report: a line about the mode only when some rank has it on") {
  std::vector<coheriq::mpi::RankReport> ranks(2);
  for (int r = 0; r < 2; ++r) {
    ranks[static_cast<std::size_t>(r)].rank = r;
    ranks[static_cast<std::size_t>(r)].host = "vm";
    ranks[static_cast<std::size_t>(r)].engine = r == 0 ? "avx2" : "avx512";
    ranks[static_cast<std::size_t>(r)].state = "chosen";
  }
  CHECK_FALSE(contains(coheriq::mpi::format_report(ranks, kDomain), "reproducible"));
  ranks[0].reproducible = ranks[1].reproducible = true;
  ranks[0].reproducible_by = ranks[1].reproducible_by = "COHERIQ_REPRODUCIBLE=1";
  CHECK(contains(coheriq::mpi::format_report(ranks, kDomain),
                 "\nreproducible mode: on (COHERIQ_REPRODUCIBLE=1): each rank runs its own "
                 "engine, and results are bitwise the same on all of them\n"));
  ranks[1].reproducible_by = "enable_reproducible";
  CHECK(contains(coheriq::mpi::format_report(ranks, kDomain),
                 "\nreproducible mode: on (COHERIQ_REPRODUCIBLE=1) on rank 0 on host vm; on "
                 "(enable_reproducible) on rank 1 on host vm: each rank runs"));
  ranks[1].reproducible = false;
  CHECK(contains(coheriq::mpi::format_report(ranks, kDomain),
                 "\nreproducible mode: on (COHERIQ_REPRODUCIBLE=1) on rank 0 on host vm; off on "
                 "rank 1 on host vm: results differ between ranks; turn it on on every rank or "
                 "on none\n"));
}
