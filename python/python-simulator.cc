/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "python-simulator.h"

#include "python-exit-guard.h"
#include "python-trace.h"

#include "ns3/config.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace py = pybind11;

namespace ns3
{

namespace
{

uint64_t g_generation = 0; //!< Simulator::Destroy() calls made through the bindings.

/**
 * Config::SetDefault with the command line's check of "--ns3::Type::Attribute=value".
 * \param path "ns3::Type::Attribute"
 * \param value the value, as text
 */
void
SetDefault(const std::string& path, const std::string& value)
{
    std::string error;
    if (!OptionParser::CheckAttributeDefault(path, value, error))
    {
        throw py::value_error(error);
    }
    Config::SetDefault(path, StringValue(value));
}

/**
 * Config::Set on every attribute a path matches.
 * \param path a Config path ending in the attribute
 * \param value the value, as text
 */
void
Set(const std::string& path, const std::string& value)
{
    const std::size_t cut = path.rfind('/');
    if (cut == std::string::npos || cut == 0 || cut + 1 == path.size())
    {
        throw py::value_error("Config.Set: '" + path +
                              "' is not a path to an attribute; allowed: /NodeList/.../NAME");
    }
    Config::MatchContainer matches = Config::LookupMatches(path.substr(0, cut));
    if (matches.GetN() == 0)
    {
        throw py::value_error("Config.Set: no object matches " + path.substr(0, cut));
    }
    const std::string name = path.substr(cut + 1);
    for (std::size_t i = 0; i < matches.GetN(); ++i)
    {
        Ptr<Object> o = matches.Get(i);
        TypeId::AttributeInformation info;
        if (!o->GetInstanceTypeId().LookupAttributeByName(name, &info))
        {
            throw py::value_error("Config.Set: " + matches.GetMatchedPath(i) + " (" +
                                  o->GetInstanceTypeId().GetName() + ") has no attribute " + name);
        }
        Ptr<AttributeValue> v = info.checker->CreateValidValue(StringValue(value));
        if (!v || !o->SetAttributeFailSafe(name, *v))
        {
            throw py::value_error(
                "Config.Set: " + o->GetInstanceTypeId().GetName() + "::" + name + " = " + value +
                " is not allowed; allowed: " + info.checker->GetUnderlyingTypeInformation());
        }
    }
}

/**
 * Connect a callable to the trace source of every object a path matches.
 * \param path a Config path ending in the trace source
 * \param fn the callable
 * \param context whether \p fn gets the matched path first
 * \return the number of trace sources connected
 */
std::size_t
Connect(const std::string& path, py::function fn, bool context)
{
    const std::size_t cut = path.rfind('/');
    if (cut == std::string::npos || cut == 0 || cut + 1 == path.size())
    {
        throw py::value_error("Config.Connect: '" + path +
                              "' is not a path to a trace source; allowed: /NodeList/.../NAME");
    }
    Config::MatchContainer matches = Config::LookupMatches(path.substr(0, cut));
    std::size_t connected = 0;
    for (std::size_t i = 0; i < matches.GetN(); ++i)
    {
        std::string error = PythonTraceHooks::Connect(
            PeekPointer(matches.Get(i)),
            path.substr(cut + 1),
            fn,
            context ? matches.GetMatchedPath(i) + "/" + path.substr(cut + 1) : "");
        if (!error.empty())
        {
            throw py::value_error("Config.Connect: " + error);
        }
        ++connected;
    }
    return connected;
}

/// Simulator::Run(), then re-raise the exception of a hook.
void
Run()
{
    {
        PythonExitGuard guard;
        Simulator::Run();
    }
    PythonTraceHooks::ThrowIfFailed();
}

} // namespace

uint64_t
PythonSimulator::GetGeneration()
{
    return g_generation;
}

void
PythonSimulator::CheckAlive(uint64_t generation, const std::string& what)
{
    if (generation != g_generation)
    {
        throw std::runtime_error(what + " was destroyed by Simulator.Destroy(); make a new one");
    }
}

void
PythonSimulator::Destroy()
{
    Simulator::Destroy();
    PythonTraceHooks::Clear();
    ++g_generation;
}

void
PythonSimulator::Bind(py::module_& m)
{
    m.def("config_set_default", &SetDefault, py::arg("path"), py::arg("value"));
    m.def("config_set", &Set, py::arg("path"), py::arg("value"));
    m.def("config_reset", &Config::Reset);
    m.def("config_connect", &Connect, py::arg("path"), py::arg("fn"), py::arg("context"));
    m.def("simulator_run", &Run);
    m.def(
        "simulator_stop",
        [](double seconds) {
            if (!(seconds >= 0))
            {
                throw py::value_error("Simulator.Stop: the delay must be >= 0 s, not " +
                                      std::to_string(seconds));
            }
            Simulator::Stop(Seconds(seconds));
        },
        py::arg("seconds"));
    m.def("simulator_stop_now", []() { Simulator::Stop(); });
    m.def("simulator_now", []() { return Simulator::Now().GetSeconds(); });
    m.def("simulator_destroy", &PythonSimulator::Destroy);
    m.def("generation", &PythonSimulator::GetGeneration);
}

} // namespace ns3
