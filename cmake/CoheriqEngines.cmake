# The built-in engines of the kernels domain: one place that says, per engine, its ISA flags and
# its Highway static target. Highway silently drops to an older target when a flag is missing,
# so every kernels TU also static_asserts its target.

set(COHERIQ_FLAGS_avx2 -mavx2 -mfma -mbmi -mbmi2 -mf16c -mpclmul -maes)
set(COHERIQ_FLAGS_avx512 ${COHERIQ_FLAGS_avx2} -mavx512f -mavx512bw -mavx512dq -mavx512vl)

# Built-in engines for this target, highest priority first (the registry's order).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(default_engines avx512 avx2)
else()
  set(default_engines)
endif()
set(COHERIQ_ENGINES "${default_engines}" CACHE STRING
    "Built-in engines of the kernels domain, highest priority first (empty: reference only)")
set(COHERIQ_BUILTIN_ENGINES ${COHERIQ_ENGINES})

# coheriq_kernels_engine(<name>): an OBJECT library with the engine's kernels TU (ISA flags) and
# its descriptor (baseline flags), linked into coheriq_kernels.
function(coheriq_kernels_engine name)
  set(dir ${PROJECT_SOURCE_DIR}/src/engines/${name})
  add_library(coheriq_engine_${name} OBJECT ${dir}/kernels.cpp)
  target_compile_options(coheriq_engine_${name} PRIVATE ${COHERIQ_FLAGS_${name}})
  target_include_directories(coheriq_engine_${name} PRIVATE ${PROJECT_SOURCE_DIR}/include
                                                            ${PROJECT_SOURCE_DIR}/src)
  set_target_properties(coheriq_engine_${name} PROPERTIES CXX_STANDARD 20 CXX_EXTENSIONS OFF
                                                          POSITION_INDEPENDENT_CODE ON)
  coheriq_simd_headers(coheriq_engine_${name})
  coheriq_warnings(coheriq_engine_${name})
  target_sources(coheriq_kernels PRIVATE ${dir}/engine.cpp
                                         $<TARGET_OBJECTS:coheriq_engine_${name}>)
endfunction()
