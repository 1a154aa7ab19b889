// Coheriq domain authoring.
//
// A domain is a struct that names itself, its environment variable, its candidate classes and
// candidate functions, its reference implementation and its built-in engines:
//
//   struct Geometry {
//     static constexpr std::string_view name = "example.geometry";
//     static constexpr std::string_view env_var = "GEOMETRY_ENGINE";  // "" for none
//     static constexpr std::string_view abi = "example.geometry/1";   // bump on signature change
//     using classes = coheriq::list<Mesh>;
//     using candidates = coheriq::list<area, make_mesh>;
//     static const coheriq::OverrideTable& reference();
//     static std::vector<coheriq::EngineSpec> builtin_engines();
//     static void check_settings();  // optional: the domain's own variables, checked at the
//                                    // first use before the lock; throws coheriq::Error
//     // optional, together: a reproducible mode (coheriq::enable_reproducible), its variable
//     // and the reference's kernels in it
//     static constexpr std::string_view reproducible_env_var = "GEOMETRY_REPRODUCIBLE";
//     static const coheriq::OverrideTable& reference_reproducible();
//   };
//
// Each candidate is a tag type with a name and a signature (and the classes it touches):
//
//   struct area : coheriq::candidate<double(const Mesh&), coheriq::touches<Mesh>> {
//     static constexpr std::string_view name = "area";
//   };
//
// and the domain's public function forwards to it, which callers never see:
//
//   double area(const Mesh& m) { return coheriq::call<Geometry, cand::area>(m); }
//
// After the domain locks, coheriq::call is one pointer load and one indirect call.
#pragma once

#include <coheriq/coheriq.hpp>
#include <coheriq/engine.hpp>

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace coheriq {

template <class... T>
struct list {};

// list<Rest...> from list<First, Rest...>: lets a macro-expanded list start with a placeholder,
// `list_tail<list<void COHERIQ_..._LIST(COMMA_NAME)>>`, so that every item can bring its comma.
template <class List>
struct list_tail_of;
template <class First, class... Rest>
struct list_tail_of<list<First, Rest...>> {
  using type = list<Rest...>;
};
template <class List>
using list_tail = typename list_tail_of<List>::type;

// The candidate classes a candidate function reads or writes the representation of.
template <class... Classes>
struct touches {};

template <class Signature, class Touches = touches<>>
struct candidate;

template <class R, class... A, class... Classes>
struct candidate<R(A...), touches<Classes...>> {
  using signature = R(A...);
  using pointer = R (*)(A...);
  using touched = touches<Classes...>;
};

// Base of a candidate class's tag: `struct Mesh_tag : coheriq::candidate_class { name = ...; }`.
struct candidate_class {};

namespace detail {

class DomainCore;

struct FunctionDesc {
  std::string_view name;
  const std::string_view* touches;  // class names
  std::size_t touches_size;
  void (*install)(const void* function);  // stores *(pointer*)function into the slot
};

struct DomainDesc {
  std::string_view name;
  std::string_view env_var;
  std::string_view abi;
  const std::string_view* classes;
  std::size_t classes_size;
  const FunctionDesc* functions;
  std::size_t functions_size;
  const OverrideTable& (*reference)();
  std::vector<EngineSpec> (*builtin_engines)();
  void (*check_settings)();  // Domain::check_settings, or nullptr when the domain has none
  // The reproducible mode: its variable ("" when the domain has no mode) and the reference's
  // kernels in it (nullptr when none).
  std::string_view reproducible_env_var;
  const OverrideTable& (*reference_reproducible)();
};

// Registers the domain (idempotent per name) and checks its reference implements every candidate.
// Each binary's copy of `desc` (its slots) is added to the domain, and installed at once when the
// domain is locked already.
DomainCore& materialize(const DomainDesc& desc);
// Slow paths: settle the choice, install the resolved table and lock. Thread-safe.
void settle_function(DomainCore& core, std::size_t candidate);
void settle_class(DomainCore& core, std::size_t candidate_class);

template <class T, class List>
struct index_of;
template <class T, class... Rest>
struct index_of<T, list<T, Rest...>> : std::integral_constant<std::size_t, 0> {};
template <class T, class U, class... Rest>
struct index_of<T, list<U, Rest...>>
    : std::integral_constant<std::size_t, 1 + index_of<T, list<Rest...>>::value> {};

template <class Domain>
COHERIQ_LOCAL_TO_BINARY DomainCore& core();

// A candidate's slot: one per binary that calls the candidate (COHERIQ_LOCAL_TO_BINARY); the
// domain installs the engine's function into every binary's copy (domains.cpp).
template <class Domain, class Candidate, class Signature = typename Candidate::signature>
struct COHERIQ_LOCAL_TO_BINARY slot;

template <class Domain, class Candidate, class R, class... A>
struct COHERIQ_LOCAL_TO_BINARY slot<Domain, Candidate, R(A...)> {
  // Until the domain locks, every slot points here: settle, then forward.
  static R first_use(A... args) {
    settle_function(core<Domain>(), index_of<Candidate, typename Domain::candidates>::value);
    return fn.load(std::memory_order_acquire)(static_cast<A>(args)...);
  }
  static void install(const void* function) {
    fn.store(*static_cast<R (*const*)(A...)>(function), std::memory_order_release);
  }
  static inline std::atomic<R (*)(A...)> fn{&first_use};
};

template <class Touches>
struct COHERIQ_LOCAL_TO_BINARY touched_names;
template <class... Classes>
struct COHERIQ_LOCAL_TO_BINARY touched_names<touches<Classes...>> {
  static constexpr std::string_view value[sizeof...(Classes) + 1] = {Classes::name..., {}};
  static constexpr std::size_t size = sizeof...(Classes);
};

// &Domain::check_settings when the domain declares one.
template <class Domain, class = void>
struct COHERIQ_LOCAL_TO_BINARY settings_check {
  static constexpr void (*value)() = nullptr;
};
template <class Domain>
struct COHERIQ_LOCAL_TO_BINARY
    settings_check<Domain, std::void_t<decltype(&Domain::check_settings)>> {
  static constexpr void (*value)() = &Domain::check_settings;
};

// The domain's reproducible mode, when it declares one: its variable and its reference's table.
template <class Domain, class = void>
struct COHERIQ_LOCAL_TO_BINARY reproducible_declared {
  static constexpr std::string_view env_var{};
  static constexpr const OverrideTable& (*reference)() = nullptr;
};
template <class Domain>
struct COHERIQ_LOCAL_TO_BINARY
    reproducible_declared<Domain, std::void_t<decltype(&Domain::reference_reproducible),
                                              decltype(Domain::reproducible_env_var)>> {
  static constexpr std::string_view env_var = Domain::reproducible_env_var;
  static constexpr const OverrideTable& (*reference)() = &Domain::reference_reproducible;
};

// A domain declares both or neither: one alone (a misspelt name) would silently offer no mode.
template <class Domain, class = void>
inline constexpr bool declares_reproducible_env_var = false;
template <class Domain>
inline constexpr bool
    declares_reproducible_env_var<Domain, std::void_t<decltype(Domain::reproducible_env_var)>> =
        true;
template <class Domain, class = void>
inline constexpr bool declares_reference_reproducible = false;
template <class Domain>
inline constexpr bool declares_reference_reproducible<
    Domain, std::void_t<decltype(&Domain::reference_reproducible)>> = true;

template <class Domain, class Classes = typename Domain::classes,
          class Candidates = typename Domain::candidates>
struct COHERIQ_LOCAL_TO_BINARY describe;

template <class Domain, class... Classes, class... Candidates>
struct COHERIQ_LOCAL_TO_BINARY describe<Domain, list<Classes...>, list<Candidates...>> {
  static_assert((std::is_base_of_v<candidate_class, Classes> && ...),
                "every entry of Domain::classes derives from coheriq::candidate_class");
  static_assert(declares_reproducible_env_var<Domain> == declares_reference_reproducible<Domain>,
                "a domain with a reproducible mode declares both reproducible_env_var and "
                "reference_reproducible(); one alone offers no mode");
  static constexpr std::string_view classes[sizeof...(Classes) + 1] = {Classes::name..., {}};
  static constexpr FunctionDesc functions[sizeof...(Candidates)] = {FunctionDesc{
      Candidates::name, touched_names<typename Candidates::touched>::value,
      touched_names<typename Candidates::touched>::size, &slot<Domain, Candidates>::install}...};
  static constexpr DomainDesc desc = {Domain::name,
                                      Domain::env_var,
                                      Domain::abi,
                                      classes,
                                      sizeof...(Classes),
                                      functions,
                                      sizeof...(Candidates),
                                      &Domain::reference,
                                      &Domain::builtin_engines,
                                      settings_check<Domain>::value,
                                      reproducible_declared<Domain>::env_var,
                                      reproducible_declared<Domain>::reference};
};

// This binary's registration of the domain: its copy of the description (and so of the slots),
// added to the domain of the framework this binary calls.
template <class Domain>
COHERIQ_LOCAL_TO_BINARY DomainCore& core() {
  static DomainCore& c = materialize(describe<Domain>::desc);
  return c;
}

}  // namespace detail

// Registers the domain in this process (idempotent). Domains call it from their public entry
// points; nothing runs at load time.
template <class Domain>
COHERIQ_LOCAL_TO_BINARY void materialize() {
  (void)detail::core<Domain>();
}

// coheriq::enable_engine and coheriq::active_engine for this domain, materializing it first so
// that they work before anything of it was called: a domain's own shortcuts forward to these.
template <class Domain>
COHERIQ_LOCAL_TO_BINARY void enable_engine(std::string_view engine) {
  materialize<Domain>();
  enable_engine(Domain::name, engine);
}
template <class Domain>
COHERIQ_LOCAL_TO_BINARY void enable_reproducible() {
  materialize<Domain>();
  enable_reproducible(Domain::name);
}
template <class Domain>
COHERIQ_LOCAL_TO_BINARY bool reproducible() {
  materialize<Domain>();
  return reproducible(Domain::name);
}
template <class Domain>
COHERIQ_LOCAL_TO_BINARY std::string active_engine() {
  materialize<Domain>();
  return active_engine(Domain::name);
}

// Calls the candidate in the engine in effect; the first call settles and locks the domain.
template <class Domain, class Candidate, class... Args>
COHERIQ_LOCAL_TO_BINARY inline decltype(auto) call(Args&&... args) {
  return detail::slot<Domain, Candidate>::fn.load(std::memory_order_acquire)(
      std::forward<Args>(args)...);
}

// Constructing an object of a candidate class is a first use: call this in its constructors.
template <class Domain, class Class>
COHERIQ_LOCAL_TO_BINARY inline void use_class() {
  detail::settle_class(detail::core<Domain>(),
                       detail::index_of<Class, typename Domain::classes>::value);
}

}  // namespace coheriq
