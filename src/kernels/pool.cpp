// The kernels' thread pool (pool.hpp): workers that take parts of the one region in progress.
#include "kernels/pool.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace coheriq::kernels::pool {

class Pool {
 public:
  // Held by the team whose region runs (try_lock: a second caller runs serially instead).
  std::mutex region;

  // Everything below is guarded by `mutex`.
  std::mutex mutex;
  std::condition_variable work;  // a part is available to the workers of the team
  std::condition_variable done;  // the last part of the region has finished
  std::vector<std::thread> workers;
  PartFunction body = nullptr;
  void* context = nullptr;
  std::size_t helpers = 0;   // workers 0 .. helpers - 1 belong to the team
  std::size_t parts = 0;     // of the region in progress; 0 between regions
  std::size_t next = 0;      // the next part nobody has taken
  std::size_t finished = 0;  // parts that have returned

  // Grows the pool to `count` workers, fewer if the system refuses threads. Called with
  // `region` held, so no region runs meanwhile.
  void grow(std::size_t count) noexcept;

 private:
  void work_loop(std::size_t index) noexcept;
};

namespace {

thread_local bool in_worker = false;
// The calling thread holds a team's region: a team it asks for meanwhile (a part of its region
// calling a kernel that has threads of its own) is a team of one, as in a worker.
thread_local bool holds_region = false;
std::atomic<std::size_t> teams_run{0};
// The parts of the last region this thread ran on more than one thread (last_parallel_parts).
thread_local std::size_t last_parts = 0;

// The pool, created on first use and never destroyed; the child of a fork forgets it (its
// workers do not exist there) and creates its own.
std::atomic<Pool*> the_pool{nullptr};

Pool* instance() {
  Pool* pool = the_pool.load(std::memory_order_acquire);
  if (pool != nullptr) return pool;
  Pool* fresh = new (std::nothrow) Pool;
  if (fresh == nullptr) return nullptr;
  if (the_pool.compare_exchange_strong(pool, fresh, std::memory_order_acq_rel)) return fresh;
  delete fresh;  // another thread created it first; it has no workers yet
  return pool;
}

// The child has one thread; the old pool's workers, mutexes and condition variables belong to
// the parent (a mutex may even be held by a thread that does not exist here). Leaked on purpose:
// destroying it would join threads that are not there.
void forget_pool_in_child() noexcept {
  the_pool.store(nullptr, std::memory_order_relaxed);
  teams_run.store(0, std::memory_order_relaxed);
}

// Registered when the library is loaded, before any thread of ours exists.
[[maybe_unused]] const int kAtForkRegistered =
    pthread_atfork(nullptr, nullptr, &forget_pool_in_child);

}  // namespace

void Pool::grow(std::size_t count) noexcept {
  if (workers.size() >= count) return;
  // Workers take no signals: they belong to the application's threads.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  try {
    workers.reserve(count);
    while (workers.size() < count) {
      const std::size_t index = workers.size();
      workers.emplace_back([this, index] { work_loop(index); });
    }
  } catch (const std::exception&) {
    // Out of threads or memory: the team is as large as the pool got.
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void Pool::work_loop(std::size_t index) noexcept {
  in_worker = true;
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    work.wait(lock, [&] { return index < helpers && next < parts; });
    const std::size_t part = next++;
    const PartFunction f = body;
    void* const c = context;
    lock.unlock();
    f(c, part);
    lock.lock();
    if (++finished == parts) done.notify_one();
  }
}

Team::Team(std::size_t wanted) noexcept {
  if (wanted <= 1 || in_worker || holds_region) return;
  Pool* pool = instance();
  if (pool == nullptr || !pool->region.try_lock()) return;
  pool->grow(wanted - 1);
  pool_ = pool;
  holds_region = true;
  size_ = std::min(wanted, pool->workers.size() + 1);
}

Team::~Team() {
  if (pool_ == nullptr) return;
  holds_region = false;
  pool_->region.unlock();
}

void Team::run(std::size_t parts, PartFunction body, void* context) noexcept {
  if (pool_ == nullptr || size_ <= 1 || parts <= 1) {
    for (std::size_t part = 0; part < parts; ++part) body(context, part);
    return;
  }
  if (!counted_) {
    teams_run.fetch_add(1, std::memory_order_relaxed);
    counted_ = true;
  }
  last_parts = parts;
  Pool& p = *pool_;
  std::unique_lock<std::mutex> lock(p.mutex);
  p.body = body;
  p.context = context;
  p.helpers = size_ - 1;
  p.parts = parts;
  p.next = 0;
  p.finished = 0;
  p.work.notify_all();
  // The caller takes parts like any worker, then waits for the ones still running.
  while (p.next < p.parts) {
    const std::size_t part = p.next++;
    lock.unlock();
    body(context, part);
    lock.lock();
    ++p.finished;
  }
  p.done.wait(lock, [&] { return p.finished == p.parts; });
  p.parts = 0;
  p.helpers = 0;
  p.body = nullptr;
  p.context = nullptr;
}

std::size_t parallel_teams() noexcept { return teams_run.load(std::memory_order_relaxed); }

std::size_t last_parallel_parts() noexcept { return last_parts; }

}  // namespace coheriq::kernels::pool
