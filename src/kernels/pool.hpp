// The kernels' thread pool: baseline code that runs the parts of one call on several threads.
// Engines stay pure computation: a caller (api.cpp) cuts a product into independent parts and
// each part calls the engine on its own block, so no ISA code knows about threads.
//
// The rule for concurrent callers: one parallel region runs at a time, process-wide. A call
// made while another thread's region runs, from inside a pool worker, or by a thread that holds a
// team (a part that calls a kernel with threads of its own) gets a team of one and runs every
// part on the calling thread. No call ever waits for another caller's region, so
// nothing deadlocks, and the threads busy with kernels are at most the pool (num_threads() - 1
// workers) plus the user's own calling threads.
//
// Lifetime: the pool is created on first use and never destroyed (its workers sleep until the
// process exits), so a kernel called from a static destructor still finds it. After fork the
// child starts with no pool and builds a new one on its first parallel call (pthread_atfork).
#pragma once

#include <cstddef>
#include <utility>

namespace coheriq::kernels::pool {

class Pool;

// The parts of a region: body(part) for part in [0, parts). A body must not throw.
using PartFunction = void (*)(void* context, std::size_t part) noexcept;

// A team of threads for one region, held for the lifetime of the object.
class Team {
 public:
  // Up to `wanted` threads, the calling thread included: fewer when the pool is busy with
  // another region, when called from a pool worker or by a thread that holds a team, or when
  // threads cannot be created.
  explicit Team(std::size_t wanted) noexcept;
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  ~Team();

  std::size_t size() const noexcept { return size_; }

  // Runs body(context, part) for every part in [0, parts) and returns when all have finished.
  // Parts go to whichever thread of the team is free (the caller takes part too), so `parts`
  // may exceed size(); a part's result must not depend on the thread that runs it.
  void run(std::size_t parts, PartFunction body, void* context) noexcept;

  template <class F>
  void run(std::size_t parts, F& f) noexcept {
    run(
        parts, [](void* c, std::size_t part) noexcept { (*static_cast<F*>(c))(part); }, &f);
  }

 private:
  Pool* pool_ = nullptr;  // set while this team holds the pool's region
  std::size_t size_ = 1;
  bool counted_ = false;  // in parallel_teams()
};

// Teams that ran parts on more than one thread (one count per team, however many regions it
// ran) since the process (or the child of a fork) started: lets the tests tell that a product
// took the parallel path.
std::size_t parallel_teams() noexcept;

// The parts of the last region the calling thread ran on more than one thread (0 before any):
// lets the tests tell into how many blocks a product was cut.
std::size_t last_parallel_parts() noexcept;

}  // namespace coheriq::kernels::pool
