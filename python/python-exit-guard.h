/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PYTHON_EXIT_GUARD_H
#define REPS_PYTHON_EXIT_GUARD_H

#include "ns3/option-parser.h"

#include <pybind11/pybind11.h>
#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * While alive, a refused configuration (OptionParser::Exit(), which exits the program on the
 * command line) throws pybind11::value_error with the same message instead, raised in Python
 * as ValueError: the interpreter survives a bad option.
 */
class PythonExitGuard
{
  public:
    PythonExitGuard()
    {
        OptionParser::SetExitHandler(
            [](const std::string& message) { throw pybind11::value_error(message); });
    }

    ~PythonExitGuard()
    {
        OptionParser::SetExitHandler({});
    }

    PythonExitGuard(const PythonExitGuard&) = delete;
    PythonExitGuard& operator=(const PythonExitGuard&) = delete;
};

} // namespace ns3

#endif /* REPS_PYTHON_EXIT_GUARD_H */
