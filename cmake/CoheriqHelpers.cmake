# Warnings for project code (not for dependencies), errors with COHERIQ_WERROR.
function(coheriq_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(COHERIQ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# ASan's use-after-scope checks (GCC's default with -fsanitize=address) keep every inlined local in
# memory, poisoned and unpoisoned around its scope. In the engines' SIMD translation units, where
# everything is inlined vectors, that is most of the compile: avx2's generic TU took 165 s of CPU
# under the asan preset with them and 48 s without (a test file, 12 s and 8 s). Those TUs and the
# test programs go without them (COHERIQ_NO_SCOPE_CHECKS: the engines' targets and tests/); the
# library's own C++ (core, the kernels' API and drivers, the BLAS layer), where a reference to an
# expired temporary is a plausible bug, keeps them. ASan's other checks stay everywhere.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[a-z,]*address")
  set(COHERIQ_NO_SCOPE_CHECKS -fno-sanitize-address-use-after-scope)
else()
  set(COHERIQ_NO_SCOPE_CHECKS "")
endif()

# What the test programs compile with, beyond the build's flags (tests/CMakeLists.txt applies it
# to every target of tests/). The library's code is what the suites check; the test programs' own
# code (doctest's expansions, the oracle, the case tables) was a third to a half of each stage's
# compile. So, in an optimised build, -O1 (a test file compiles in 35-65% of its -O3 time; the
# suites run longer, most under qemu, where the oracle is emulated); under UBSan, none of its
# checks, which instrument the tests' own arithmetic. ASan's checks stay: a library kernel that
# writes past a test's array is caught at the library's instrumented store. The library keeps its
# flags and both sanitizers. Figures: docs/decisions.md, "The test programs compile at -O1".
set(COHERIQ_TEST_COMPILE_OPTIONS ${COHERIQ_NO_SCOPE_CHECKS})
string(TOUPPER "${CMAKE_BUILD_TYPE}" coheriq_build_type)
if(CMAKE_CXX_FLAGS_${coheriq_build_type} MATCHES "-O[23]")
  list(APPEND COHERIQ_TEST_COMPILE_OPTIONS -O1)  # after the build type's flags: the last -O wins
endif()
unset(coheriq_build_type)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[a-z,]*undefined")
  list(APPEND COHERIQ_TEST_COMPILE_OPTIONS -fno-sanitize=undefined)
endif()

# Floating-point expressions as written: no contraction of a·b + c into a fused multiply-add
# (GCC contracts by default in C++, and Highway's x86 and NEON multiply and add are plain vector
# expressions it may fuse). The vector math performs the same roundings on every engine only if
# each multiply-add is fused exactly where the code says so (docs/decisions.md).
function(coheriq_exact_floating_point target)
  target_compile_options(${target} PRIVATE -ffp-contract=off)
endfunction()

# Highway's headers, without linking anything: engines use static dispatch only, so the runtime
# library never depends on libhwy. (xsimd was dropped: docs/decisions.md.)
function(coheriq_simd_headers target)
  find_package(hwy CONFIG REQUIRED)
  get_target_property(hwy_inc hwy::hwy INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(${target} SYSTEM PRIVATE ${hwy_inc})
endfunction()

# coheriq_private_in_static_copy(<target> <library>): when <library> is built static, <target>'s
# symbols (it is part of <library>) are hidden. A static copy is private to the binary it is
# linked into: two shared objects that each link one (two Python extensions, say) must never bind
# to each other's functions or data, whether loaded RTLD_LOCAL or RTLD_GLOBAL
# (docs/decisions.md, "Static copies"). Shared builds keep their exports.
function(coheriq_private_in_static_copy target library)
  get_target_property(type ${library} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden
                                               VISIBILITY_INLINES_HIDDEN ON)
  endif()
endfunction()
