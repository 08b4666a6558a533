/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PYTHON_SIMULATOR_H
#define REPS_PYTHON_SIMULATOR_H

#include <cstdint>
#include <pybind11/pybind11.h>
#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * ns-3's Config and Simulator for Python scripts (reps.Config, reps.Simulator): attribute
 * defaults and values by path with the command line's checks, trace hooks by path, and a run
 * that re-raises the exception of a hook. Simulator::Destroy() ends a generation: handles of
 * objects made before it (GetGeneration()) raise instead of touching freed objects.
 */
class PythonSimulator
{
  public:
    /**
     * Add the functions to the extension module.
     * \param m the module
     */
    static void Bind(pybind11::module_& m);

    /// \return the number of Simulator::Destroy() calls made through the bindings
    static uint64_t GetGeneration();

    /**
     * Raise RuntimeError when \p generation has ended (Simulator::Destroy() since).
     * \param generation what GetGeneration() said when the object was made
     * \param what the object, for the message
     */
    static void CheckAlive(uint64_t generation, const std::string& what);

    /// Simulator::Destroy(), forget the hooks, end the generation.
    static void Destroy();
};

} // namespace ns3

#endif /* REPS_PYTHON_SIMULATOR_H */
