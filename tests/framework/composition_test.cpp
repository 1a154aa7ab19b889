// Composition (docs/design.md, "An engine is a coherent unit"): C3 order, providers, failures that
// name the engines, coherence of layouts, CPU requirements, and the registry. Every case runs in
// its own process.
#include <coheriq/engine.hpp>

#include "support.hpp"

using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::info_of;
using shapes::test::provider_of;
using Names = std::vector<std::string>;

namespace {
shapes::Result square_area(double width, double height) { return {width * height, "square"}; }
}  // namespace

// ------------------------------ C3 and providers

TEST_CASE("diamond: C3 order and providers") {
  fresh_process();
  const auto left_first = info_of("left_first");
  CHECK(left_first.error == "");
  CHECK(left_first.bases == Names{"left", "right"});
  // C3, not depth-first: right comes before their common base.
  CHECK(left_first.mro == Names{"left_first", "left", "right", "base", "reference"});
  CHECK(provider_of(left_first, "area") == "base");
  CHECK(provider_of(left_first, "perimeter") == "left");  // both override it; left comes first
  CHECK(provider_of(left_first, "volume") == "right");    // depth-first would have picked base
  CHECK(provider_of(left_first, "grid_store") == "reference");
  CHECK(provider_of(left_first, "grid_load") == "reference");

  const auto right_first = info_of("right_first");
  CHECK(right_first.mro == Names{"right_first", "right", "left", "base", "reference"});
  CHECK(provider_of(right_first, "perimeter") == "right");
  CHECK(provider_of(right_first, "volume") == "right");

  // Bases left empty mean the reference.
  const auto base = info_of("base");
  CHECK(base.mro == Names{"base", "reference"});
  CHECK(info_of("reference").mro == Names{"reference"});
}

TEST_CASE("diamond: every call runs its provider") {
  fresh_process();
  coheriq::enable_engine(shapes::domain, "left_first");
  shapes::test::check_calls("base", "left", "right");
  CHECK(coheriq::status(shapes::domain).state == "locked");
}

TEST_CASE("providers are listed in domain order, one per candidate") {
  fresh_process();
  const auto info = info_of("wider");
  Names candidates;
  for (const auto& p : info.providers) candidates.push_back(p.candidate);
  CHECK(candidates == Names{"area", "perimeter", "volume", "grid_store", "grid_load"});
  CHECK(info.mro == Names{"wider", "wide", "base", "reference"});
  CHECK(provider_of(info, "area") == "wider");
  CHECK(provider_of(info, "perimeter") == "base");
  CHECK(provider_of(info, "volume") == "wider");
}

// ------------------------------ Hierarchies that do not compose

TEST_CASE("a cycle of bases is a CompositionError naming the engines") {
  fresh_process();
  const auto before = coheriq::status(shapes::domain);
  expect_error<coheriq::CompositionError>([] { coheriq::enable_engine(shapes::domain, "cycle_a"); },
                                          {"cycle_a", "cycle_b"});
  CHECK(shapes::test::same_status(before, coheriq::status(shapes::domain)));
  const auto info = info_of("cycle_b");
  CHECK_FALSE(info.supported);
  CHECK(contains(info.error, "cycle_a"));
  CHECK(contains(info.error, "cycle_b"));
}

TEST_CASE("a non-linearizable order is a CompositionError naming the engines") {
  fresh_process();
  // tangled(left_first, right_first): left before right, and right before left.
  expect_error<coheriq::CompositionError>([] { coheriq::enable_engine(shapes::domain, "tangled"); },
                                          {"tangled", "left", "right"});
  const auto info = info_of("tangled");
  CHECK_FALSE(info.supported);
  CHECK(contains(info.error, "tangled"));
  // Its bases compose on their own.
  CHECK(info_of("left_first").supported);
  CHECK(info_of("right_first").supported);
}

TEST_CASE("a missing base is a CompositionError naming the engine and the base") {
  fresh_process();
  expect_error<coheriq::CompositionError>([] { coheriq::enable_engine(shapes::domain, "orphan"); },
                                          {"orphan", "ghost"});
  const auto info = info_of("orphan");
  CHECK_FALSE(info.supported);
  CHECK(contains(info.error, "ghost"));
  CHECK(info.bases == Names{"ghost"});
}

TEST_CASE("engines that do not compose do not affect the others") {
  fresh_process();
  coheriq::enable_engine(shapes::domain, "right");
  shapes::test::check_calls("base", "right", "right");
}

// ------------------------------ Coherence of layouts

TEST_CASE("layout: an engine overriding every kernel that touches the class composes") {
  fresh_process();
  const auto info = info_of("reversed");
  CHECK(info.error == "");
  CHECK(info.supported);
  REQUIRE(info.layouts.size() == 1);
  CHECK(info.layouts[0].candidate_class == "Grid");
  CHECK(info.layouts[0].engine == "reversed");
  CHECK(info.layouts[0].name == "reversed");

  const auto reference = info_of("reference");
  REQUIRE(reference.layouts.size() == 1);
  CHECK(reference.layouts[0].engine == "reference");

  coheriq::enable_engine(shapes::domain, "reversed");
  const shapes::Grid grid({1, 2, 3});
  CHECK(grid.engine() == "reversed");
  CHECK(grid.storage() == std::vector<int>{3, 2, 1});  // the engine's layout
  CHECK(grid[0] == 1);                                 // read through the engine's kernel
  CHECK(grid[2] == 3);
}

TEST_CASE("layout: a new layout with an inherited kernel touching the class is incoherent") {
  fresh_process();
  const auto before = coheriq::status(shapes::domain);
  // reversed_partial changes Grid's layout but inherits the reference grid_load.
  const std::string message = expect_error<coheriq::CompositionError>(
      [] { coheriq::enable_engine(shapes::domain, "reversed_partial"); },
      {"reversed_partial", "grid_load"});
  CHECK_MESSAGE(!contains(message, "grid_store"), "grid_store is overridden: " << message);
  CHECK(shapes::test::same_status(before, coheriq::status(shapes::domain)));

  // paired (on reversed) changes reversed's layout and inherits reversed's grid_load.
  const std::string paired = expect_error<coheriq::CompositionError>(
      [] { coheriq::enable_engine(shapes::domain, "paired"); }, {"paired", "grid_load"});
  CHECK_MESSAGE(!contains(paired, "grid_store"), "grid_store is overridden: " << paired);

  const auto info = info_of("paired");
  CHECK_FALSE(info.supported);
  CHECK(contains(info.error, "grid_load"));
  // The composition is still described: the layout in effect and who provides what.
  CHECK(info.mro == Names{"paired", "reversed", "reference"});
  CHECK(provider_of(info, "grid_load") == "reversed");
}

TEST_CASE("layout: the fixed engine, overriding the kernel too, composes and runs") {
  fresh_process();
  const auto info = info_of("paired_fixed");
  CHECK(info.error == "");
  CHECK(info.supported);
  REQUIRE(info.layouts.size() == 1);
  CHECK(info.layouts[0].engine == "paired_fixed");
  CHECK(info.layouts[0].name == "paired");

  coheriq::enable_engine(shapes::domain, "paired_fixed");
  const shapes::Grid grid({1, 2, 3, 4, 5});
  CHECK(grid.storage() == std::vector<int>{2, 1, 4, 3, 5});
  for (std::size_t i = 0; i < grid.size(); ++i) CHECK(grid[i] == static_cast<int>(i + 1));
}

TEST_CASE("layout: overriding a kernel while keeping the inherited layout is coherent") {
  fresh_process();
  const auto info = info_of("reversed_load");
  CHECK(info.error == "");
  CHECK(info.supported);
  CHECK(info.layouts[0].engine == "reversed");  // inherited, not its own
  CHECK(provider_of(info, "grid_store") == "reversed");
  CHECK(provider_of(info, "grid_load") == "reversed_load");

  coheriq::enable_engine(shapes::domain, "reversed_load");
  const shapes::Grid grid({7, 8, 9});
  CHECK(grid.storage() == std::vector<int>{9, 8, 7});
  CHECK(grid[0] == 7);
  CHECK(grid[1] == 8);
  CHECK(grid[2] == 9);
}

// ------------------------------ Registry and introspection

TEST_CASE("engines() lists every engine, highest priority first, with its origin") {
  fresh_process();
  coheriq::register_engine(shapes::outside_engine());
  const auto all = coheriq::engines(shapes::domain);
  Names names;
  for (const auto& info : all) names.push_back(info.name);
  CHECK(names == Names{"tangled",          "cycle_a",       "cycle_b",      "orphan",
                       "reversed_partial", "paired",        "wider",        "wide",
                       "left_first",       "right_first",   "left",         "right",
                       "outside",          "base",          "paired_fixed", "reversed",
                       "reversed_load",    "reversed_fast", "paired_repro", "paired_repro_partial",
                       "reference"});
  for (const auto& info : all) {
    CHECK_MESSAGE(info.origin == (info.name == "outside" ? "static" : "builtin"), info.name);
    CHECK(info.description != "");
    if (info.error == "") {
      CHECK_MESSAGE(info.mro.back() == "reference", info.name);
      CHECK_MESSAGE(info.mro.front() == info.name, info.name);
      CHECK_MESSAGE(info.providers.size() == 5, info.name);
    }
  }
}

TEST_CASE("required features are the union over the MRO") {
  fresh_process();
  const auto wider = info_of("wider");
  Names required = wider.required_features;
  std::sort(required.begin(), required.end());
  CHECK(required == Names{shapes::kWideFeature, shapes::kWiderFeature});
  CHECK(info_of("wide").required_features == Names{shapes::kWideFeature});
  CHECK(info_of("left_first").required_features.empty());
  for (const auto& info : coheriq::engines(shapes::domain)) {
    for (const std::string& f : info.missing_features) {
      CHECK_MESSAGE(!shapes::test::host_has(f), info.name << " misses " << f);
    }
    if (info.error == "") CHECK(info.supported == info.missing_features.empty());
  }
}

TEST_CASE("a static engine registered before first use can be enabled") {
  fresh_process();
  coheriq::register_engine(shapes::outside_engine());
  const auto info = info_of("outside");
  CHECK(info.origin == "static");
  CHECK(info.mro == Names{"outside", "left", "base", "reference"});
  coheriq::enable_engine(shapes::domain, "outside");
  shapes::test::check_calls("base", "left", "outside");
}

TEST_CASE("register_engine refuses what the domain does not have") {
  fresh_process();
  coheriq::EngineSpec spec = shapes::outside_engine();
  spec.name = "left";
  expect_error<coheriq::CompositionError>([&] { coheriq::register_engine(spec); }, {"left"});

  spec = shapes::outside_engine();
  spec.layouts = {{"Circle", "round"}};
  expect_error<coheriq::CompositionError>([&] { coheriq::register_engine(spec); }, {"Circle"});

  static constexpr coheriq::Override wrong_name[] = {
      {"circumference", coheriq::implement<shapes::cand::area, &square_area>().function}};
  static constexpr coheriq::OverrideTable wrong_table = coheriq::table_of(wrong_name);
  spec = shapes::outside_engine();
  spec.overrides = &wrong_table;
  expect_error<coheriq::CompositionError>([&] { coheriq::register_engine(spec); },
                                          {"circumference"});

  spec = shapes::outside_engine();
  spec.domain = "no.such.domain";
  expect_error<coheriq::UnknownDomainError>([&] { coheriq::register_engine(spec); },
                                            {"no.such.domain"});

  // None of the refused specs was registered.
  for (const auto& info : coheriq::engines(shapes::domain)) CHECK(info.name != "outside");
}

TEST_CASE("unknown domains are an UnknownDomainError from every entry point") {
  fresh_process();
  const auto names = coheriq::domains();
  CHECK(std::find(names.begin(), names.end(), "test.shapes") != names.end());
  const std::string_view nowhere = "no.such.domain";
  expect_error<coheriq::UnknownDomainError>([&] { coheriq::enable_engine(nowhere, "left"); },
                                            {"no.such.domain"});
  expect_error<coheriq::UnknownDomainError>([&] { coheriq::active_engine(nowhere); },
                                            {"no.such.domain"});
  expect_error<coheriq::UnknownDomainError>([&] { coheriq::is_locked(nowhere); },
                                            {"no.such.domain"});
  expect_error<coheriq::UnknownDomainError>([&] { coheriq::status(nowhere); }, {"no.such.domain"});
  expect_error<coheriq::UnknownDomainError>([&] { coheriq::engines(nowhere); }, {"no.such.domain"});
}

TEST_CASE("status() describes the domain") {
  fresh_process();
  const auto s = coheriq::status(shapes::domain);
  CHECK(s.domain == "test.shapes");
  CHECK(s.env_var == "SHAPES_ENGINE");
  CHECK(s.candidates == Names{"area", "perimeter", "volume", "grid_store", "grid_load"});
  CHECK(s.classes == Names{"Grid"});
}
