# Install rules, the CMake package (coheriq::coheriq, coheriq::kernels) and coheriq.pc.
include(CMakePackageConfigHelpers)

install(TARGETS coheriq coheriq_kernels EXPORT coheriqTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# <coheriq/mpi.hpp> only with its component (src/mpi: built when MPI is found).
set(coheriq_header_filter)
if(NOT TARGET coheriq_mpi)
  set(coheriq_header_filter PATTERN mpi.hpp EXCLUDE)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/coheriq DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        ${coheriq_header_filter})

set(COHERIQ_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/coheriq)
install(EXPORT coheriqTargets NAMESPACE coheriq:: DESTINATION ${COHERIQ_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/coheriqConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/coheriqConfig.cmake
                              INSTALL_DESTINATION ${COHERIQ_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/coheriqConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/coheriqConfig.cmake
              ${PROJECT_BINARY_DIR}/coheriqConfigVersion.cmake
        DESTINATION ${COHERIQ_CMAKE_DIR})

# coheriq.pc. Decision (docs/decisions.md, "pkg-config"): the plain `pkg-config --libs coheriq`
# must link, from C++ and from C (gcc adds neither the C++ runtime nor libm). A static coheriq
# (the default, and all a default install holds) needs cpu_features, libdl, pthread, libstdc++
# and libm on the consumer's link line, so they go in Libs; only a shared coheriq, which records
# them itself, keeps them in Libs.private (for --static).
set(COHERIQ_PC_DEPENDENCIES)
# cpu_features: -L its directory unless the linker searches it anyway, then -lcpu_features.
get_target_property(cpu_features_location CpuFeatures::cpu_features LOCATION)
if(cpu_features_location)
  get_filename_component(cpu_features_dir "${cpu_features_location}" DIRECTORY)
  if(NOT cpu_features_dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
    list(APPEND COHERIQ_PC_DEPENDENCIES "-L${cpu_features_dir}")
  endif()
endif()
list(APPEND COHERIQ_PC_DEPENDENCIES -lcpu_features)
foreach(lib IN LISTS CMAKE_DL_LIBS)
  list(APPEND COHERIQ_PC_DEPENDENCIES -l${lib})
endforeach()
list(APPEND COHERIQ_PC_DEPENDENCIES -pthread -lstdc++ -lm)
list(JOIN COHERIQ_PC_DEPENDENCIES " " COHERIQ_PC_DEPENDENCIES)
if(BUILD_SHARED_LIBS)
  set(COHERIQ_PC_LIBS "")
  set(COHERIQ_PC_LIBS_PRIVATE "${COHERIQ_PC_DEPENDENCIES}")
else()
  set(COHERIQ_PC_LIBS " ${COHERIQ_PC_DEPENDENCIES}")
  set(COHERIQ_PC_LIBS_PRIVATE "")
endif()
# Relocatable: the prefix is found relative to the .pc file.
file(RELATIVE_PATH COHERIQ_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/coheriq.pc.in ${PROJECT_BINARY_DIR}/coheriq.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/coheriq.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# libcoheriq_blas (src/blas, docs/blas.md): the shared drop-in and its static archive, in the
# CMake package (coheriq::blas, coheriq::blas_static) and in coheriq-blas.pc. The shared library
# carries the kernels inside, so its .pc needs nothing else; --static adds the kernels libraries.
if(TARGET coheriq_blas)
  install(TARGETS coheriq_blas coheriq_blas_static EXPORT coheriqTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/coheriq-blas.pc.in
                 ${PROJECT_BINARY_DIR}/coheriq-blas.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/coheriq-blas.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
