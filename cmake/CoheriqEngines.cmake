# The built-in engines of the kernels domain, as data: one record per ISA and one line per engine.
# Everything else is derived from these two tables: each engine's descriptor (the baseline code
# that names it, its bases, features, priority and PackedMatrix layouts), the compile flags and
# Highway target assertion of its kernels TU, the registry, the emulated-CPU expectations of
# tests/emulation and the features `coheriq bench` shows on its host line (read at run time from
# the descriptors). docs/adding-an-engine.md walks through adding a line.

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
# The engine's folder src/engines/<name>/ holds its kernels TU (kernels.cpp) and its tuning
# (tuning.hpp: GEMM blocking, which fixes its PackedMatrix layouts). KERNELS says which generic
# kernels it takes: `all`, or a list of candidate names ("gemm.f32 pack_b.f32 ..."); the others
# it inherits from its bases (`none`: an engine of hand-written kernels only, defined in its
# kernels.cpp). HOST names host properties beyond feature bits (vendor=..., families=25|26,
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
  KERNELS gemm_workspace.f32 gemm.f32 packed_bytes.f32 pack_b.f32 gemm_packed.f32
          gemm_workspace.f64 gemm.f64 packed_bytes.f64 pack_b.f64 gemm_packed.f64
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

# C++ brace lists of quoted strings, for the generated sources.
function(coheriq_cxx_strings out)
  set(items)
  foreach(item IN LISTS ARGN)
    list(APPEND items "\"${item}\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "{${joined}}" PARENT_SCOPE)
endfunction()

# coheriq_kernels_engine(<name>): the engine's kernels TU (an OBJECT library with its ISA's flags
# and the definitions that tell it which engine it is) and its generated descriptor (baseline),
# both linked into coheriq_kernels.
function(coheriq_kernels_engine name)
  set(dir ${PROJECT_SOURCE_DIR}/src/engines/${name})
  set(isa ${COHERIQ_ENGINE_${name}_ISA})
  # An engine that takes the generic packing defines its own PackedMatrix layouts, named from
  # its tuning; one that does not inherits its bases' layouts (and needs no tuning).
  set(kernels_taken ${COHERIQ_ENGINE_${name}_KERNELS})
  set(ENGINE_LAYOUTS "")
  set(files kernels.cpp)
  foreach(type IN ITEMS f32:float f64:double)
    string(REPLACE ":" ";" type "${type}")
    list(GET type 0 suffix)
    list(GET type 1 cxx)
    if(kernels_taken STREQUAL "all" OR "pack_b.${suffix}" IN_LIST kernels_taken)
      string(APPEND ENGINE_LAYOUTS "  e.layouts.push_back({\"PackedMatrix<${cxx}>\", "
                                   "gemm_layout_name(\"${name}\", kGemm<${cxx}>)});\n")
      set(files kernels.cpp tuning.hpp)
    endif()
  endforeach()
  # Any generic GEMM kernel reads the engine's tuning.
  foreach(taken IN LISTS kernels_taken)
    if(taken MATCHES "^(all|(gemm_workspace|gemm|packed_bytes|pack_b|gemm_packed)\\.f(32|64))$")
      set(files kernels.cpp tuning.hpp)
    endif()
  endforeach()
  foreach(file IN LISTS files)
    if(NOT EXISTS ${dir}/${file})
      message(FATAL_ERROR "coheriq: engine '${name}' has no src/engines/${name}/${file}; see "
                          "docs/adding-an-engine.md")
    endif()
  endforeach()
  foreach(item IN LISTS COHERIQ_ENGINE_${name}_LAYOUTS)
    if(NOT item MATCHES "^([^=]+)=(.+)$")
      message(FATAL_ERROR "coheriq: engine '${name}': LAYOUTS item '${item}' is not "
                          "\"<candidate class>=<description>\"")
    endif()
    string(APPEND ENGINE_LAYOUTS "  e.layouts.push_back({\"${CMAKE_MATCH_1}\", \"${CMAKE_MATCH_2}\"});\n")
  endforeach()
  set(ENGINE_TUNING_INCLUDE "")
  if("tuning.hpp" IN_LIST files)
    set(ENGINE_TUNING_INCLUDE "#include \"engines/${name}/tuning.hpp\"\n#include \"kernels/layout_name.hpp\"")
  endif()

  # What the kernels TU needs to know of its line and record.
  if("${COHERIQ_ENGINE_${name}_KERNELS}" STREQUAL "all")
    set(kernels "\"all\"")
  else()
    coheriq_cxx_strings(kernels ${COHERIQ_ENGINE_${name}_KERNELS})
    string(REGEX REPLACE "^{(.*)}$" "\\1" kernels "${kernels}")
  endif()
  # The GEMM tuning, for an engine that takes generic GEMM kernels (engine-inl.h compiles them
  # only then).
  set(tuning_define "")
  if("tuning.hpp" IN_LIST files)
    set(tuning_define "#define COHERIQ_ENGINE_TUNING \"engines/${name}/tuning.hpp\"\n")
  endif()
  set(config ${CMAKE_CURRENT_BINARY_DIR}/engines/${name}/engine-config.h)
  file(CONFIGURE OUTPUT ${config} CONTENT
"// Generated from the ${name} line of cmake/CoheriqEngines.cmake: what its kernels TU compiles.
#pragma once
#define COHERIQ_ENGINE_NS ${name}
#define COHERIQ_ENGINE_HWY_TARGET ${COHERIQ_ISA_${isa}_HWY_TARGET}
#define COHERIQ_ENGINE_VECTOR_REGISTERS ${COHERIQ_ISA_${isa}_VECTOR_REGISTERS}
${tuning_define}// The generic kernels the engine takes: \"all\", \"none\", or candidate names.
#define COHERIQ_ENGINE_KERNELS ${kernels}
")
  add_library(coheriq_engine_${name} OBJECT ${dir}/kernels.cpp)
  target_compile_options(coheriq_engine_${name} PRIVATE ${COHERIQ_ISA_${isa}_FLAGS})
  target_include_directories(coheriq_engine_${name} PRIVATE ${PROJECT_SOURCE_DIR}/include
                                                            ${PROJECT_SOURCE_DIR}/src
                                                            ${CMAKE_CURRENT_BINARY_DIR}/engines/${name})
  set_target_properties(coheriq_engine_${name} PROPERTIES CXX_STANDARD 20 CXX_EXTENSIONS OFF
                                                          POSITION_INDEPENDENT_CODE ON)
  coheriq_simd_headers(coheriq_engine_${name})
  coheriq_warnings(coheriq_engine_${name})
  coheriq_exact_floating_point(coheriq_engine_${name})
  coheriq_private_in_static_copy(coheriq_engine_${name} coheriq_kernels)

  # The descriptor: baseline code generated from the line.
  set(ENGINE_NAME ${name})
  set(ENGINE_DESCRIPTION "${COHERIQ_ENGINE_${name}_DESCRIPTION}")
  set(ENGINE_PRIORITY ${COHERIQ_ENGINE_${name}_PRIORITY})
  coheriq_cxx_strings(ENGINE_BASES ${COHERIQ_ENGINE_${name}_BASES})
  coheriq_cxx_strings(ENGINE_FEATURES ${COHERIQ_ISA_${isa}_FEATURES})
  set(ENGINE_HOST "")
  foreach(item IN LISTS COHERIQ_ENGINE_${name}_HOST)
    if(NOT item MATCHES "^(vendor|families|min_vector_bits|min_l1d_bytes|min_l2_bytes)=(.+)$")
      message(FATAL_ERROR "coheriq: engine '${name}': HOST item '${item}' is not one of vendor=, "
                          "families=, min_vector_bits=, min_l1d_bytes=, min_l2_bytes=")
    endif()
    set(key ${CMAKE_MATCH_1})
    set(value ${CMAKE_MATCH_2})
    if(key STREQUAL "vendor")
      string(APPEND ENGINE_HOST "  e.host.vendor = \"${value}\";\n")
    elseif(key STREQUAL "families")
      string(REPLACE "|" ", " value "${value}")
      string(APPEND ENGINE_HOST "  e.host.families = {${value}};\n")
    else()
      string(APPEND ENGINE_HOST "  e.host.${key} = ${value};\n")
    endif()
  endforeach()
  configure_file(${PROJECT_SOURCE_DIR}/src/kernels/descriptor.cpp.in
                 ${CMAKE_CURRENT_BINARY_DIR}/engines/${name}/descriptor.cpp @ONLY)
  target_sources(coheriq_kernels PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/engines/${name}/descriptor.cpp
                                         $<TARGET_OBJECTS:coheriq_engine_${name}>)
endfunction()
