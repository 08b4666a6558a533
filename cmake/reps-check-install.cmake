# The installed package, used as a program outside the module uses it (CTest entry
# reps-install-external, see cmake/reps-install.cmake):
#   1. cmake --install into a prefix of its own (no root needed);
#   2. examples/reps-research-script.cc, copied as my-study.cc next to the CMakeLists.txt of
#      examples/out-of-tree/ (the one the manual shows), configured with find_package(reps)
#      against that prefix only, built, and run on a small fabric: every flow must complete;
#   3. the same program with an attribute value out of range (--mtu=65500 gives the devices an
#      MTU of 65604) stops with a message naming the
#      object, the attribute and the allowed range, with exit status 1 (not an abort);
#   4. a one-line program compiled and linked with `pkg-config --cflags --libs reps`, which
#      checks that the version define is the module's (not the fallback of
#      model/reps-ns3-compat.h) and runs.
# Inputs: BUILD_DIR, WORK_DIR, SOURCE_DIR, GENERATOR, CXX, LAUNCHER (may be empty),
# PKG_CONFIG (may be empty), NS3_VERSION (REPS_NS3_VERSION of the build), BUILD_TYPE,
# CXX_FLAGS and EXE_LINKER_FLAGS (the build's own, may be empty: a program links against the
# installed libraries with the flags they were built with, e.g. the sanitizers').

function(run)
  cmake_parse_arguments(RUN "" "WHAT;EXPECT" "COMMAND;ENV" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${RUN_ENV} ${RUN_COMMAND}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${RUN_WHAT} failed (${status}):\n${RUN_COMMAND}\n${out}${err}")
  endif()
  if(RUN_EXPECT AND NOT "${out}" MATCHES "${RUN_EXPECT}")
    message(FATAL_ERROR "${RUN_WHAT}: the output does not match '${RUN_EXPECT}':\n${out}${err}")
  endif()
  message(STATUS "${RUN_WHAT}: ok")
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# REPS_INSTALL_CHECK_DIR in the environment puts the prefix and the project elsewhere (CI: a
# temporary directory outside the build tree).
if(DEFINED ENV{REPS_INSTALL_CHECK_DIR} AND NOT "$ENV{REPS_INSTALL_CHECK_DIR}" STREQUAL "")
  set(WORK_DIR $ENV{REPS_INSTALL_CHECK_DIR})
endif()
set(prefix ${WORK_DIR}/prefix)
set(project ${WORK_DIR}/my-study)
set(build ${WORK_DIR}/my-study-build)
file(REMOVE_RECURSE ${prefix} ${project} ${build}/CMakeCache.txt)
file(MAKE_DIRECTORY ${project})

# 1. Install.
run(WHAT "cmake --install" COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(file include/ns3/reps-module.h include/ns3/reps-experiment-module.h)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()
file(GLOB_RECURSE config ${prefix}/*/reps-config.cmake)
file(GLOB_RECURSE pc ${prefix}/*/reps.pc)
if(NOT config OR NOT pc)
  message(FATAL_ERROR "cmake --install did not install reps-config.cmake and reps.pc")
endif()
get_filename_component(pc_dir ${pc} DIRECTORY)

# 2. The research script as a project of its own, against the prefix alone (the build tree's
# package registry and the module's build directory are not looked at).
configure_file(${SOURCE_DIR}/examples/out-of-tree/CMakeLists.txt ${project}/CMakeLists.txt
               COPYONLY)
configure_file(${SOURCE_DIR}/examples/reps-research-script.cc ${project}/my-study.cc COPYONLY)
set(configure_args -S ${project} -B ${build} -G ${GENERATOR} -D CMAKE_BUILD_TYPE=${BUILD_TYPE}
                   -D CMAKE_CXX_COMPILER=${CXX} -D CMAKE_PREFIX_PATH=${prefix}
                   -D CMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
                   "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
                   "-DCMAKE_EXE_LINKER_FLAGS=${EXE_LINKER_FLAGS}")
if(LAUNCHER)
  list(APPEND configure_args -D CMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run(WHAT "configure with find_package(reps)" COMMAND ${CMAKE_COMMAND} ${configure_args})
run(WHAT "build my-study" COMMAND ${CMAKE_COMMAND} --build ${build})
run(WHAT "run my-study"
    COMMAND ${build}/my-study --leaves=2 --hostsPerLeaf=2 --spines=2 --flowBytes=65536
    EXPECT "flows completed +4 of 4")

# 3. A refused attribute value: the helper's message, exit status 1.
execute_process(COMMAND ${build}/my-study --leaves=2 --hostsPerLeaf=2 --spines=2 --mtu=65500
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(CONCAT expected "error: ClosFabricHelper: SetAttribute: ns3::ClosFabricHelper::Mtu = "
       "65604 is out of range; allowed: 68 to 65535")
if(NOT status EQUAL 1 OR NOT "${err}" MATCHES "${expected}")
  message(FATAL_ERROR "my-study --mtu=65500: expected exit status 1 and '${expected}', got "
                      "status ${status}:\n${out}${err}")
endif()
message(STATUS "my-study --mtu=65500 refused: ${err}")

# 4. pkg-config, with a one-line program.
if(NOT PKG_CONFIG)
  message(STATUS "pkg-config not found (Debian: pkg-config); reps.pc not checked")
  return()
endif()
run(WHAT "pkg-config --cflags --libs reps" ENV PKG_CONFIG_PATH=${pc_dir}
    COMMAND ${PKG_CONFIG} --cflags --libs reps)
separate_arguments(flags UNIX_COMMAND "${run_output}")
file(WRITE ${WORK_DIR}/one-line.cc
     "#include \"ns3/reps-module.h\"\n"
     "static_assert(REPS_NS3_VERSION == ${NS3_VERSION}, \"REPS_NS3_VERSION\"); int main() { return ns3::CreateObject<ns3::ClosFabricHelper>()->Validate().empty() ? 0 : 1; }\n")
set(compiler ${CXX})
if(LAUNCHER)
  set(compiler ${LAUNCHER} ${CXX})
endif()
separate_arguments(build_flags UNIX_COMMAND "${CXX_FLAGS} ${EXE_LINKER_FLAGS}")
run(WHAT "compile a program with pkg-config"
    COMMAND ${compiler} ${build_flags} ${WORK_DIR}/one-line.cc -o ${WORK_DIR}/one-line ${flags})
run(WHAT "run it" COMMAND ${WORK_DIR}/one-line)
