/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup reps
 * The Python extension module reps._reps (pybind11): the experiment (PythonExperiment), ns-3's
 * Config and Simulator, trace hooks, and path selectors written in Python. The package reps (python/reps/__init__.py) wraps it
 * in the Python API the manual's chapter "Python" describes.
 */

#include "python-experiment.h"
#include "python-script.h"
#include "python-selector.h"
#include "python-simulator.h"
#include "python-trace.h"

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace ns3;

PYBIND11_MODULE(_reps, m)
{
    m.doc() = "ns-3 reps module: load balancing in AI fabrics (core of the reps package)";

    py::class_<PythonExperiment>(m, "Experiment")
        .def(py::init<PythonExperiment::Options>(), py::arg("options"))
        .def("run", &PythonExperiment::Run, py::arg("lb"))
        .def("connect",
             &PythonExperiment::Connect,
             py::arg("target"),
             py::arg("fn"),
             py::arg("context"))
        .def("config", &PythonExperiment::GetConfig)
        .def_static("option_names", &PythonExperiment::GetOptionNames);

    m.def("trace_callbacks",
          &PythonTraceHooks::GetSupportedCallbacks,
          "The callback types of the trace sources a Python callable can be connected to");

    PythonScript::Bind(m);
    PythonSimulator::Bind(m);
    PythonPathSelector::Bind(m);
}
