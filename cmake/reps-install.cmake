# Installation of the standalone build, and the checks of what it installs.
#
# reps_install_package(): `cmake --install build [--prefix DIR]` puts in place
#   include/ns3/*.h                     the public headers, ns3/reps-module.h and
#                                       ns3/reps-experiment-module.h
#   lib/libns3-reps.so                  the module (models, helpers, workloads)
#   lib/libns3-reps-experiment.so       the experiment layer
#   lib/cmake/reps/                     the CMake package: find_package(reps) gives the imported
#                                       targets reps::reps and reps::experiment, which carry the
#                                       include directory, the ns-3 targets they link, the C++
#                                       standard and the ns-3 version define (REPS_NS3_VERSION)
#   lib/pkgconfig/reps.pc, reps-experiment.pc   the same for pkg-config
# Every path is relative to the prefix, so the package can be installed anywhere (a prefix of
# one's own needs no root) and moved.
#
# reps_add_header_check(): a target that compiles one translation unit per installed header,
# each including that header alone, so that a header missing an include fails the build.
#
# reps_add_install_check(): the CTest entry reps-install-external, which installs into a
# prefix in the build tree and builds examples/reps-research-script.cc against it as a program
# of its own would be built (cmake/reps-check-install.cmake).

include(CMakePackageConfigHelpers)

set(REPS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/reps)
set(REPS_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

function(reps_install_package)
  # The experiment layer finds the module next to itself wherever both are installed.
  set_target_properties(reps PROPERTIES EXPORT_NAME reps INSTALL_RPATH "\$ORIGIN")
  set_target_properties(reps-experiment PROPERTIES EXPORT_NAME experiment
                                                   INSTALL_RPATH "\$ORIGIN")
  install(
    TARGETS reps reps-experiment
    EXPORT reps-targets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  )
  get_property(headers GLOBAL PROPERTY REPS_PUBLIC_HEADERS)
  list(TRANSFORM headers PREPEND ${REPS_INCLUDE_DIR}/ns3/)
  install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)

  install(
    EXPORT reps-targets
    NAMESPACE reps::
    FILE reps-targets.cmake
    DESTINATION ${REPS_INSTALL_CMAKEDIR}
  )
  # What reps-config.cmake.in checks and states about the ns-3 the module was built against.
  set(REPS_PACKAGE_NS3_VERSION ${ns3_VERSION})
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/reps-config.cmake.in ${PROJECT_BINARY_DIR}/reps-config.cmake
    INSTALL_DESTINATION ${REPS_INSTALL_CMAKEDIR}
  )
  # 0.x: a new minor version may change the API.
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/reps-config-version.cmake
    VERSION ${PROJECT_VERSION}
    COMPATIBILITY SameMinorVersion
  )
  install(FILES ${PROJECT_BINARY_DIR}/reps-config.cmake
                ${PROJECT_BINARY_DIR}/reps-config-version.cmake
          DESTINATION ${REPS_INSTALL_CMAKEDIR}
  )

  # pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}).
  file(RELATIVE_PATH REPS_PC_PREFIX /prefix/${REPS_INSTALL_PKGCONFIGDIR} /prefix)
  string(REGEX REPLACE "/$" "" REPS_PC_PREFIX "${REPS_PC_PREFIX}")
  foreach(pc reps reps-experiment)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${REPS_INSTALL_PKGCONFIGDIR})
  endforeach()
endfunction()

function(reps_add_header_check)
  get_property(headers GLOBAL PROPERTY REPS_PUBLIC_HEADERS)
  set(sources)
  foreach(header ${headers})
    string(REGEX REPLACE "\\.h$" "" stem ${header})
    set(source ${PROJECT_BINARY_DIR}/header-check/${stem}.cc)
    file(GENERATE OUTPUT ${source} CONTENT "#include \"ns3/${header}\"\n")
    list(APPEND sources ${source})
  endforeach()
  # What the aggregate header's API hands out is complete, not only declared: the devices and
  # queue discs of the fabric's links can be used with ns3/reps-module.h alone.
  set(source ${PROJECT_BINARY_DIR}/header-check/reps-module-api.cc)
  string(CONCAT api
       "#include \"ns3/reps-module.h\"\n"
       "uint16_t LinkMtu(ns3::Ptr<ns3::ClosFabric> f) { return f->GetLinkDevice(0, 0)->GetMtu(); }\n"
       "uint32_t QueuedPackets(ns3::Ptr<ns3::ClosFabric> f) { return f->GetQueueDisc(0, 0)->GetNPackets(); }\n")
  file(GENERATE OUTPUT ${source} CONTENT "${api}")
  list(APPEND sources ${source})
  add_library(reps-header-check OBJECT ${sources})
  # As a program outside the module compiles them: no NS3_MODULE_COMPILATION, the headers
  # only through the include directory the package gives.
  target_link_libraries(reps-header-check PRIVATE reps-experiment)
  set_target_properties(reps-header-check PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
  # Only whether each compiles matters: no optimization, no debug information.
  target_compile_options(reps-header-check PRIVATE -O0 -g0)
  add_dependencies(reps-header-check reps reps-experiment)
endfunction()

function(reps_add_install_check)
  find_program(REPS_PKG_CONFIG pkg-config)
  add_test(
    NAME reps-install-external
    COMMAND
      ${CMAKE_COMMAND} -D BUILD_DIR=${PROJECT_BINARY_DIR} -D
      WORK_DIR=${PROJECT_BINARY_DIR}/install-check -D SOURCE_DIR=${PROJECT_SOURCE_DIR} -D
      GENERATOR=${CMAKE_GENERATOR} -D CXX=${CMAKE_CXX_COMPILER} -D
      LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER} -D PKG_CONFIG=${REPS_PKG_CONFIG} -D
      NS3_VERSION=${REPS_NS3_VERSION} -D BUILD_TYPE=${CMAKE_BUILD_TYPE} -D
      "CXX_FLAGS=${CMAKE_CXX_FLAGS}" -D "EXE_LINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS}" -P
      ${PROJECT_SOURCE_DIR}/cmake/reps-check-install.cmake
  )
  set_tests_properties(reps-install-external PROPERTIES TIMEOUT 300 RUN_SERIAL ON)
endfunction()
