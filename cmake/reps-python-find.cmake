# Finding a Python for the module's Python parts, in both build modes.

# reps_python_with(VAR module...): sets VAR to a Python interpreter that imports every module
# (Debian's python3-* packages live in /usr/bin/python3, which a python3 found first on PATH,
# a virtualenv or pyenv, may not see), or to "" when neither does.
function(reps_python_with var)
  set(${var} "" PARENT_SCOPE)
  set(imports "")
  foreach(module ${ARGN})
    string(APPEND imports "import ${module}; ")
  endforeach()
  foreach(python ${Python3_EXECUTABLE} /usr/bin/python3)
    if(EXISTS ${python})
      execute_process(COMMAND ${python} -c "${imports}" RESULT_VARIABLE status
                      OUTPUT_QUIET ERROR_QUIET)
      if(status EQUAL 0)
        set(${var} ${python} PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
endfunction()
