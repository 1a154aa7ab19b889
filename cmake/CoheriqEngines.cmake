# The built-in engines of the kernels domain, as data: one record per ISA and one line per engine.
# Everything else is derived from these two tables: the generated header of engine rows that C++ in
# src/ expands into each engine's descriptor and kernels table (coheriq_write_engine_rows), the
# compile flags and definitions of each engine's translation units (coheriq_kernels_engine), the
# emulated-CPU expectations of tests/emulation and the features `coheriq bench` shows on its host
# line (read at run time from the descriptors). docs/adding-an-engine.md walks through a line.

# ------------------------------ ISA records
# coheriq_isa(<name> ARCH <CMAKE_SYSTEM_PROCESSOR regex> HWY_TARGET <HWY_...>
#             [EXTENDS <isa>] FLAGS <flags...> FEATURES <cpu_features names...>
#             VECTOR_REGISTERS <n>)
# An ISA that EXTENDS another takes its flags and features and adds its own. FLAGS must be the
# complete set Highway 1.0.3 needs for HWY_TARGET (with one missing it silently compiles for an
# older target; the kernels TU asserts the target). FEATURES are what the host must report for code
# compiled with FLAGS to run. VECTOR_REGISTERS is the architectural register count the GEMM
# register tile is checked against.
function(coheriq_isa name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "ARCH;HWY_TARGET;EXTENDS;VECTOR_REGISTERS"
                        "FLAGS;FEATURES")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_ARCH OR NOT arg_HWY_TARGET OR NOT arg_VECTOR_REGISTERS)
    message(FATAL_ERROR "coheriq: ISA record '${name}' in cmake/CoheriqEngines.cmake needs ARCH, "
                        "HWY_TARGET, VECTOR_REGISTERS, FLAGS and FEATURES only "
                        "(unparsed: ${arg_UNPARSED_ARGUMENTS})")
  endif()
  set(flags ${arg_FLAGS})
  set(features ${arg_FEATURES})
  if(arg_EXTENDS)
    if(NOT DEFINED COHERIQ_ISA_${arg_EXTENDS}_FLAGS)
      message(FATAL_ERROR "coheriq: ISA record '${name}' extends '${arg_EXTENDS}', which is not "
                          "recorded before it; record the ISA it extends first")
    endif()
    set(flags ${COHERIQ_ISA_${arg_EXTENDS}_FLAGS} ${flags})
    set(features ${COHERIQ_ISA_${arg_EXTENDS}_FEATURES} ${features})
  endif()
  set_property(GLOBAL APPEND PROPERTY COHERIQ_ISAS ${name})
  foreach(field IN ITEMS ARCH HWY_TARGET VECTOR_REGISTERS)
    set(COHERIQ_ISA_${name}_${field} "${arg_${field}}" PARENT_SCOPE)
  endforeach()
  # Quoted: an ISA with no flags (neon) must still be defined, as empty.
  set(COHERIQ_ISA_${name}_FLAGS "${flags}" PARENT_SCOPE)
  set(COHERIQ_ISA_${name}_FEATURES "${features}" PARENT_SCOPE)
endfunction()

coheriq_isa(avx2 ARCH "^(x86_64|AMD64|amd64)$" HWY_TARGET HWY_AVX2 VECTOR_REGISTERS 16
  FLAGS -mavx2 -mfma -mbmi -mbmi2 -mf16c -mpclmul -maes
  FEATURES avx avx2 fma3 bmi1 bmi2 f16c pclmulqdq aes)
coheriq_isa(avx512 ARCH "^(x86_64|AMD64|amd64)$" HWY_TARGET HWY_AVX3 VECTOR_REGISTERS 32
  EXTENDS avx2
  FLAGS -mavx512f -mavx512bw -mavx512dq -mavx512vl
  FEATURES avx512f avx512bw avx512dq avx512vl)
# The reduced-precision instructions, for intrinsics on top of HWY_AVX3 (docs/decisions.md,
# "avx512_vnni and avx512_bf16"): no -mavxvnni, so gcc emits only EVEX vpdpbusd, never the VEX
# form that needs AVX-VNNI (a feature cpu_features 0.7.0 cannot report).
coheriq_isa(avx512_vnni ARCH "^(x86_64|AMD64|amd64)$" HWY_TARGET HWY_AVX3 VECTOR_REGISTERS 32
  EXTENDS avx512 FLAGS -mavx512vnni FEATURES avx512vnni)
coheriq_isa(avx512_bf16 ARCH "^(x86_64|AMD64|amd64)$" HWY_TARGET HWY_AVX3 VECTOR_REGISTERS 32
  EXTENDS avx512 FLAGS -mavx512bf16 FEATURES avx512_bf16)
# aarch64: AdvSIMD is in every aarch64 baseline (no flag: Highway's NEON target is the default).
# SVE extends it: SVE hardware always has AdvSIMD, and the sve engine stands on neon.
coheriq_isa(neon ARCH "^(aarch64|arm64|ARM64)$" HWY_TARGET HWY_NEON VECTOR_REGISTERS 32
  FEATURES asimd)
coheriq_isa(sve ARCH "^(aarch64|arm64|ARM64)$" HWY_TARGET HWY_SVE VECTOR_REGISTERS 32
  EXTENDS neon
  FLAGS -march=armv8-a+sve
  FEATURES sve)

# ------------------------------ Engine lines
# coheriq_engine(<name> ISA <isa> BASES <engines...> PRIORITY <n> DESCRIPTION <text>
#                KERNELS all | none | <candidate names...> [HOST <key=value...>]
#                [LAYOUTS <"class=description">...])
# The engine's folder src/engines/<name>/ holds its tuning record (tuning.hpp: the figures its
# generic kernels run with, GEMM blocking included, which fixes its PackedMatrix layouts) and, when
# it has hand-written kernels, its kernels TU (kernels.cpp). KERNELS says which generic kernels it
# takes: `all`, or a list of candidate names ("gemm.f32 pack_b.f32 ...") and candidate classes
# ("class:PackedMatrix<float>": every kernel that touches the class, as the coherence rule needs
# them from one engine); the others it inherits from its bases (`none`: an engine of hand-written
# kernels only). HOST names host properties
# beyond feature bits, in the grammar of a plugin manifest's `host` key (vendor=..., families=25|26,
# min_vector_bits=, min_l1d_bytes=, min_l2_bytes=). LAYOUTS names the layouts its hand-written
# kernels define, one "<candidate class>=<description>" each (generic packing names its own).
function(coheriq_engine name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "ISA;PRIORITY;DESCRIPTION"
                        "BASES;KERNELS;HOST;LAYOUTS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_ISA OR NOT arg_BASES OR "${arg_PRIORITY}" STREQUAL ""
     OR NOT arg_DESCRIPTION OR NOT arg_KERNELS)
    message(FATAL_ERROR "coheriq: engine line '${name}' in cmake/CoheriqEngines.cmake needs ISA, "
                        "BASES, PRIORITY, DESCRIPTION and KERNELS "
                        "(unparsed: ${arg_UNPARSED_ARGUMENTS})")
  endif()
  if(NOT DEFINED COHERIQ_ISA_${arg_ISA}_FLAGS)
    message(FATAL_ERROR "coheriq: engine '${name}' names ISA '${arg_ISA}', which has no record; "
                        "add a coheriq_isa(${arg_ISA} ...) record")
  endif()
  get_property(previous GLOBAL PROPERTY COHERIQ_LAST_ENGINE_PRIORITY)
  if(NOT "${previous}" STREQUAL "" AND arg_PRIORITY GREATER previous)
    message(FATAL_ERROR "coheriq: engine line '${name}' (priority ${arg_PRIORITY}) stands after "
                        "one of priority ${previous}; keep the lines in priority order, highest "
                        "first (the registry's order)")
  endif()
  set_property(GLOBAL PROPERTY COHERIQ_LAST_ENGINE_PRIORITY ${arg_PRIORITY})
  set_property(GLOBAL APPEND PROPERTY COHERIQ_ALL_ENGINES ${name})
  foreach(field IN ITEMS ISA PRIORITY DESCRIPTION)
    set(COHERIQ_ENGINE_${name}_${field} "${arg_${field}}" PARENT_SCOPE)
  endforeach()
  foreach(field IN ITEMS BASES KERNELS HOST LAYOUTS)
    set(COHERIQ_ENGINE_${name}_${field} ${arg_${field}} PARENT_SCOPE)
  endforeach()
endfunction()

# A machine engine: AMD Zen 5 (family 26). It composes both reduced-precision engines (a diamond
# over avx512, resolved by C3: zen5, avx512_vnni, avx512_bf16, avx512, avx2, reference) and
# overrides only the GEMM, blocked for its caches (src/engines/zen5/tuning.hpp); the host
# description, not a feature bit, recognises the machine.
coheriq_engine(zen5 ISA avx512 BASES avx512_vnni avx512_bf16 PRIORITY 400
  KERNELS class:PackedMatrix<float> class:PackedMatrix<double>
  HOST vendor=AuthenticAMD families=26
  DESCRIPTION "AMD Zen 5: avx512 GEMM blocked for 48 KiB L1d / 1 MiB L2, on avx512_vnni and avx512_bf16")
coheriq_engine(avx512_vnni ISA avx512_vnni BASES avx512 PRIORITY 320 KERNELS none
  LAYOUTS "gemm_u8s8s32 packed B=avx512_vnni: 48-column panels of 4-byte k-groups (vpdpbusd), 64-byte aligned"
  DESCRIPTION "dot_u8s8 and gemm_u8s8s32 with AVX512-VNNI vpdpbusd; everything else from avx512")
coheriq_engine(avx512_bf16 ISA avx512_bf16 BASES avx512 PRIORITY 310 KERNELS none
  LAYOUTS "gemm_bf16 packed B=avx512_bf16: 48-column panels of bf16 k-pairs (vdpbf16ps), 64-byte aligned"
  DESCRIPTION "dot_bf16 and gemm_bf16 with AVX512-BF16 vdpbf16ps; everything else from avx512")
coheriq_engine(avx512 ISA avx512 BASES avx2 PRIORITY 300 KERNELS all
  DESCRIPTION "AVX-512 (F, BW, DQ, VL) kernels on top of avx2 (Highway, 512-bit)")
coheriq_engine(avx2 ISA avx2 BASES reference PRIORITY 200 KERNELS all
  DESCRIPTION "AVX2+FMA kernels (Highway, 256-bit)")
# sve takes every generic kernel, vector-length agnostic: its GEMM tile is 2 vectors of the
# run-time length wide, and its PackedMatrix layouts name that length (src/engines/sve/tuning.hpp).
coheriq_engine(sve ISA sve BASES neon PRIORITY 150 KERNELS all
  DESCRIPTION "SVE kernels on top of neon, vector-length agnostic (Highway, 128 to 2048-bit)")
coheriq_engine(neon ISA neon BASES reference PRIORITY 100 KERNELS all
  DESCRIPTION "AdvSIMD (NEON) kernels (Highway, 128-bit)")

# ------------------------------ Which engines this build has
# Every engine whose ISA runs on the target architecture, highest priority first (the lines'
# order, checked above).
set(default_engines)
get_property(all_engines GLOBAL PROPERTY COHERIQ_ALL_ENGINES)
foreach(engine IN LISTS all_engines)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "${COHERIQ_ISA_${COHERIQ_ENGINE_${engine}_ISA}_ARCH}")
    list(APPEND default_engines ${engine})
  endif()
endforeach()
# `all` (the default) follows the lines, so a tree that gains an engine builds it without the
# cache of an existing build directory having to change.
set(COHERIQ_ENGINES "all" CACHE STRING
    "Built-in engines of the kernels domain: all (every engine of this architecture), a list (each engine's bases included), or empty (reference only)")
if(COHERIQ_ENGINES STREQUAL "all")
  set(chosen_engines ${default_engines})
else()
  set(chosen_engines ${COHERIQ_ENGINES})
endif()

# The chosen engines, checked: known, built for this architecture, and every base built too (an
# engine whose base is missing could never compose). Sorted by priority.
set(COHERIQ_BUILTIN_ENGINES)
foreach(engine IN LISTS chosen_engines)
  if(NOT engine IN_LIST all_engines)
    message(FATAL_ERROR "coheriq: COHERIQ_ENGINES names '${engine}', which is not a built-in "
                        "engine; engines: ${all_engines} (or empty for the reference only)")
  endif()
  set(isa ${COHERIQ_ENGINE_${engine}_ISA})
  if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "${COHERIQ_ISA_${isa}_ARCH}")
    message(FATAL_ERROR "coheriq: COHERIQ_ENGINES names '${engine}', whose ISA ${isa} does not "
                        "run on ${CMAKE_SYSTEM_PROCESSOR}; remove it from COHERIQ_ENGINES")
  endif()
  foreach(base IN LISTS COHERIQ_ENGINE_${engine}_BASES)
    if(NOT base STREQUAL "reference" AND NOT base IN_LIST all_engines)
      message(FATAL_ERROR "coheriq: engine '${engine}' names base '${base}', which is not an "
                          "engine line of cmake/CoheriqEngines.cmake; engines: ${all_engines} "
                          "(or reference)")
    endif()
    if(NOT base STREQUAL "reference" AND NOT base IN_LIST chosen_engines)
      message(FATAL_ERROR "coheriq: COHERIQ_ENGINES has '${engine}' but not its base '${base}', "
                          "so '${engine}' could never run; add '${base}' to COHERIQ_ENGINES "
                          "(e.g. -DCOHERIQ_ENGINES=\"${chosen_engines};${base}\") or remove "
                          "'${engine}'")
    endif()
  endforeach()
endforeach()
foreach(engine IN LISTS all_engines)  # the registry's order: the lines' order
  if(engine IN_LIST chosen_engines)
    list(APPEND COHERIQ_BUILTIN_ENGINES ${engine})
  endif()
endforeach()

# The required features of an engine over its whole MRO (its ISA and its bases'), for the
# emulated-CPU expectations.
function(coheriq_engine_features engine out)
  set(features ${COHERIQ_ISA_${COHERIQ_ENGINE_${engine}_ISA}_FEATURES})
  foreach(base IN LISTS COHERIQ_ENGINE_${engine}_BASES)
    if(NOT base STREQUAL "reference")
      coheriq_engine_features(${base} base_features)
      list(APPEND features ${base_features})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES features)
  set(${out} ${features} PARENT_SCOPE)
endfunction()

# ------------------------------ What the build derives from the lines
# Two things, both data: one generated header of engine rows (coheriq_write_engine_rows), which
# ordinary C++ in src/ expands into each engine's descriptor and kernels table, and per engine two
# translation units compiled from shared sources with the engine's name as their one definition
# (coheriq_kernels_engine).

# A C++ string literal of `text`: backslashes and quotes escaped.
function(coheriq_cxx_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# coheriq_write_engine_rows(<file>): the built-in engines of this build, highest priority first,
# one row each, as the X-macro COHERIQ_BUILTIN_ENGINES (its columns are listed in the file).
# Lists are written in the grammar of the library's own lists (comma-separated names), the host
# requirements in that of a plugin manifest's `host` key, so the library parses each with the one
# parser it has for it.
function(coheriq_write_engine_rows file)
  set(rows "")
  foreach(name IN LISTS COHERIQ_BUILTIN_ENGINES)
    set(isa ${COHERIQ_ENGINE_${name}_ISA})
    list(JOIN COHERIQ_ENGINE_${name}_BASES ", " bases)
    list(JOIN COHERIQ_ISA_${isa}_FEATURES ", " features)
    list(JOIN COHERIQ_ENGINE_${name}_HOST ", " host)
    list(JOIN COHERIQ_ENGINE_${name}_KERNELS ", " kernels)
    set(layouts)
    foreach(item IN LISTS COHERIQ_ENGINE_${name}_LAYOUTS)
      coheriq_cxx_string(item "${item}")
      list(APPEND layouts "${item}")
    endforeach()
    list(JOIN layouts ", " layouts)
    set(columns "")
    foreach(text IN ITEMS "${bases}" "${features}" "${host}" "${kernels}")
      coheriq_cxx_string(text "${text}")
      list(APPEND columns "${text}")
    endforeach()
    list(JOIN columns ",\n    " columns)
    coheriq_cxx_string(description "${COHERIQ_ENGINE_${name}_DESCRIPTION}")
    string(APPEND rows
           "  X(${name}, ${COHERIQ_ENGINE_${name}_PRIORITY}, ${COHERIQ_ISA_${isa}_HWY_TARGET}, "
           "${COHERIQ_ISA_${isa}_VECTOR_REGISTERS},\n    ${columns},\n    (${layouts}),\n"
           "    ${description})\n")
  endforeach()
  string(REPLACE "\n" " \\\n" rows "${rows}")
  file(CONFIGURE OUTPUT ${file} CONTENT
"// Generated by cmake/CoheriqEngines.cmake from its engine lines and ISA records: the built-in
// engines of this build (COHERIQ_ENGINES), highest priority first. Data only: src/kernels/
// descriptor.cpp expands an engine's row into its descriptor, src/engines/generic/namespace.h
// into what its kernels TU compiles, and src/kernels/registry.cpp lists them.
//
// X(name, priority, Highway target, vector registers,
//   bases, required features (the ISA record's), host requirements (a manifest's `host` grammar),
//   generic kernels taken (all, none, or candidate names),
//   (layouts its hand-written kernels define, \"<candidate class>=<layout name>\"...),
//   description)
#pragma once

#define COHERIQ_BUILTIN_ENGINES(X) \\
${rows}
" @ONLY)
endfunction()

# coheriq_kernels_engine(<name>): the engine's kernels TU (an OBJECT library with its ISA's flags:
# src/engines/<name>/kernels.cpp when the engine has hand-written kernels, else the generic
# src/engines/generic/kernels.cpp) and its descriptor (src/kernels/descriptor.cpp, baseline
# flags), both compiled with COHERIQ_ENGINE_NS=<name> and, when its folder has a tuning record,
# COHERIQ_ENGINE_TUNING=<that header>; both linked into coheriq_kernels.
function(coheriq_kernels_engine name)
  set(dir ${PROJECT_SOURCE_DIR}/src/engines/${name})
  set(isa ${COHERIQ_ENGINE_${name}_ISA})
  set(kernels_taken ${COHERIQ_ENGINE_${name}_KERNELS})
  set(kernels_tu ${dir}/kernels.cpp)
  if(NOT EXISTS ${kernels_tu})
    set(kernels_tu ${PROJECT_SOURCE_DIR}/src/engines/generic/kernels.cpp)
  endif()
  # Generic kernels read the engine's tuning record (src/engines/<name>/tuning.hpp): an engine that
  # takes any has one; one of hand-written kernels only (KERNELS none) may have none.
  set(definitions COHERIQ_ENGINE_NS=${name})
  if(EXISTS ${dir}/tuning.hpp)
    list(APPEND definitions "COHERIQ_ENGINE_TUNING=\"engines/${name}/tuning.hpp\"")
  elseif(NOT kernels_taken STREQUAL "none")
    message(FATAL_ERROR "coheriq: engine '${name}' takes generic kernels (KERNELS "
                        "${kernels_taken}) but has no src/engines/${name}/tuning.hpp, the tuning "
                        "record they read; see docs/adding-an-engine.md")
  endif()
  if(kernels_taken STREQUAL "none" AND NOT EXISTS ${dir}/kernels.cpp)
    message(FATAL_ERROR "coheriq: engine '${name}' takes no generic kernels (KERNELS none) and "
                        "has no src/engines/${name}/kernels.cpp with kernels of its own; see "
                        "docs/adding-an-engine.md")
  endif()
  foreach(item IN LISTS COHERIQ_ENGINE_${name}_LAYOUTS)
    if(NOT item MATCHES "^[^=]+=.+$")
      message(FATAL_ERROR "coheriq: engine '${name}': LAYOUTS item '${item}' is not "
                          "\"<candidate class>=<description>\"")
    endif()
  endforeach()

  add_library(coheriq_engine_${name} OBJECT ${kernels_tu})
  target_compile_options(coheriq_engine_${name} PRIVATE ${COHERIQ_ISA_${isa}_FLAGS}
                                                        ${COHERIQ_NO_SCOPE_CHECKS})
  coheriq_simd_headers(coheriq_engine_${name})
  add_library(coheriq_descriptor_${name} OBJECT ${PROJECT_SOURCE_DIR}/src/kernels/descriptor.cpp)
  foreach(target IN ITEMS coheriq_engine_${name} coheriq_descriptor_${name})
    target_compile_definitions(${target} PRIVATE ${definitions})
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include
                                                 ${PROJECT_SOURCE_DIR}/src
                                                 ${COHERIQ_GENERATED_DIR})
    set_target_properties(${target} PROPERTIES CXX_STANDARD 20 CXX_EXTENSIONS OFF
                                               POSITION_INDEPENDENT_CODE ON)
    coheriq_warnings(${target})
    coheriq_private_in_static_copy(${target} coheriq_kernels)
  endforeach()
  coheriq_exact_floating_point(coheriq_engine_${name})
  target_sources(coheriq_kernels PRIVATE $<TARGET_OBJECTS:coheriq_descriptor_${name}>
                                         $<TARGET_OBJECTS:coheriq_engine_${name}>)
endfunction()
