# Installation: public headers, the library, and a CMake package so that consumers can write
#
#   find_package(redisson CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE redisson::redisson)
#
# Layout under the prefix:
#   include/redisson/**.hpp                       public headers only (src/ is never installed)
#   lib/libredisson.a (or .so)
#   lib/cmake/redisson/redissonConfig.cmake        finds Threads, OpenSSL and asio, then includes
#   lib/cmake/redisson/redissonConfigVersion.cmake
#   lib/cmake/redisson/redissonTargets*.cmake      the exported target redisson::redisson
#   lib/pkgconfig/redisson.pc                      for builds without CMake
#   share/redisson/examples/                       the examples and a sample redisson.yml
#
# Included from the top-level CMakeLists.txt (include(cmake/install.cmake OPTIONAL)).
include(CMakePackageConfigHelpers)

set(REDISSON_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/redisson
    CACHE STRING "Where redissonConfig.cmake is installed (relative to the prefix)")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/redisson
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT redisson_development
        FILES_MATCHING PATTERN "*.hpp")

install(TARGETS redisson
        EXPORT redissonTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT redisson_development
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT redisson_runtime
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT redisson_runtime)
# (The include dir comes from the target's $<INSTALL_INTERFACE:include>.)

install(EXPORT redissonTargets
        NAMESPACE redisson::
        FILE redissonTargets.cmake
        DESTINATION ${REDISSON_INSTALL_CMAKEDIR}
        COMPONENT redisson_development)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/redissonConfig.cmake.in
  ${PROJECT_BINARY_DIR}/redissonConfig.cmake
  INSTALL_DESTINATION ${REDISSON_INSTALL_CMAKEDIR})

# 0.x releases may break the API between minor versions.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/redissonConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)

install(FILES ${PROJECT_BINARY_DIR}/redissonConfig.cmake
              ${PROJECT_BINARY_DIR}/redissonConfigVersion.cmake
        DESTINATION ${REDISSON_INSTALL_CMAKEDIR}
        COMPONENT redisson_development)

# pkg-config: lib/pkgconfig/redisson.pc. A static libredisson needs its private dependencies on
# every link line, so they go in Libs; a shared one carries them itself.
set(redisson_pc_dependencies "-lssl -lcrypto -lyaml-cpp")
if(BUILD_SHARED_LIBS)
  set(REDISSON_PC_STATIC_LIBS "")
  set(REDISSON_PC_SHARED_PRIVATE_LIBS "${redisson_pc_dependencies}")
else()
  set(REDISSON_PC_STATIC_LIBS "${redisson_pc_dependencies}")
  set(REDISSON_PC_SHARED_PRIVATE_LIBS "")
endif()
file(RELATIVE_PATH REDISSON_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file(${CMAKE_CURRENT_LIST_DIR}/redisson.pc.in ${PROJECT_BINARY_DIR}/redisson.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/redisson.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT redisson_development)

# The examples (each a complete program) and a sample redisson.yml, for reading and copying.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/redisson/examples
        COMPONENT redisson_development
        FILES_MATCHING PATTERN "*.cpp" PATTERN "redisson.yml")
