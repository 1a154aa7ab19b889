# Warnings for project code (not for dependencies), errors with COHERIQ_WERROR.
function(coheriq_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(COHERIQ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Highway's headers, without linking anything: engines use static dispatch only, so the runtime
# library never depends on libhwy. (xsimd was dropped: docs/decisions.md.)
function(coheriq_simd_headers target)
  find_package(hwy CONFIG REQUIRED)
  get_target_property(hwy_inc hwy::hwy INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(${target} SYSTEM PRIVATE ${hwy_inc})
endfunction()
