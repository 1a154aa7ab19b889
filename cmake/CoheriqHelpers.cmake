# Warnings for project code (not for dependencies), errors with COHERIQ_WERROR.
function(coheriq_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(COHERIQ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Highway's and xsimd's headers, without linking anything: engines use static dispatch only, so
# the runtime library never depends on libhwy.
function(coheriq_simd_headers target)
  find_package(hwy CONFIG REQUIRED)
  find_package(xsimd CONFIG QUIET)
  get_target_property(hwy_inc hwy::hwy INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(${target} SYSTEM PRIVATE ${hwy_inc})
  if(xsimd_FOUND)
    get_target_property(xsimd_inc xsimd INTERFACE_INCLUDE_DIRECTORIES)
    target_include_directories(${target} SYSTEM PRIVATE ${xsimd_inc})
  endif()
endfunction()
