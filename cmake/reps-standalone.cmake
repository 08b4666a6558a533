# Standalone build of the reps module against an installed ns-3 (find_package(ns3)).
#
# Provides build_lib() and build_lib_example() with the same arguments as ns-3's own macros, so
# that the module's CMakeLists.txt is the same file in both build modes. What it produces:
#   build/include/ns3/*.h            the module's public headers and ns3/reps-module.h
#   build/lib/libns3-reps.so         the module library
#   build/examples/<name>            one program per example
#   build/reps-test-runner           every ns-3 TestSuite of the module, one CTest entry each
#   build/reps-gtest                 GoogleTest unit tests of the plain-C++ cores, if installed

include(CTest)
include(GNUInstallDirs)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

find_package(ns3 REQUIRED)
set(REPS_NS3_VERSION_STRING ${ns3_VERSION})

if(NOT CMAKE_CXX_STANDARD)
  # ns-3 up to 3.44 needs C++17; later releases need C++20.
  if(ns3_VERSION VERSION_LESS 3.45)
    set(CMAKE_CXX_STANDARD 17)
  else()
    set(CMAKE_CXX_STANDARD 20)
  endif()
endif()
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)

option(REPS_ENABLE_ASSERTS "Compile NS_ASSERT checks into the module" ON)
option(REPS_ENABLE_LOGS "Compile NS_LOG statements into the module (slower hot paths)" OFF)
option(REPS_BUILD_EXAMPLES "Build the example programs" ON)
set(REPS_TEST_FULLNESS
    "EXTENSIVE"
    CACHE STRING "Largest ns-3 test duration CTest runs: QUICK, EXTENSIVE or TAKES_FOREVER"
)
set_property(CACHE REPS_TEST_FULLNESS PROPERTY STRINGS QUICK EXTENSIVE TAKES_FOREVER)

# ns-3's imported targets are ns3::libX up to 3.42 and ns3::X from 3.43; the module's lists use
# ns-3's in-tree variables (${libcore}, ...), so map them here.
foreach(
  module
  core
  network
  internet
  point-to-point
  traffic-control
  applications
  flow-monitor
  stats
  bridge
  csma
  mpi
)
  if(TARGET ns3::lib${module})
    set(lib${module} ns3::lib${module})
  elseif(TARGET ns3::${module})
    set(lib${module} ns3::${module})
  endif()
endforeach()

set(REPS_INCLUDE_DIR ${CMAKE_BINARY_DIR}/include)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})

# Compile definitions ns-3 itself uses for its build profiles.
function(reps_apply_profile target)
  if(REPS_ENABLE_ASSERTS)
    target_compile_definitions(${target} PRIVATE NS3_ASSERT_ENABLE)
  endif()
  if(REPS_ENABLE_LOGS)
    target_compile_definitions(${target} PRIVATE NS3_LOG_ENABLE)
  endif()
endfunction()

function(build_lib)
  set(options IGNORE_PCH)
  set(oneValueArgs LIBNAME)
  set(multiValueArgs
      SOURCE_FILES
      HEADER_FILES
      LIBRARIES_TO_LINK
      TEST_SOURCES
      DEPRECATED_HEADER_FILES
      MODULE_ENABLED_FEATURES
      PRIVATE_HEADER_FILES
  )
  cmake_parse_arguments("BLIB" "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  set(name ${BLIB_LIBNAME})

  # Public headers are used as ns3/<file>.h, as in an ns-3 build tree.
  set(module_header_contents "// Aggregate header of the ${name} module (generated).\n")
  string(APPEND module_header_contents "#ifdef NS3_MODULE_COMPILATION\n")
  string(APPEND module_header_contents
         "#error \"Do not include ns3 module aggregator headers from other modules\"\n#endif\n"
  )
  foreach(header ${BLIB_HEADER_FILES})
    get_filename_component(header_name ${header} NAME)
    configure_file(${header} ${REPS_INCLUDE_DIR}/ns3/${header_name} COPYONLY)
    string(APPEND module_header_contents "#include \"${header_name}\"\n")
    set_property(GLOBAL APPEND PROPERTY REPS_PUBLIC_HEADERS ${header_name})
  endforeach()
  file(GENERATE OUTPUT ${REPS_INCLUDE_DIR}/ns3/${name}-module.h
       CONTENT "${module_header_contents}"
  )

  set_property(GLOBAL APPEND PROPERTY REPS_PUBLIC_HEADERS ${name}-module.h)

  add_library(${name} SHARED ${BLIB_SOURCE_FILES} ${BLIB_HEADER_FILES})
  set_target_properties(${name} PROPERTIES OUTPUT_NAME ns3-${name})
  # The build tree's copies here, the installed ones once installed (cmake/reps-install.cmake).
  target_include_directories(
    ${name} PUBLIC $<BUILD_INTERFACE:${REPS_INCLUDE_DIR}>
                   $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
  )
  # A program using the module's headers needs the standard ns-3 needs.
  target_compile_features(${name} PUBLIC cxx_std_${CMAKE_CXX_STANDARD})
  target_compile_definitions(${name} PRIVATE NS3_MODULE_COMPILATION)
  target_link_libraries(${name} PUBLIC ${BLIB_LIBRARIES_TO_LINK})
  reps_apply_profile(${name})
  set(lib${name} ${name} PARENT_SCOPE)
  set(lib${name} ${name})

  if(BLIB_TEST_SOURCES AND BUILD_TESTING)
    set(runner ${name}-test-runner)
    add_executable(${runner} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/standalone-test-runner.cc
                             ${BLIB_TEST_SOURCES}
    )
    # The plain signature, as ns-3 uses for its test libraries, so that more can be linked later.
    target_link_libraries(${runner} ${name} ${BLIB_LIBRARIES_TO_LINK})
    target_compile_definitions(
      ${runner} PRIVATE NS_TEST_SOURCEDIR="${CMAKE_CURRENT_SOURCE_DIR}/test"
    )
    reps_apply_profile(${runner})
    set(test${name} ${runner} PARENT_SCOPE)

    # One CTest entry per TestSuite, discovered from the built runner (as GoogleTest's
    # gtest_discover_tests does), so that a failure names its suite.
    set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${runner}-suites.cmake)
    add_custom_command(
      TARGET ${runner}
      POST_BUILD
      COMMAND
        ${CMAKE_COMMAND} -D RUNNER=$<TARGET_FILE:${runner}> -D OUTPUT=${ctest_file} -D
        FULLNESS=${REPS_TEST_FULLNESS} -D WORKDIR=${CMAKE_CURRENT_BINARY_DIR} -P
        ${CMAKE_CURRENT_SOURCE_DIR}/cmake/reps-discover-suites.cmake
      BYPRODUCTS ${ctest_file}
      VERBATIM
    )
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${ctest_file})
  endif()

  if(REPS_BUILD_EXAMPLES AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()
endfunction()

function(build_lib_example)
  set(options IGNORE_PCH)
  set(oneValueArgs NAME)
  set(multiValueArgs SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK)
  cmake_parse_arguments("BLIB_EXAMPLE" "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES} ${BLIB_EXAMPLE_HEADER_FILES})
  # The plain signature, as ns-3's build_exec uses, so that more can be linked later.
  target_link_libraries(${BLIB_EXAMPLE_NAME} ${lib${BLIB_LIBNAME}} ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
  set_target_properties(
    ${BLIB_EXAMPLE_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/examples
  )
  reps_apply_profile(${BLIB_EXAMPLE_NAME})
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/reps-install.cmake)

# GoogleTest unit tests of the plain-C++ cores (Debian: libgtest-dev).
function(reps_add_gtests)
  if(NOT BUILD_TESTING OR NOT ARGN)
    return()
  endif()
  find_package(GTest)
  if(NOT GTest_FOUND)
    message(WARNING "reps: GoogleTest not found; the unit tests of the plain-C++ cores are skipped")
    return()
  endif()
  include(GoogleTest)
  add_executable(reps-gtest ${ARGN})
  target_link_libraries(reps-gtest PRIVATE ${libreps} reps-experiment GTest::gtest GTest::gtest_main)
  reps_apply_profile(reps-gtest)
  gtest_discover_tests(reps-gtest TEST_PREFIX "gtest." DISCOVERY_TIMEOUT 30)
endfunction()

# The file lists of CMakeLists.txt and wscript must agree.
if(BUILD_TESTING)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    add_test(NAME reps-build-lists
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/utils/check-build-lists.py
                     ${CMAKE_CURRENT_SOURCE_DIR}
    )
    # The folders stay layers (no upward include) and the code readable (function lengths).
    add_test(NAME reps-layers
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-layers.py
                     ${CMAKE_CURRENT_SOURCE_DIR}
    )
    # The manual's research-script chapter quotes the program and its CMakeLists.txt as
    # they are (the program compiles, so its snippets do).
    add_test(NAME reps-manual-snippets
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-manual-snippets.py
                     ${CMAKE_CURRENT_SOURCE_DIR}
    )
    # The checker itself, on fixture sources (test/data/check-layers) with known problems.
    add_test(NAME reps-layers-checker
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test/check-layers-test.py
                     ${CMAKE_CURRENT_SOURCE_DIR}
    )
  endif()
endif()
