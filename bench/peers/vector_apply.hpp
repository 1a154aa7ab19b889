// The loops that run a peer's vector function (SLEEF, libmvec) over arrays: full vectors, then
// the tail through a padded stack copy (the same vector function, so the same accuracy).
// Included inside the namespace of each <peer>_<isa>.cpp translation unit, which passes its
// ISA's unaligned load and store. Deliberately no include guard: once per ISA translation unit.
#include <cstddef>

namespace {

// F: a SLEEF function pointer (its return type carries sleef.h's CONST attribute).
template <std::size_t kLanes, class T, class Load, class Store, class F>
__attribute__((always_inline)) inline void apply(F f, Load load, Store store, std::size_t n,
                                                 const T* x, T* y) {
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(y + i, f(load(x + i)));
  if (i < n) {
    T tail[kLanes] = {};
    for (std::size_t j = 0; j < n - i; ++j) tail[j] = x[i + j];
    store(tail, f(load(tail)));
    for (std::size_t j = 0; j < n - i; ++j) y[i + j] = tail[j];
  }
}

template <std::size_t kLanes, class T, class Load, class Store, class F>
__attribute__((always_inline)) inline void apply2(F f, Load load, Store store, std::size_t n,
                                                  const T* x, const T* y, T* z) {
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(z + i, f(load(x + i), load(y + i)));
  if (i < n) {
    T tx[kLanes] = {}, ty[kLanes] = {};
    for (std::size_t j = 0; j < n - i; ++j) {
      tx[j] = x[i + j];
      ty[j] = y[i + j];
    }
    store(tx, f(load(tx), load(ty)));
    for (std::size_t j = 0; j < n - i; ++j) z[i + j] = tx[j];
  }
}

}  // namespace
