// test.shapes: reference, built-in engines and the public API. See shapes.hpp for the engine map.
#include "shapes.hpp"

#include <coheriq/engine.hpp>

namespace shapes {
namespace {

using coheriq::implement;

// ------------------------------ Shape implementations, one instance per engine name

template <const std::string_view& Engine>
Result area_of(double width, double height) {
  return {width * height, Engine};
}
template <const std::string_view& Engine>
Result perimeter_of(double width, double height) {
  return {2 * (width + height), Engine};
}
template <const std::string_view& Engine>
Result volume_of(double width, double height, double depth) {
  return {width * height * depth, Engine};
}

// ------------------------------ Grid layouts
// reference: cells in order. reversed: last cell first. paired: neighbours swapped (0<->1, ...).

void store_in_order(const int* cells, std::size_t n, int* storage) {
  for (std::size_t i = 0; i < n; ++i) storage[i] = cells[i];
}
int load_in_order(const int* storage, std::size_t, std::size_t i) { return storage[i]; }

void store_reversed(const int* cells, std::size_t n, int* storage) {
  for (std::size_t i = 0; i < n; ++i) storage[n - 1 - i] = cells[i];
}
int load_reversed(const int* storage, std::size_t n, std::size_t i) { return storage[n - 1 - i]; }
// The same layout read another way: an override that keeps the inherited layout is coherent.
int load_reversed_from_end(const int* storage, std::size_t n, std::size_t i) {
  const int* end = storage + n;
  return *(end - 1 - static_cast<std::ptrdiff_t>(i));
}

// The paired position of cell i; an odd last cell stays where it is.
std::size_t paired_index(std::size_t n, std::size_t i) {
  const std::size_t j = i ^ 1;
  return j < n ? j : i;
}
void store_paired(const int* cells, std::size_t n, int* storage) {
  for (std::size_t i = 0; i < n; ++i) storage[paired_index(n, i)] = cells[i];
}
int load_paired(const int* storage, std::size_t n, std::size_t i) {
  return storage[paired_index(n, i)];
}

// ------------------------------ Override tables

constexpr std::string_view kReference = "reference";
constexpr std::string_view kBase = "base";
constexpr std::string_view kLeft = "left";
constexpr std::string_view kRight = "right";
constexpr std::string_view kWide = "wide";
constexpr std::string_view kWider = "wider";
constexpr std::string_view kOutside = "outside";
// The reproducible mode's kernels answer with tags of their own, so a test sees which table ran.
constexpr std::string_view kReferenceRepro = "reference/repro";
constexpr std::string_view kBaseRepro = "base/repro";
constexpr std::string_view kReversedFastRepro = "reversed_fast/repro";

constexpr coheriq::Override reference_overrides[] = {
    implement<cand::area, &area_of<kReference>>(),
    implement<cand::perimeter, &perimeter_of<kReference>>(),
    implement<cand::volume, &volume_of<kReference>>(),
    implement<cand::grid_store, &store_in_order>(),
    implement<cand::grid_load, &load_in_order>(),
};
constexpr coheriq::OverrideTable reference_table = coheriq::table_of(reference_overrides);

constexpr coheriq::Override base_overrides[] = {
    implement<cand::area, &area_of<kBase>>(),
    implement<cand::perimeter, &perimeter_of<kBase>>(),
    implement<cand::volume, &volume_of<kBase>>(),
};
constexpr coheriq::OverrideTable base_table = coheriq::table_of(base_overrides);

constexpr coheriq::Override left_overrides[] = {
    implement<cand::perimeter, &perimeter_of<kLeft>>(),
};
constexpr coheriq::OverrideTable left_table = coheriq::table_of(left_overrides);

constexpr coheriq::Override right_overrides[] = {
    implement<cand::perimeter, &perimeter_of<kRight>>(),
    implement<cand::volume, &volume_of<kRight>>(),
};
constexpr coheriq::OverrideTable right_table = coheriq::table_of(right_overrides);

constexpr coheriq::Override wide_overrides[] = {
    implement<cand::area, &area_of<kWide>>(),
};
constexpr coheriq::OverrideTable wide_table = coheriq::table_of(wide_overrides);

constexpr coheriq::Override wider_overrides[] = {
    implement<cand::area, &area_of<kWider>>(),
    implement<cand::volume, &volume_of<kWider>>(),
};
constexpr coheriq::OverrideTable wider_table = coheriq::table_of(wider_overrides);

constexpr coheriq::Override reversed_overrides[] = {
    implement<cand::grid_store, &store_reversed>(),
    implement<cand::grid_load, &load_reversed>(),
};
constexpr coheriq::OverrideTable reversed_table = coheriq::table_of(reversed_overrides);

constexpr coheriq::Override reversed_load_overrides[] = {
    implement<cand::grid_load, &load_reversed_from_end>(),
};
constexpr coheriq::OverrideTable reversed_load_table = coheriq::table_of(reversed_load_overrides);

// Changes the layout but keeps the inherited grid_load: incoherent.
constexpr coheriq::Override reversed_partial_overrides[] = {
    implement<cand::grid_store, &store_reversed>(),
};
constexpr coheriq::OverrideTable reversed_partial_table =
    coheriq::table_of(reversed_partial_overrides);

// Changes reversed's layout but inherits reversed's grid_load: incoherent.
constexpr coheriq::Override paired_overrides[] = {
    implement<cand::grid_store, &store_paired>(),
};
constexpr coheriq::OverrideTable paired_table = coheriq::table_of(paired_overrides);

constexpr coheriq::Override paired_fixed_overrides[] = {
    implement<cand::grid_store, &store_paired>(),
    implement<cand::grid_load, &load_paired>(),
};
constexpr coheriq::OverrideTable paired_fixed_table = coheriq::table_of(paired_fixed_overrides);

constexpr coheriq::Override outside_overrides[] = {
    implement<cand::volume, &volume_of<kOutside>>(),
};
constexpr coheriq::OverrideTable outside_table = coheriq::table_of(outside_overrides);

// ------------------------------ Tables for the reproducible mode

// The reference needs every candidate in the mode (the framework checks); Grid keeps its layout.
constexpr coheriq::Override reference_repro_overrides[] = {
    implement<cand::area, &area_of<kReferenceRepro>>(),
    implement<cand::perimeter, &perimeter_of<kReferenceRepro>>(),
    implement<cand::volume, &volume_of<kReferenceRepro>>(),
    implement<cand::grid_store, &store_in_order>(),
    implement<cand::grid_load, &load_in_order>(),
};
constexpr coheriq::OverrideTable reference_repro_table =
    coheriq::table_of(reference_repro_overrides);

constexpr coheriq::Override base_repro_overrides[] = {
    implement<cand::area, &area_of<kBaseRepro>>(),
    implement<cand::perimeter, &perimeter_of<kBaseRepro>>(),
    implement<cand::volume, &volume_of<kBaseRepro>>(),
};
constexpr coheriq::OverrideTable base_repro_table = coheriq::table_of(base_repro_overrides);

// Honours the mode with its bases' kernels (a C array cannot be empty: no table_of).
constexpr coheriq::OverrideTable empty_table{nullptr, 0};

// reversed_fast's table for the mode touches no Grid kernel: in the mode, Grid's layout is its
// base's, though its normal table defines one.
constexpr coheriq::Override reversed_fast_repro_overrides[] = {
    implement<cand::area, &area_of<kReversedFastRepro>>(),
};
constexpr coheriq::OverrideTable reversed_fast_repro_table =
    coheriq::table_of(reversed_fast_repro_overrides);

coheriq::EngineSpec spec(std::string name, std::vector<std::string> bases, int priority,
                         const coheriq::OverrideTable* overrides) {
  coheriq::EngineSpec e;
  e.domain = std::string(domain);
  e.description = "test engine " + name;
  e.name = std::move(name);
  e.bases = std::move(bases);
  e.priority = priority;
  e.overrides = overrides;
  return e;
}

coheriq::EngineSpec with_layout(coheriq::EngineSpec e, std::string layout,
                                std::string reproducible_name = "") {
  e.layouts = {{std::string(cand::grid::name), std::move(layout), std::move(reproducible_name)}};
  return e;
}

coheriq::EngineSpec requiring(coheriq::EngineSpec e, std::string feature) {
  e.required_features = {std::move(feature)};
  return e;
}

coheriq::EngineSpec honouring(coheriq::EngineSpec e, const coheriq::OverrideTable* reproducible) {
  e.reproducible = reproducible;
  return e;
}

}  // namespace

const coheriq::OverrideTable& Domain::reference() { return reference_table; }
const coheriq::OverrideTable& Domain::reference_reproducible() { return reference_repro_table; }

std::vector<coheriq::EngineSpec> Domain::builtin_engines() {
  return {
      honouring(spec("base", {}, 10, &base_table), &base_repro_table),
      honouring(spec("left", {"base"}, 21, &left_table), &empty_table),
      spec("right", {"base"}, 20, &right_table),
      spec("left_first", {"left", "right"}, 31, nullptr),
      honouring(spec("right_first", {"right", "left"}, 30, nullptr), &empty_table),
      spec("tangled", {"left_first", "right_first"}, 95, nullptr),
      spec("cycle_a", {"cycle_b"}, 94, nullptr),
      spec("cycle_b", {"cycle_a"}, 93, nullptr),
      spec("orphan", {"ghost"}, 92, nullptr),
      requiring(spec("wide", {"base"}, 50, &wide_table), kWideFeature),
      requiring(spec("wider", {"wide"}, 60, &wider_table), kWiderFeature),
      with_layout(spec("reversed", {}, 5, &reversed_table), "reversed"),
      spec("reversed_load", {"reversed"}, 4, &reversed_load_table),
      with_layout(spec("reversed_partial", {}, 91, &reversed_partial_table), "reversed"),
      with_layout(spec("paired", {"reversed"}, 90, &paired_table), "paired"),
      with_layout(spec("paired_fixed", {"reversed"}, 6, &paired_fixed_table), "paired"),
      honouring(with_layout(spec("reversed_fast", {}, 3, &reversed_table), "reversed"),
                &reversed_fast_repro_table),
      honouring(with_layout(spec("paired_repro", {"reversed_fast"}, 2, &paired_fixed_table),
                            "paired", "paired (the mode's)"),
                &paired_fixed_table),
      // In the mode, grid_store without grid_load (paired's table): incoherent in the mode only.
      honouring(with_layout(spec("paired_repro_partial", {"reversed_fast"}, 1, &paired_fixed_table),
                            "paired"),
                &paired_table),
  };
}

coheriq::EngineSpec outside_engine() { return spec("outside", {"left"}, 15, &outside_table); }

// ------------------------------ Public API

Result area(double width, double height) {
  return coheriq::call<Domain, cand::area>(width, height);
}
Result perimeter(double width, double height) {
  return coheriq::call<Domain, cand::perimeter>(width, height);
}
Result volume(double width, double height, double depth) {
  return coheriq::call<Domain, cand::volume>(width, height, depth);
}

Grid::Grid(const std::vector<int>& cells) : storage_(cells.size()) {
  coheriq::use_class<Domain, cand::grid>();  // the first use: settles whose layout this is
  engine_ = coheriq::active_engine(domain);
  coheriq::call<Domain, cand::grid_store>(cells.data(), cells.size(), storage_.data());
}

int Grid::operator[](std::size_t i) const {
  return coheriq::call<Domain, cand::grid_load>(storage_.data(), storage_.size(), i);
}

}  // namespace shapes
