// test.shapes: the framework's test domain.
//
// Three plain candidates whose results name the engine that computed them (so a test sees which
// engine answered), one candidate class (Grid) whose layout engines may change, and built-in
// engines arranged to exercise composition:
//
//   engine                bases                  requires  layout of Grid  overrides
//   base                  (reference)                                      area perimeter volume
//   left                  base                                             perimeter
//   right                 base                                             perimeter volume
//   left_first            left, right                                      -        (diamond)
//   right_first           right, left                                      -        (diamond)
//   tangled               left_first, right_first                          -        (no C3 order)
//   cycle_a / cycle_b     each other                                       -        (cycle)
//   orphan                ghost (not registered)                           -        (missing base)
//   wide                  base                   kWideFeature              area
//   wider                 wide                   kWiderFeature             area volume
//   reversed              (reference)                      reversed        grid_store grid_load
//   reversed_load         reversed                                         grid_load
//   reversed_partial      (reference)                      reversed        grid_store (incoherent)
//   paired                reversed                         paired          grid_store (incoherent)
//   paired_fixed          reversed                         paired          grid_store grid_load
//   reversed_fast         (reference)                      reversed        grid_store grid_load
//   paired_repro          reversed_fast                    paired          grid_store grid_load
//   paired_repro_partial  reversed_fast                    paired          grid_store grid_load
//
// Broken engines get the highest priorities, so "auto" proves it passes over them.
//
// The reproducible mode (SHAPES_REPRODUCIBLE=1, or coheriq::enable_reproducible): its kernels
// answer with an engine tag ending in "/repro", so a test sees that the mode's table ran. The
// reference's table for it has every candidate ("reference/repro"), and:
//
//   engine                table for the mode    in the mode
//   base                  area perimeter volume answers "base/repro"
//   left                  (empty)               honours it with base's kernels
//   right_first           (empty)               refused all the same: its base right does not
//   reversed_fast         area                  Grid keeps the reference's layout (no Grid kernel)
//   paired_repro          grid_store grid_load  its own layout, coherent
//   paired_repro_partial  grid_store            incoherent (grid_load from reference/repro)
//   any other engine      none                  does not honour the mode: refused
//
// With the mode off the tables for it change nothing.
#pragma once

#include <coheriq/domain.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace shapes {

// The features wide and wider require, in the target architecture's own cpu_features names (set
// by tests/framework/CMakeLists.txt): avx2 and avx512f on x86-64, asimd and sve on aarch64. The
// tests disable them with COHERIQ_DISABLE_CPU_FEATURES, so each must be a name the host knows.
inline constexpr const char* kWideFeature = COHERIQ_TEST_WIDE_FEATURE;
inline constexpr const char* kWiderFeature = COHERIQ_TEST_WIDER_FEATURE;
// wide's feature and one that no architecture has.
inline constexpr const char* kWideAndUnknownFeature = COHERIQ_TEST_WIDE_FEATURE ",avx9000";

// What the shape candidates return: the value, and the engine whose implementation computed it.
struct Result {
  double value;
  std::string_view engine;
};

namespace cand {

struct grid : coheriq::candidate_class {
  static constexpr std::string_view name = "Grid";
};

struct area : coheriq::candidate<Result(double, double)> {
  static constexpr std::string_view name = "area";
};
struct perimeter : coheriq::candidate<Result(double, double)> {
  static constexpr std::string_view name = "perimeter";
};
struct volume : coheriq::candidate<Result(double, double, double)> {
  static constexpr std::string_view name = "volume";
};
// Writes n cells from `cells` into `storage` (n ints) in the engine's Grid layout.
struct grid_store
    : coheriq::candidate<void(const int*, std::size_t, int*), coheriq::touches<grid>> {
  static constexpr std::string_view name = "grid_store";
};
// Reads logical cell i of a Grid of n cells held in `storage`.
struct grid_load
    : coheriq::candidate<int(const int*, std::size_t, std::size_t), coheriq::touches<grid>> {
  static constexpr std::string_view name = "grid_load";
};

}  // namespace cand

struct Domain {
  static constexpr std::string_view name = "test.shapes";
  static constexpr std::string_view env_var = "SHAPES_ENGINE";
  static constexpr std::string_view abi = "test.shapes/1";
  using classes = coheriq::list<cand::grid>;
  using candidates =
      coheriq::list<cand::area, cand::perimeter, cand::volume, cand::grid_store, cand::grid_load>;
  static const coheriq::OverrideTable& reference();
  static std::vector<coheriq::EngineSpec> builtin_engines();
  // The reproducible mode: both declarations opt in (coheriq/domain.hpp).
  static constexpr std::string_view reproducible_env_var = "SHAPES_REPRODUCIBLE";
  static const coheriq::OverrideTable& reference_reproducible();
};

inline constexpr std::string_view domain = Domain::name;

// ------------------------------ The domain's public API (what callers see)

Result area(double width, double height);
Result perimeter(double width, double height);
Result volume(double width, double height, double depth);

// A candidate class: cells held in the layout of the engine in effect. Constructing one is a
// first use of the domain.
class Grid final {
 public:
  explicit Grid(const std::vector<int>& cells);

  std::size_t size() const { return storage_.size(); }
  int operator[](std::size_t i) const;
  // The representation, exposed so tests can see whose layout it is. Real domains keep it opaque.
  const std::vector<int>& storage() const { return storage_; }
  // The engine whose layout the cells are in.
  const std::string& engine() const { return engine_; }

 private:
  std::vector<int> storage_;
  std::string engine_;
};

// A third-party engine linked into the test ("static" origin once registered): on top of `left`,
// overrides volume. Register it with coheriq::register_engine before the first use.
coheriq::EngineSpec outside_engine();

}  // namespace shapes
