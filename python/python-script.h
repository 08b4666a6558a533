/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PYTHON_SCRIPT_H
#define REPS_PYTHON_SCRIPT_H

#include <pybind11/pybind11.h>

namespace ns3
{

/**
 * \ingroup reps
 * The helpers of a research script for Python (reps.ClosFabricHelper, reps.RdmaHelper,
 * reps.WorkloadHelper, reps.RdmaFlowLauncher, reps.WorkloadRunner and what they return), so
 * that a Python script can do step by step what examples/reps-research-script.cc does, with
 * the same results.
 *
 * Attributes are given by name, their values as Python int, float, bool, str or reps.Time,
 * converted to text as the command line writes them (a reps.Time as it is) and checked by
 * AttributeCheck against the attribute's checker before a helper sees them: a name the type
 * does not have or a value out of range raises ValueError naming the object, the attribute
 * and what is allowed, where ns-3 would abort. Indices (hosts, leaves, links), times, rates
 * and sizes given to the fabric and the workload are checked the same way.
 *
 * The fabric, the launcher, the runner, their statistics and the handles of queue pairs and
 * path selectors belong to the simulation: they stay alive until Simulator::Destroy()
 * (PythonSimulator::Destroy(), also at the end of reps.Experiment.run()), whether or not
 * Python still refers to them, and raise RuntimeError naming the object once it has passed
 * (PythonSimulator::CheckAlive()). The helpers hold configuration only and may be used again.
 */
class PythonScript
{
  public:
    /**
     * Add the classes to the extension module.
     * \param m the module
     */
    static void Bind(pybind11::module_& m);
};

} // namespace ns3

#endif /* REPS_PYTHON_SCRIPT_H */
