# reps_experiment_library(SOURCE_FILES ... HEADER_FILES ...): the experiment layer of the reps
# module as a shared library of its own, target "reps-experiment", above the module library
# (${libreps}) and the only part that links the JSON library. Works in both build modes:
# in an ns-3 tree (after ns-3's build_lib) and standalone (after the shim's build_lib).
#
# Its public headers are copied next to the module's (ns3/<name>.h), with an aggregate header
# ns3/reps-experiment-module.h. The module's test library and GoogleTest runner link it, since
# some test suites exercise the experiments.

find_package(nlohmann_json 3.2 REQUIRED)

function(reps_experiment_library)
  cmake_parse_arguments("REXP" "" "" "SOURCE_FILES;HEADER_FILES" ${ARGN})
  if(DEFINED CMAKE_HEADER_OUTPUT_DIRECTORY)
    set(include_dir ${CMAKE_HEADER_OUTPUT_DIRECTORY}) # an ns-3 tree: build/include/ns3
  else()
    set(include_dir ${REPS_INCLUDE_DIR}/ns3)
  endif()
  set(aggregate "// Aggregate header of the reps experiment layer (generated).\n")
  foreach(header ${REXP_HEADER_FILES})
    get_filename_component(header_name ${header} NAME)
    configure_file(${header} ${include_dir}/${header_name} COPYONLY)
    string(APPEND aggregate "#include \"${header_name}\"\n")
    set_property(GLOBAL APPEND PROPERTY REPS_PUBLIC_HEADERS ${header_name})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY REPS_PUBLIC_HEADERS reps-experiment-module.h)
  file(GENERATE OUTPUT ${include_dir}/reps-experiment-module.h CONTENT "${aggregate}")

  add_library(reps-experiment SHARED ${REXP_SOURCE_FILES} ${REXP_HEADER_FILES})
  if(DEFINED NS3_VER)
    # In an ns-3 tree, named like ns-3's own libraries (libns3.37-reps-experiment-default.so).
    set_target_properties(
      reps-experiment PROPERTIES OUTPUT_NAME ns${NS3_VER}-reps-experiment${build_profile_suffix}
    )
  else()
    set_target_properties(reps-experiment PROPERTIES OUTPUT_NAME ns3-reps-experiment)
    target_include_directories(
      reps-experiment PUBLIC $<BUILD_INTERFACE:${REPS_INCLUDE_DIR}>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    )
    if(COMMAND reps_apply_profile)
      reps_apply_profile(reps-experiment)
    endif()
  endif()
  if(NS3_MONOLIB AND DEFINED lib-ns3-monolib)
    # An ns-3 tree built as one library (--enable-monolib): the module's objects are in it,
    # and the programs link it; linking the module's own library as well would load the
    # module twice (every log component and TypeId registered twice).
    set(module_library ${lib-ns3-monolib})
  else()
    set(module_library ${libreps})
  endif()
  target_link_libraries(reps-experiment PUBLIC ${module_library} nlohmann_json::nlohmann_json)
  if(ENABLE_MPI AND libmpi)
    # An ns-3 tree configured with --enable-mpi (NS3_MPI defined everywhere): --systems runs
    # on ns-3's distributed engine and gathers the results with MPI.
    target_link_libraries(reps-experiment PUBLIC ${libmpi} ${MPI_CXX_LIBRARIES})
  endif()
  if(TARGET ${libreps}-obj)
    # ns-3 compiles the module from an object library: the headers are copied when it builds.
    add_dependencies(reps-experiment ${libreps})
  endif()
  if(testreps AND TARGET ${testreps})
    target_link_libraries(${testreps} reps-experiment) # ns-3 links it with the plain signature
  endif()
endfunction()

# reps_link_experiment(TARGET...): programs (examples) that use the experiment layer link its
# library. ns-3's build_lib_example accepts only ns-3 modules in LIBRARIES_TO_LINK (an example
# naming anything else is silently not built), so the link is added to the built target.
function(reps_link_experiment)
  foreach(program ${ARGN})
    if(TARGET ${program})
      target_link_libraries(${program} reps-experiment)
    endif()
  endforeach()
endfunction()
