# Warnings for project code (not for dependencies), errors with COHERIQ_WERROR.
function(coheriq_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(COHERIQ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

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
