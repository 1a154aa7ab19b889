# Install rules, the CMake package (coheriq::coheriq, coheriq::kernels) and coheriq.pc.
include(CMakePackageConfigHelpers)

install(TARGETS coheriq coheriq_kernels EXPORT coheriqTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/coheriq DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

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

if(CMAKE_DL_LIBS)
  set(CMAKE_DL_LIBS_FLAG -l${CMAKE_DL_LIBS})
endif()
# Relocatable: the prefix is found relative to the .pc file.
file(RELATIVE_PATH COHERIQ_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/coheriq.pc.in ${PROJECT_BINARY_DIR}/coheriq.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/coheriq.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
