// Races first uses against enable_engine calls (docs/design.md, "The activation contract"): exactly
// one engine wins, every call runs that engine's code, and every enable_engine of another engine is
// an EngineLockedError. One race per process (the contract is one-way): ctest runs this binary many
// times with different seeds, which change the order in which the threads start.
//
// Usage: coheriq_race_test <seed>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "shapes.hpp"

namespace {

// Every engine here overrides perimeter, so a perimeter result names the winner itself.
constexpr const char* kContenders[] = {"left", "right", "base", "reference", "left", "right"};
constexpr int kCallers = 4;
constexpr int kCallsPerCaller = 200;

struct EnableOutcome {
  std::string engine;
  bool succeeded = false;
  std::string error;  // what() of the exception, or empty
  bool locked_error = false;
};

struct CallOutcome {
  std::vector<std::string> answered_by;  // engine named by each result
  std::string grid_engine;               // the Grid's engine, for the caller that builds one
  std::string error;
};

int failures = 0;

// Busy-waits about `iterations` steps; the volatile store keeps the loop from being removed.
void pause_for(int iterations) {
  volatile int sink = 0;
  for (int i = 0; i < iterations; ++i) sink = i;
  (void)sink;
}

void fail(const std::string& what) {
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <seed>\n", argv[0]);
    return 2;
  }
  const unsigned seed = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  std::mt19937 rng(seed);
  coheriq::materialize<shapes::Domain>();

  std::vector<EnableOutcome> enables(std::size(kContenders));
  std::vector<CallOutcome> calls(kCallers);
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  // A seeded pause before each thread acts, so that different seeds let enablers or callers
  // arrive first.
  std::uniform_int_distribution<int> pause(0, 2000);

  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < enables.size(); ++i) {
    enables[i].engine = kContenders[i];
    threads.emplace_back([&, i, spin = pause(rng)] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      pause_for(spin);
      EnableOutcome& out = enables[i];
      try {
        coheriq::enable_engine(shapes::domain, out.engine);
        out.succeeded = true;
      } catch (const coheriq::EngineLockedError& e) {
        out.error = e.what();
        out.locked_error = true;
      } catch (const std::exception& e) {
        out.error = e.what();
      }
    });
  }
  for (int c = 0; c < kCallers; ++c) {
    threads.emplace_back([&, c, spin = pause(rng)] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      pause_for(spin);
      CallOutcome& out = calls[c];
      try {
        if (c == 0) out.grid_engine = shapes::Grid({1, 2}).engine();
        for (int k = 0; k < kCallsPerCaller; ++k) {
          out.answered_by.emplace_back(shapes::perimeter(1, 2).engine);
        }
      } catch (const std::exception& e) {
        out.error = e.what();
      }
    });
  }
  while (ready.load() != static_cast<int>(threads.size())) std::this_thread::yield();
  go.store(true, std::memory_order_release);
  for (std::thread& t : threads) t.join();

  const coheriq::DomainStatus s = coheriq::status(shapes::domain);
  const std::string& winner = s.engine;
  if (s.state != "locked") fail("domain not locked after the race: " + s.state);

  // Every call ran the winner's code.
  for (int c = 0; c < kCallers; ++c) {
    if (!calls[c].error.empty()) fail("caller threw: " + calls[c].error);
    for (const std::string& engine : calls[c].answered_by) {
      if (engine != winner) fail("a call ran " + engine + ", the winner is " + winner);
    }
  }
  if (calls[0].grid_engine != winner) fail("the Grid is in " + calls[0].grid_engine + "'s layout");

  // enable_engine succeeded exactly for the winner; every other engine got EngineLockedError
  // naming the winner.
  bool winner_enabled = false;
  for (const EnableOutcome& e : enables) {
    if (e.engine == winner) {
      if (!e.succeeded) fail("enable_engine(" + e.engine + ") of the winner failed: " + e.error);
      winner_enabled = winner_enabled || e.succeeded;
    } else if (e.succeeded) {
      fail("enable_engine(" + e.engine + ") succeeded, but " + winner + " won");
    } else if (!e.locked_error) {
      fail("enable_engine(" + e.engine + ") threw something else: " + e.error);
    } else if (e.error.find(winner) == std::string::npos) {
      fail("the EngineLockedError does not name " + winner + ": " + e.error);
    }
  }
  // A winner other than the reference can only come from enable_engine.
  if (winner != "reference" && s.reason != "enable_engine") {
    fail(winner + " won for reason " + s.reason);
  }

  std::printf("seed %u: %s won (%s; locked by %s%s)\n", seed, winner.c_str(), s.reason.c_str(),
              s.locked_by.c_str(), winner_enabled ? "" : "; no enable_engine call succeeded");
  return failures == 0 ? 0 : 1;
}
