/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "python-script.h"

#include "python-simulator.h"
#include "python-trace.h"

#include "ns3/attribute-check.h"
#include "ns3/clos-fabric-helper.h"
#include "ns3/clos-fabric.h"
#include "ns3/failure-injector.h"
#include "ns3/failure-schedule.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/flow-spec.h"
#include "ns3/flow-stats.h"
#include "ns3/flow-trace.h"
#include "ns3/nstime.h"
#include "ns3/option-parser.h"
#include "ns3/path-selector-names.h"
#include "ns3/path-selector.h"
#include "ns3/queue-disc.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-flow-launcher.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-stack.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-bth-header.h"
#include "ns3/sample-summary.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/workload-helper.h"
#include "ns3/workload-runner.h"

#include <cmath>
#include <memory>
#include <optional>
#include <pybind11/operators.h>
#include <pybind11/stl.h>
#include <set>
#include <sstream>
#include <utility>

namespace py = pybind11;

namespace ns3
{

namespace
{

using AttributeList = AttributeCheck::AttributeList;

/// The most attributes one call of a variadic helper method takes from Python.
constexpr std::size_t MAX_ATTRIBUTES = 16;

// Values from Python

/**
 * \param value a Python value
 * \return it as the command line writes it: a bool as true or false, an int in decimal, a
 *         float in decimal without an exponent (the digits of Python's repr(), which reads
 *         back to the same double: 2.5e-06 is 0.0000025, which the parsers of times, sizes
 *         and numbers all read), a str as it is; nothing for another type
 */
std::optional<std::string>
ToText(py::handle value)
{
    if (py::isinstance<py::bool_>(value))
    {
        return std::string(value.cast<bool>() ? "true" : "false");
    }
    if (py::isinstance<py::int_>(value))
    {
        return py::str(value).cast<std::string>();
    }
    if (py::isinstance<py::float_>(value) && !std::isfinite(value.cast<double>()))
    {
        return py::repr(value).cast<std::string>(); // inf, nan: refused by every parser
    }
    if (py::isinstance<py::float_>(value))
    {
        py::object decimal = py::module_::import("decimal").attr("Decimal")(py::repr(value));
        return py::module_::import("builtins").attr("format")(decimal, "f").cast<std::string>();
    }
    if (py::isinstance<py::str>(value))
    {
        return value.cast<std::string>();
    }
    return std::nullopt;
}

/// \return repr() of a Python value
std::string
Repr(py::handle value)
{
    return py::repr(value).cast<std::string>();
}

/**
 * A time given to a method (a reps.Time, or a str, int or float read as the command line
 * reads a time: "20us", a bare number in seconds), checked by OptionParser::ParseTime.
 * \param value the value
 * \param who the method and the parameter, for the message ("ClosFabric.fail_link: at")
 * \return the time
 */
Time
ToTime(py::handle value, const std::string& who)
{
    if (py::isinstance<Time>(value))
    {
        Time t = value.cast<Time>();
        if (t.IsStrictlyNegative())
        {
            throw py::value_error(who + ": " + OptionParser::FormatTime(t) +
                                  " is negative; allowed: a time >= 0");
        }
        return t;
    }
    std::optional<std::string> text =
        py::isinstance<py::bool_>(value) ? std::nullopt : ToText(value);
    Time t;
    std::string error;
    if (!text || !OptionParser::ParseTime(who, *text, t, error))
    {
        throw py::value_error(text ? error
                                   : who + ": " + Repr(value) +
                                         " is not a time; allowed: a reps.Time, a str such as "
                                         "'20us', or a number of seconds");
    }
    return t;
}

/**
 * A rate given to a method: an int in bit/s, or a str with a unit ("25Gbps",
 * OptionParser::ParseRate).
 * \param value the value
 * \param who the method and the parameter, for the message
 * \return the rate (> 0)
 */
DataRate
ToRate(py::handle value, const std::string& who)
{
    if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value))
    {
        const long long bps = value.cast<long long>();
        if (bps <= 0 || bps > 1000000000000000LL)
        {
            throw py::value_error(who + ": " + Repr(value) +
                                  " bit/s is out of range; allowed: 1 to 10^15 bit/s, or a str "
                                  "with a unit such as '25Gbps'");
        }
        return DataRate(static_cast<uint64_t>(bps));
    }
    DataRate rate;
    std::string error;
    if (!py::isinstance<py::str>(value) ||
        !OptionParser::ParseRate(who, value.cast<std::string>(), rate, error))
    {
        throw py::value_error(py::isinstance<py::str>(value)
                                  ? error
                                  : who + ": " + Repr(value) +
                                        " is not a rate; allowed: a str with a unit such as "
                                        "'25Gbps', or an int in bit/s");
    }
    return rate;
}

/**
 * A size given to a method: an int of bytes, or a str ("1MiB", OptionParser::ParseBytes).
 * \param value the value
 * \param who the method and the parameter, for the message
 * \return the size (> 0)
 */
uint64_t
ToBytes(py::handle value, const std::string& who)
{
    std::optional<std::string> text =
        py::isinstance<py::bool_>(value) || py::isinstance<py::float_>(value) ? std::nullopt
                                                                              : ToText(value);
    uint64_t bytes = 0;
    std::string error;
    if (!text || !OptionParser::ParseBytes(who, *text, bytes, error))
    {
        throw py::value_error(text ? error
                                   : who + ": " + Repr(value) +
                                         " is not a size; allowed: an int of bytes or a str "
                                         "such as '1MiB'");
    }
    if (bytes == 0 || bytes > FlowTrace::MAX_BYTES)
    {
        throw py::value_error(who + ": " + *text + " is out of range; allowed: 1 byte to 1TiB");
    }
    return bytes;
}

/**
 * An index given to a method, below a bound.
 * \param value the index
 * \param bound the number of such things
 * \param who the method, for the message
 * \param what the parameter and what it counts ("leaf", "leaves")
 * \return it
 */
uint32_t
ToIndex(int64_t value, uint64_t bound, const std::string& who, const std::string& what)
{
    if (value < 0 || static_cast<uint64_t>(value) >= bound)
    {
        std::ostringstream os;
        os << who << ": " << what << " " << value << " is out of range; allowed: 0 to "
           << (bound == 0 ? 0 : bound - 1);
        if (bound == 0)
        {
            os << " (there is none)";
        }
        throw py::value_error(os.str());
    }
    return static_cast<uint32_t>(value);
}

/**
 * A whole number given to a method, in [min, max].
 * \param value the number
 * \param min smallest allowed
 * \param max largest allowed
 * \param who the method and the parameter, for the message
 * \return it
 */
int64_t
ToWhole(int64_t value, int64_t min, int64_t max, const std::string& who)
{
    if (value < min || value > max)
    {
        throw py::value_error(who + ": " + std::to_string(value) + " is out of range; allowed: " +
                              std::to_string(min) + " to " + std::to_string(max));
    }
    return value;
}

// Attributes

/// \return the attributes of a type and its parents, for a message
std::string
AttributeNames(TypeId tid)
{
    std::set<std::string> names;
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            names.insert(t.GetAttribute(i).name);
        }
        if (t == t.GetParent())
        {
            break;
        }
    }
    std::string list;
    for (const std::string& n : names)
    {
        list += (list.empty() ? "" : ", ") + n;
    }
    return list.empty() ? "none" : list;
}

/**
 * Check a value from Python for an attribute (AttributeCheck::Check(), with the value as the
 * command line writes it, a reps.Time as a TimeValue).
 * \param who the object and method, first in the message ("ClosFabricHelper.set")
 * \param tid the type that has the attribute
 * \param name the attribute
 * \param value the value
 * \return the value converted to the attribute's kind
 */
Ptr<AttributeValue>
CheckedValue(const std::string& who, TypeId tid, const std::string& name, py::handle value)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw py::value_error(who + ": " + tid.GetName() + " has no attribute " + name +
                              "; allowed: " + AttributeNames(tid));
    }
    Ptr<AttributeValue> given;
    if (py::isinstance<Time>(value))
    {
        given = Create<TimeValue>(value.cast<Time>());
    }
    else if (std::optional<std::string> text = ToText(value))
    {
        given = Create<StringValue>(*text);
    }
    else
    {
        throw py::value_error(who + ": " + tid.GetName() + "::" + name + " = " + Repr(value) +
                              " is not an attribute value; allowed: a str, int, float, bool or "
                              "reps.Time (" +
                              AttributeCheck::Allowed(info.checker) + ")");
    }
    Ptr<AttributeValue> valid;
    std::string error = AttributeCheck::Check(who, tid, name, *given, valid);
    if (!error.empty())
    {
        throw py::value_error(error);
    }
    return valid;
}

/**
 * Check keyword arguments as attributes of a type.
 * \param who the object and method, for the message
 * \param tid the type
 * \param attributes the keyword arguments, in order
 * \return the names and checked values, in order
 */
AttributeList
CheckedAttributes(const std::string& who, TypeId tid, const py::kwargs& attributes)
{
    if (attributes.size() > MAX_ATTRIBUTES)
    {
        throw py::value_error(who + ": " + std::to_string(attributes.size()) +
                              " attributes; allowed: at most " + std::to_string(MAX_ATTRIBUTES) +
                              " in one call (Config.SetDefault sets more)");
    }
    AttributeList list;
    for (const auto& [key, value] : attributes)
    {
        const std::string name = py::str(key).cast<std::string>();
        list.emplace_back(name, CheckedValue(who, tid, name, value));
    }
    return list;
}

/**
 * \param type a TypeId name
 * \param base the type it must derive from
 * \param who the object and method, for the message
 * \return its TypeId (ValueError when it is none of base's)
 */
TypeId
CheckedType(const std::string& type, TypeId base, const std::string& who)
{
    std::string error = RdmaHelper::ValidateTypeId(type, base, who);
    if (!error.empty())
    {
        throw py::value_error(error);
    }
    return TypeId::LookupByName(type);
}

/// \return argument J of a variadic helper call made from name/value pairs: a name or a value
template <std::size_t J>
decltype(auto)
PairArgument(const AttributeList& list)
{
    if constexpr (J % 2 == 0)
    {
        return (list[J / 2].first);
    }
    else
    {
        return (*list[J / 2].second);
    }
}

/// Call f(name0, value0, name1, value1, ...) with the pairs of a list.
template <typename F, std::size_t... J>
void
CallExpanded(F&& f, const AttributeList& list, std::index_sequence<J...>)
{
    f(PairArgument<J>(list)...);
}

/**
 * Call a variadic helper method (SetSwitchQueueDisc(type, "Name", value, ...)) with the
 * pairs of a list, whose length is only known at run time (at most MAX_ATTRIBUTES).
 * \param f calls the method with its arguments
 * \param list the pairs
 */
template <std::size_t N = 0, typename F>
void
CallWithAttributes(F&& f, const AttributeList& list)
{
    if (list.size() == N)
    {
        CallExpanded(f, list, std::make_index_sequence<2 * N>{});
    }
    else if constexpr (N < MAX_ATTRIBUTES)
    {
        CallWithAttributes<N + 1>(std::forward<F>(f), list);
    }
}

// Keeping the simulation's objects alive

/// What the simulation holds until Simulator::Destroy(), whatever Python holds.
std::vector<std::shared_ptr<void>>&
Kept()
{
    // Never destroyed: released at Simulator::Destroy(), never after the interpreter is gone.
    static auto* kept = new std::vector<std::shared_ptr<void>>;
    return *kept;
}

/// Release what Kept() holds (a destroy event: Simulator::Destroy() runs it).
void
ReleaseKept()
{
    Kept().clear();
}

/**
 * Keep an object alive until Simulator::Destroy(): scheduled events and trace sinks of the
 * models refer to each other by plain pointers (the runner to the launcher, the launcher to
 * its RdmaHelper), so a handle Python lets go of must not free them mid-run.
 * \param object the object
 */
void
KeepUntilDestroy(std::shared_ptr<void> object)
{
    if (Kept().empty())
    {
        Simulator::ScheduleDestroy(&ReleaseKept);
    }
    Kept().push_back(std::move(object));
}

/// What every handle of a simulated object has: its generation and its name.
class SimulationHandle
{
  public:
    /// \param what the object, for the messages ("reps.ClosFabric")
    explicit SimulationHandle(std::string what)
        : m_generation(PythonSimulator::GetGeneration()),
          m_what(std::move(what))
    {
    }

    /// RuntimeError when Simulator::Destroy() has passed since the object was made.
    void CheckAlive() const
    {
        PythonSimulator::CheckAlive(m_generation, m_what);
    }

    /// \return the object, for the messages
    const std::string& What() const
    {
        return m_what;
    }

  private:
    uint64_t m_generation; //!< PythonSimulator::GetGeneration() when made.
    std::string m_what;    //!< The object, for the messages.
};

/**
 * Connect a callable to a trace source of one object.
 * \param object the object
 * \param who the object's handle, for the message
 * \param name the trace source
 * \param fn the callable
 * \param context passed first to fn when not empty
 */
void
ConnectOne(Ptr<Object> object,
           const std::string& who,
           const std::string& name,
           py::function fn,
           const std::string& context)
{
    std::string error =
        PythonTraceHooks::Connect(PeekPointer(object), name, std::move(fn), context);
    if (!error.empty())
    {
        throw py::value_error(who + ".connect: " + error);
    }
}

// reps.ClosFabricHelper

/// reps.ClosFabricHelper: a ClosFabricHelper whose attributes are checked as they are set.
class PyFabricHelper
{
  public:
    PyFabricHelper()
        : m_helper(CreateObject<ClosFabricHelper>())
    {
    }

    /**
     * SetAttribute(), checked.
     * \param name an attribute of ClosFabricHelper
     * \param value its value
     */
    void Set(const std::string& name, py::handle value)
    {
        m_helper->SetAttribute(
            name,
            *CheckedValue("ClosFabricHelper.set", ClosFabricHelper::GetTypeId(), name, value));
    }

    /**
     * \param name an attribute of ClosFabricHelper
     * \return its value, as ns-3 writes it
     */
    std::string Get(const std::string& name) const
    {
        TypeId::AttributeInformation info;
        if (!ClosFabricHelper::GetTypeId().LookupAttributeByName(name, &info))
        {
            throw py::value_error("ClosFabricHelper.get: ns3::ClosFabricHelper has no attribute " +
                                  name +
                                  "; allowed: " + AttributeNames(ClosFabricHelper::GetTypeId()));
        }
        StringValue v;
        m_helper->GetAttribute(name, v);
        return v.Get();
    }

    /**
     * A helper setter taking a TypeId and its attributes, checked first.
     * \param who the Python method, for messages
     * \param base the TypeId the type must derive from
     * \param type the TypeId
     * \param attributes its attributes
     * \param set calls the helper's setter with (type, "Name", value, ...)
     */
    template <typename Setter>
    void SetTyped(const std::string& who,
                  const std::string& base,
                  const std::string& type,
                  const py::kwargs& attributes,
                  Setter set)
    {
        TypeId tid = CheckedType(type, TypeId::LookupByName(base), who);
        AttributeList list = CheckedAttributes(who, tid, attributes);
        CallWithAttributes([&](auto&&... args) { set(std::forward<decltype(args)>(args)...); },
                           list);
    }

    /// SetSwitchQueueDisc(), checked. \param type a QueueDisc \param attributes its attributes
    void SetSwitchQueueDisc(const std::string& type, const py::kwargs& attributes)
    {
        SetTyped("ClosFabricHelper.set_switch_queue_disc",
                 "ns3::QueueDisc",
                 type,
                 attributes,
                 [&](auto&&... args) {
                     m_helper->SetSwitchQueueDisc(type, std::forward<decltype(args)>(args)...);
                 });
    }

    /// SetHostQueueDisc(), checked. \param type a QueueDisc \param attributes its attributes
    void SetHostQueueDisc(const std::string& type, const py::kwargs& attributes)
    {
        SetTyped("ClosFabricHelper.set_host_queue_disc",
                 "ns3::QueueDisc",
                 type,
                 attributes,
                 [&](auto&&... args) {
                     m_helper->SetHostQueueDisc(type, std::forward<decltype(args)>(args)...);
                 });
    }

    /// SetPortSelector(), checked. \param type a PortSelector \param attributes its attributes
    void SetPortSelector(const std::string& type, const py::kwargs& attributes)
    {
        SetTyped("ClosFabricHelper.set_port_selector",
                 "ns3::PortSelector",
                 type,
                 attributes,
                 [&](auto&&... args) {
                     m_helper->SetPortSelector(type, std::forward<decltype(args)>(args)...);
                 });
    }

    /**
     * SetPfcAttribute(), checked against PfcSwitch, then PfcPort.
     * \param name the attribute
     * \param value its value
     */
    void SetPfcAttribute(const std::string& name, py::handle value)
    {
        TypeId sw = TypeId::LookupByName("ns3::PfcSwitch");
        TypeId port = TypeId::LookupByName("ns3::PfcPort");
        TypeId::AttributeInformation info;
        TypeId tid = sw.LookupAttributeByName(name, &info) ? sw : port;
        if (!tid.LookupAttributeByName(name, &info))
        {
            throw py::value_error("ClosFabricHelper.set_pfc_attribute: neither ns3::PfcSwitch nor "
                                  "ns3::PfcPort has an attribute " +
                                  name + "; allowed: " + AttributeNames(sw) + "; " +
                                  AttributeNames(port));
        }
        m_helper->SetPfcAttribute(
            name,
            *CheckedValue("ClosFabricHelper.set_pfc_attribute", tid, name, value));
    }

    /**
     * SetPlaneAttribute(), checked.
     * \param name an attribute of ClosPlane
     * \param value its value
     */
    void SetPlaneAttribute(const std::string& name, py::handle value)
    {
        m_helper->SetPlaneAttribute(name,
                                    *CheckedValue("ClosFabricHelper.set_plane_attribute",
                                                  ClosPlane::GetTypeId(),
                                                  name,
                                                  value));
    }

    /// \param k SetFatTree(k), an even number >= 2
    void SetFatTree(int64_t k)
    {
        ToWhole(k, 2, 1024, "ClosFabricHelper.set_fat_tree: k");
        if (k % 2 != 0)
        {
            throw py::value_error("ClosFabricHelper.set_fat_tree: k " + std::to_string(k) +
                                  " is odd; allowed: an even number from 2 to 1024");
        }
        m_helper->SetFatTree(static_cast<uint32_t>(k));
    }

    /// \param ratio SetOversubscription(ratio), at least 1
    void SetOversubscription(double ratio)
    {
        if (!(ratio >= 1.0 && ratio <= 1e6))
        {
            std::ostringstream os;
            os << "ClosFabricHelper.set_oversubscription: " << ratio
               << " is out of range; allowed: 1 (non-blocking) to 1e6";
            throw py::value_error(os.str());
        }
        m_helper->SetOversubscription(ratio);
    }

    /// \return Validate()
    std::string Validate() const
    {
        return m_helper->Validate();
    }

    /// \return Build(), once Validate() has nothing against it
    Ptr<ClosFabric> Build()
    {
        std::string error = m_helper->Validate();
        if (!error.empty())
        {
            throw py::value_error("ClosFabricHelper.build: " + error);
        }
        return m_helper->Build();
    }

  private:
    Ptr<ClosFabricHelper> m_helper; //!< The helper.
};

// reps.ClosFabric

/// reps.FailureInjector: a FailureInjector playing a schedule on a fabric.
class PyInjector : public SimulationHandle
{
  public:
    /// \param injector the injector, its schedule given
    explicit PyInjector(Ptr<FailureInjector> injector)
        : SimulationHandle("reps.FailureInjector"),
          m_injector(injector)
    {
    }

    /// \return GetOutcomes(), as dicts
    py::list Outcomes() const
    {
        CheckAlive();
        py::list out;
        for (const FailureInjector::Outcome& o : m_injector->GetOutcomes())
        {
            py::dict d;
            d["line"] = o.line;
            d["element"] = o.element;
            d["action"] = o.action;
            d["at"] = o.at;
            d["drops"] = o.drops;
            d["last_drop"] = o.drops > 0 ? py::cast(o.lastDrop) : py::none();
            d["lost"] = o.lost;
            out.append(d);
        }
        return out;
    }

    /// \param event an event's index \return GetEventLinks()
    std::vector<uint32_t> EventLinks(int64_t event) const
    {
        CheckAlive();
        return event < 0 ? std::vector<uint32_t>{} : m_injector->GetEventLinks(event);
    }

    /// \param link a link as event_links() numbers them \return its name
    std::string LinkName(int64_t link) const
    {
        CheckAlive();
        return m_injector->GetLinkName(
            ToIndex(link, m_injector->GetNLinks(), "FailureInjector.link_name", "link"));
    }

  private:
    Ptr<FailureInjector> m_injector; //!< The injector.
};

/// reps.ClosFabric: a built fabric; every index is checked before ClosFabric sees it.
class PyFabric : public SimulationHandle
{
  public:
    /// \param fabric the fabric
    explicit PyFabric(Ptr<ClosFabric> fabric)
        : SimulationHandle("reps.ClosFabric"),
          m_fabric(fabric)
    {
    }

    /// \return the fabric, alive
    Ptr<ClosFabric> Get() const
    {
        CheckAlive();
        return m_fabric;
    }

    /// \return the number of hosts
    uint32_t GetNHosts() const
    {
        return Get()->GetNHosts();
    }

    /**
     * \param method the method, for the message
     * \param host a host
     * \return it, checked
     */
    uint32_t Host(const std::string& method, int64_t host) const
    {
        return ToIndex(host, Get()->GetNHosts(), "ClosFabric." + method, "host");
    }

    /**
     * \param method the method, for the message
     * \param link a link
     * \return it, checked (ClosFabric::ValidateLink())
     */
    uint32_t Link(const std::string& method, int64_t link) const
    {
        return ToIndex(link, Get()->GetNLinks(), "ClosFabric." + method, "link");
    }

    /**
     * \param method the method, for the message
     * \param k which of the parallel links
     * \return it, checked
     */
    uint32_t Parallel(const std::string& method, int64_t k) const
    {
        return ToIndex(k, Get()->GetNParallelLinks(), "ClosFabric." + method, "k (parallel link)");
    }

    /**
     * \param method the method, for the message
     * \param tiers the number of tiers it needs
     */
    void NeedTiers(const std::string& method, uint32_t tiers) const
    {
        if (Get()->GetNTiers() != tiers)
        {
            throw py::value_error("ClosFabric." + method + ": needs a " + std::to_string(tiers) +
                                  "-tier fabric; this one has " +
                                  std::to_string(Get()->GetNTiers()) + " tiers");
        }
    }

    /// \return GetLeafSpineLink(), checked
    uint32_t LeafSpineLink(int64_t leaf, int64_t spine, int64_t k) const
    {
        NeedTiers("leaf_spine_link", 2);
        const std::string who = "ClosFabric.leaf_spine_link";
        return Get()->GetLeafSpineLink(ToIndex(leaf, Get()->GetNLeaves(), who, "leaf"),
                                       ToIndex(spine, Get()->GetNSpines(), who, "spine"),
                                       Parallel("leaf_spine_link", k));
    }

    /// \return GetLeafAggLink(), checked
    uint32_t LeafAggLink(int64_t leaf, int64_t agg, int64_t k) const
    {
        NeedTiers("leaf_agg_link", 3);
        const std::string who = "ClosFabric.leaf_agg_link";
        return Get()->GetLeafAggLink(ToIndex(leaf, Get()->GetNLeaves(), who, "leaf"),
                                     ToIndex(agg, Get()->GetNAggsPerPod(), who, "agg"),
                                     Parallel("leaf_agg_link", k));
    }

    /// \return GetAggCoreLink(), checked
    uint32_t AggCoreLink(int64_t pod, int64_t agg, int64_t core, int64_t k) const
    {
        NeedTiers("agg_core_link", 3);
        const std::string who = "ClosFabric.agg_core_link";
        Ptr<ClosFabric> f = Get();
        const uint32_t p = ToIndex(pod, f->GetNPods(), who, "pod");
        const uint32_t a = ToIndex(agg, f->GetNAggsPerPod(), who, "agg");
        const uint32_t c = ToIndex(core, f->GetNCores(), who, "core");
        const uint32_t group = f->GetNCores() / f->GetNAggsPerPod();
        if (c / group != a)
        {
            throw py::value_error(who + ": core " + std::to_string(c) + " is not linked to agg " +
                                  std::to_string(a) + "; allowed: cores " +
                                  std::to_string(a * group) + " to " +
                                  std::to_string((a + 1) * group - 1));
        }
        return f->GetAggCoreLink(p, a, c, Parallel("agg_core_link", k));
    }

    /// DegradeLink(), checked
    void DegradeLink(int64_t link, py::handle rate, py::handle at)
    {
        const uint32_t l = Link("degrade_link", link);
        Get()->DegradeLink(l,
                           ToRate(rate, "ClosFabric.degrade_link: rate"),
                           ToTime(at, "ClosFabric.degrade_link: at"));
    }

    /// FailLink(), checked
    void FailLink(int64_t link, py::handle at, py::handle upAt)
    {
        const uint32_t l = Link("fail_link", link);
        const Time down = ToTime(at, "ClosFabric.fail_link: at");
        const Time up = upAt.is_none() ? Time::Max() : ToTime(upAt, "ClosFabric.fail_link: up_at");
        if (down < Simulator::Now())
        {
            throw py::value_error("ClosFabric.fail_link: at " + OptionParser::FormatTime(down) +
                                  " is in the past; allowed: from now (" +
                                  OptionParser::FormatTime(Simulator::Now()) + ") on");
        }
        if (up <= down)
        {
            throw py::value_error("ClosFabric.fail_link: up_at " + OptionParser::FormatTime(up) +
                                  " is not after at " + OptionParser::FormatTime(down) +
                                  "; allowed: a later time, or None (never)");
        }
        Get()->FailLink(l, down, up);
    }

    /// \return a FailureInjector playing a schedule (text or file) on the fabric
    std::shared_ptr<PyInjector> ScheduleFailures(const std::optional<std::string>& text,
                                                 const std::optional<std::string>& path,
                                                 std::optional<int64_t> stream)
    {
        const std::string who = "ClosFabric.schedule_failures";
        if (text.has_value() == path.has_value())
        {
            throw py::value_error(who + ": give the schedule as text or as path, not " +
                                  (text ? "both" : "neither"));
        }
        std::vector<FailureSchedule::Event> events;
        std::string error =
            text ? FailureSchedule::Parse(*text, events) : FailureSchedule::Load(*path, events);
        Ptr<FailureInjector> injector = CreateObject<FailureInjector>();
        if (error.empty() && stream)
        {
            injector->AssignStreams(ToWhole(*stream, 0, INT64_MAX / 2, who + ": stream"));
        }
        if (error.empty())
        {
            error = injector->Schedule(Get(), events);
        }
        if (!error.empty())
        {
            throw py::value_error(who + ": " + error);
        }
        auto handle = std::make_shared<PyInjector>(injector);
        KeepUntilDestroy(handle);
        return handle;
    }

    /// \return GetBaseRtt(), checked; None when dst is unreachable
    std::optional<Time> BaseRtt(int64_t src,
                                int64_t dst,
                                int64_t packetBytes,
                                int64_t ackBytes) const
    {
        const uint32_t s = Host("base_rtt", src);
        const uint32_t d = Host("base_rtt", dst);
        if (s == d)
        {
            throw py::value_error("ClosFabric.base_rtt: src and dst are both host " +
                                  std::to_string(s) + "; allowed: two different hosts");
        }
        Time rtt =
            Get()->GetBaseRtt(s,
                              d,
                              ToWhole(packetBytes, 1, 65535, "ClosFabric.base_rtt: packet_bytes"),
                              ToWhole(ackBytes, 1, 65535, "ClosFabric.base_rtt: ack_bytes"));
        return rtt == Time::Max() ? std::nullopt : std::optional<Time>(rtt);
    }

    /// \return GetLinkCounters(), checked, as a dict
    py::dict LinkCounters(int64_t link, int64_t direction) const
    {
        const uint32_t l = Link("link_counters", link);
        ClosFabric::LinkCounters c =
            Get()->GetLinkCounters(l,
                                   ToIndex(direction, 2, "ClosFabric.link_counters", "direction"));
        py::dict d;
        d["packets"] = c.packets;
        d["bytes"] = c.bytes;
        d["dropped_packets"] = c.droppedPackets;
        d["dropped_bytes"] = c.droppedBytes;
        return d;
    }

    /// \return GetQueueStats(), checked, as a dict
    py::dict QueueStats(int64_t link, int64_t side) const
    {
        const uint32_t l = Link("queue_stats", link);
        ClosFabric::QueueStats q =
            Get()->GetQueueStats(l, ToIndex(side, 2, "ClosFabric.queue_stats", "side"));
        py::dict d;
        d["has_queue_disc"] = q.hasQueueDisc;
        d["enqueued"] = q.enqueued;
        d["marks"] = q.marks;
        d["drops"] = q.drops;
        d["trims"] = q.trims;
        d["max_packets"] = q.hasDepth ? py::cast(q.maxPackets) : py::none();
        d["max_bytes"] = q.hasDepth ? py::cast(q.maxBytes) : py::none();
        d["average_packets"] = q.hasDepth ? py::cast(q.averagePackets) : py::none();
        d["average_bytes"] = q.hasDepth ? py::cast(q.averageBytes) : py::none();
        return d;
    }

    /// \return PrintSummary()
    std::string Summary() const
    {
        std::ostringstream os;
        Get()->PrintSummary(os);
        return os.str();
    }

    /// Connect a callable to a trace source of the fabric (LinkState, RouteState).
    void Connect(const std::string& name, py::function fn, bool context)
    {
        ConnectOne(Get(), "ClosFabric", name, std::move(fn), context ? "Fabric" : "");
    }

  private:
    Ptr<ClosFabric> m_fabric; //!< The fabric.
};

// reps.RdmaHelper

/**
 * reps.RdmaHelper: an RdmaHelper whose types and attributes are checked as they are set, and
 * whose queue pairs' and path selectors' configuration is checked before any queue pair is
 * connected (RdmaQueuePair::Connect() aborts on what RdmaQueuePair::Validate() or
 * PathSelector::Validate() refuses).
 */
class PyRdmaHelper
{
  public:
    PyRdmaHelper()
    {
        m_qp.SetTypeId(RdmaQueuePair::GetTypeId());
        m_ps.SetTypeId("ns3::EcmpPathSelector"); // RdmaHelper's default
    }

    /**
     * \param name a short name ("reps") or a TypeId of a path selector
     * \param who the method, for the message
     * \return its TypeId
     */
    static TypeId PathSelectorType(const std::string& name, const std::string& who)
    {
        if (name.find("::") != std::string::npos)
        {
            // A TypeId: no selector is made to find its name (each would draw a stream number).
            return CheckedType(name, PathSelector::GetTypeId(), who);
        }
        PathSelectorNames::Choice choice;
        std::string error;
        if (!PathSelectorNames::Lookup(name, choice, error))
        {
            throw py::value_error(who + ": " + error);
        }
        return choice.tid;
    }

    /**
     * \param name a short name ("window") or a TypeId of a congestion control
     * \param who the method, for the message
     * \return its TypeId
     */
    static TypeId CongestionControlType(const std::string& name, const std::string& who)
    {
        if (name.find("::") != std::string::npos)
        {
            return CheckedType(name, RdmaCongestionControl::GetTypeId(), who);
        }
        TypeId tid;
        std::string error;
        if (!CongestionControlNames::Lookup(name, tid, error))
        {
            throw py::value_error(who + ": " + error);
        }
        return tid;
    }

    /// SetPathSelector(), checked
    void SetPathSelector(const std::string& type, const py::kwargs& attributes)
    {
        const std::string who = "RdmaHelper.set_path_selector";
        TypeId tid = PathSelectorType(type, who);
        AttributeList list = CheckedAttributes(who, tid, attributes);
        CallWithAttributes(
            [&](auto&&... args) {
                m_helper->SetPathSelector(tid.GetName(), std::forward<decltype(args)>(args)...);
            },
            list);
        m_ps = ObjectFactory();
        m_ps.SetTypeId(tid);
        for (const auto& [name, value] : list)
        {
            m_ps.Set(name, *value);
        }
        m_checked = false;
    }

    /// SetCongestionControl(), checked
    void SetCongestionControl(const std::string& type, const py::kwargs& attributes)
    {
        const std::string who = "RdmaHelper.set_congestion_control";
        TypeId tid = CongestionControlType(type, who);
        AttributeList list = CheckedAttributes(who, tid, attributes);
        CallWithAttributes(
            [&](auto&&... args) {
                m_helper->SetCongestionControl(tid.GetName(),
                                               std::forward<decltype(args)>(args)...);
            },
            list);
        m_checked = false;
    }

    /// SetQueuePairAttribute(), checked
    void SetQueuePairAttribute(const std::string& name, py::handle value)
    {
        Ptr<AttributeValue> v = CheckedValue("RdmaHelper.set_queue_pair_attribute",
                                             RdmaQueuePair::GetTypeId(),
                                             name,
                                             value);
        m_helper->SetQueuePairAttribute(name, *v);
        m_qp.Set(name, *v);
        m_checked = false;
    }

    /// SetPathSelectorAttribute(), checked
    void SetPathSelectorAttribute(const std::string& name, py::handle value)
    {
        Ptr<AttributeValue> v =
            CheckedValue("RdmaHelper.set_path_selector_attribute", m_ps.GetTypeId(), name, value);
        m_helper->SetPathSelectorAttribute(name, *v);
        m_ps.Set(name, *v);
        m_checked = false;
    }

    /// \return Validate()
    std::string Validate() const
    {
        return m_helper->Validate();
    }

    /**
     * Install() on the hosts of a fabric.
     * \param fabric the fabric
     */
    void Install(const PyFabric& fabric) const
    {
        NodeContainer hosts = fabric.Get()->GetHosts();
        for (uint32_t h = 0; h < hosts.GetN(); ++h)
        {
            if (hosts.Get(h)->GetObject<RdmaStack>())
            {
                throw py::value_error("RdmaHelper.install: host " + std::to_string(h) +
                                      " already has an RDMA stack; allowed: one install per host");
            }
        }
        std::string error = m_helper->Validate();
        if (!error.empty())
        {
            throw py::value_error("RdmaHelper.install: " + error);
        }
        m_helper->Install(hosts);
    }

    /**
     * What RdmaQueuePair::Connect() would refuse in a queue pair made now, checked once per
     * configuration: RdmaQueuePair::Validate(), the devices' MTU, PathSelector::Validate().
     * \param who the method, for the message
     * \param fabric the fabric whose hosts the queue pairs connect
     */
    void CheckConnection(const std::string& who, const PyFabric& fabric)
    {
        std::string error = m_helper->Validate();
        if (!error.empty())
        {
            throw py::value_error(who + ": " + error);
        }
        Ptr<ClosFabric> f = fabric.Get();
        Ptr<RdmaStack> stack = f->GetHost(0)->GetObject<RdmaStack>();
        if (!stack)
        {
            throw py::value_error(who +
                                  ": the hosts have no RDMA stack; RdmaHelper.install(fabric) "
                                  "first");
        }
        if (m_checked)
        {
            return;
        }
        // Objects made with the configuration, to ask them; each path selector draws an ns-3
        // stream number when made, so this happens once per configuration.
        Ptr<RdmaQueuePair> qp = m_qp.Create<RdmaQueuePair>();
        error = qp->Validate();
        if (error.empty())
        {
            UintegerValue mtu;
            qp->GetAttribute("Mtu", mtu);
            // RdmaQueuePair::Connect()'s rule without receiver credits (their header adds a
            // few bytes, which it checks itself).
            const uint64_t needed =
                mtu.Get() + RoceBthHeader::SIZE + RoceBthHeader::ICRC_SIZE + 8 + 20;
            if (stack->GetIpMtu() < needed)
            {
                error = "RdmaQueuePair: Mtu (" + std::to_string(mtu.Get()) +
                        ") needs an IPv4 MTU of at least " + std::to_string(needed) +
                        " bytes on the NIC (the fabric's devices have " +
                        std::to_string(stack->GetIpMtu()) +
                        "); raise ClosFabricHelper's Mtu or lower the queue pairs' Mtu";
            }
        }
        if (error.empty())
        {
            PathSelectorContext context;
            context.planes = f->GetNPlanes();
            error = m_ps.Create<PathSelector>()->Validate(context);
        }
        if (!error.empty())
        {
            throw py::value_error(who + ": " + error);
        }
        m_checked = true;
    }

    /// AssignStreams() on the hosts of a fabric
    int64_t AssignStreams(const PyFabric& fabric, int64_t stream) const
    {
        return m_helper->AssignStreams(
            fabric.Get()->GetHosts(),
            ToWhole(stream, 0, INT64_MAX / 2, "RdmaHelper.assign_streams: stream"));
    }

    /// \return the helper
    RdmaHelper* GetHelper()
    {
        return m_helper.get();
    }

  private:
    std::unique_ptr<RdmaHelper> m_helper{std::make_unique<RdmaHelper>()}; //!< The helper.
    ObjectFactory m_qp;    //!< The queue pairs' attributes, as given to the helper.
    ObjectFactory m_ps;    //!< The path selectors' type and attributes, as given to the helper.
    bool m_checked{false}; //!< Whether CheckConnection() passed since the last setter.
};

// reps.WorkloadHelper

/// reps.WorkloadHelper: a WorkloadHelper whose arguments are checked.
class PyWorkloadHelper
{
  public:
    /// \param hosts the number of hosts (at least 2)
    explicit PyWorkloadHelper(int64_t hosts)
        : m_helper(static_cast<uint32_t>(ToWhole(hosts, 2, UINT32_MAX, "WorkloadHelper: hosts")))
    {
    }

    /// \return the number of hosts
    uint32_t GetHosts() const
    {
        return m_helper.GetHosts();
    }

    /// SetStartTime()
    void SetStartTime(py::handle start)
    {
        m_start = ToTime(start, "WorkloadHelper.set_start_time: start");
        m_helper.SetStartTime(m_start);
    }

    /// SetStartJitter()
    void SetStartJitter(py::handle jitter)
    {
        m_helper.SetStartJitter(ToTime(jitter, "WorkloadHelper.set_start_jitter: jitter"));
    }

    /// \return AssignStreams()
    int64_t AssignStreams(int64_t stream)
    {
        return m_helper.AssignStreams(
            ToWhole(stream, 0, INT64_MAX / 2, "WorkloadHelper.assign_streams: stream"));
    }

    /// \return Permutation()
    std::vector<FlowSpec> Permutation(py::handle bytes)
    {
        return m_helper.Permutation(ToBytes(bytes, "WorkloadHelper.permutation: bytes"));
    }

    /// \return Tornado()
    std::vector<FlowSpec> Tornado(py::handle bytes)
    {
        return m_helper.Tornado(ToBytes(bytes, "WorkloadHelper.tornado: bytes"));
    }

    /// \return Incast()
    std::vector<FlowSpec> Incast(int64_t senders, int64_t dst, py::handle bytes)
    {
        const std::string who = "WorkloadHelper.incast";
        const uint32_t n = m_helper.GetHosts();
        return m_helper.Incast(ToWhole(senders, 1, n - 1, who + ": senders"),
                               ToIndex(dst, n, who, "dst"),
                               ToBytes(bytes, who + ": bytes"));
    }

    /// \return Pair()
    std::vector<FlowSpec> Pair(py::handle bytes, bool bidirectional)
    {
        return m_helper.Pair(ToBytes(bytes, "WorkloadHelper.pair: bytes"), bidirectional);
    }

    /// \return OutcastIncast()
    std::vector<FlowSpec> OutcastIncast(int64_t senders, int64_t outcastFlows, py::handle bytes)
    {
        const std::string who = "WorkloadHelper.outcast_incast";
        const int64_t n = m_helper.GetHosts();
        ToWhole(senders, 1, n - 1, who + ": senders");
        ToWhole(outcastFlows, 0, n, who + ": outcast_flows");
        const int64_t needed = 1 + senders + (senders - 1) * outcastFlows;
        if (needed > n)
        {
            throw py::value_error(who + ": " + std::to_string(senders) + " senders with " +
                                  std::to_string(outcastFlows) + " outcast flows each need " +
                                  std::to_string(needed) + " hosts; allowed: at most " +
                                  std::to_string(n));
        }
        return m_helper.OutcastIncast(senders, outcastFlows, ToBytes(bytes, who + ": bytes"));
    }

    /// \return AllToAll()
    std::vector<FlowSpec> AllToAll(py::handle bytesPerPeer, int64_t flowsPerPeer)
    {
        const std::string who = "WorkloadHelper.all_to_all";
        const uint64_t bytes = ToBytes(bytesPerPeer, who + ": bytes_per_peer");
        const int64_t flows = ToWhole(flowsPerPeer, 1, 1024, who + ": flows_per_peer");
        if (bytes < static_cast<uint64_t>(flows))
        {
            throw py::value_error(who + ": bytes_per_peer " + std::to_string(bytes) +
                                  " is fewer than flows_per_peer; allowed: at least one byte per "
                                  "flow");
        }
        return m_helper.AllToAll(bytes, static_cast<uint32_t>(flows));
    }

    /// \return Poisson() with a distribution by name or path
    std::vector<FlowSpec> Poisson(const std::string& sizes,
                                  double load,
                                  py::handle hostRate,
                                  py::handle duration)
    {
        const std::string who = "WorkloadHelper.poisson";
        FlowSizeCdf cdf;
        std::string error;
        if (!cdf.Load(sizes, error))
        {
            throw py::value_error(who + ": sizes: " + error);
        }
        if (!(load > 0 && load <= 1))
        {
            std::ostringstream os;
            os << who << ": load " << load << " is out of range; allowed: above 0 and at most 1";
            throw py::value_error(os.str());
        }
        const Time d = ToTime(duration, who + ": duration");
        if (!d.IsStrictlyPositive())
        {
            throw py::value_error(who + ": duration must be > 0");
        }
        return m_helper.Poisson(cdf, load, ToRate(hostRate, who + ": host_rate"), d);
    }

    /// \return Background()
    std::vector<FlowSpec> Background(double fraction, py::handle bytes)
    {
        const std::string who = "WorkloadHelper.background";
        if (!(fraction >= 0 && fraction <= 1))
        {
            std::ostringstream os;
            os << who << ": fraction " << fraction << " is out of range; allowed: 0 to 1";
            throw py::value_error(os.str());
        }
        return m_helper.Background(fraction, ToBytes(bytes, who + ": bytes"));
    }

    /**
     * The flows of a flow trace file (FlowTrace's format or a connection matrix), each at the
     * helper's start time plus its own start.
     * \param path the file
     * \param firstId the id of the first flow (the others follow)
     * \return the flows, tag "trace"
     */
    std::vector<FlowSpec> FlowTraceFile(const std::string& path, int64_t firstId) const
    {
        const std::string who = "WorkloadHelper.flow_trace";
        FlowTrace trace;
        std::string error;
        if (!trace.Load(path, m_helper.GetHosts(), error))
        {
            throw py::value_error(who + ": " + error);
        }
        const std::vector<FlowTrace::Flow>& flows = trace.GetFlows();
        ToWhole(firstId, 0, UINT32_MAX - static_cast<int64_t>(flows.size()), who + ": first_id");
        std::vector<FlowSpec> out;
        for (const FlowTrace::Flow& f : flows)
        {
            // A flow that waits for another needs a replay that follows completions (the
            // experiments' --trace); a list of flows starts each at a fixed time.
            if (f.after != FlowTrace::NONE || f.trigger != FlowTrace::NONE)
            {
                throw py::value_error(who + ": " + path + " line " + std::to_string(f.line) +
                                      ": the flow waits for another flow; allowed: flows with a "
                                      "start time only (reps-lb-comparison --trace replays "
                                      "dependencies)");
            }
            FlowSpec spec;
            spec.id = static_cast<uint32_t>(firstId + out.size());
            spec.src = f.src;
            spec.dst = f.dst;
            spec.bytes = f.bytes;
            spec.start = m_start + NanoSeconds(f.startNs);
            spec.tag = "trace";
            out.push_back(spec);
        }
        return out;
    }

  private:
    WorkloadHelper m_helper;  //!< The helper.
    Time m_start{Seconds(0)}; //!< Its start time.
};

// reps.QueuePair and the objects of one

/// reps.ObjectHandle: a path selector or congestion controller of a queue pair.
class PyObjectHandle : public SimulationHandle
{
  public:
    /**
     * \param object the object
     * \param what its handle's name, for the messages
     */
    PyObjectHandle(Ptr<Object> object, const std::string& what)
        : SimulationHandle(what),
          m_object(object)
    {
    }

    /// \return the object, alive
    Ptr<Object> Get() const
    {
        CheckAlive();
        return m_object;
    }

    /// \return its TypeId name
    std::string GetTypeName() const
    {
        return Get()->GetInstanceTypeId().GetName();
    }

    /// \return the value of an attribute, as ns-3 writes it
    std::string GetAttribute(const std::string& name) const
    {
        TypeId tid = Get()->GetInstanceTypeId();
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            throw py::value_error(What() + ".get: " + tid.GetName() + " has no attribute " + name +
                                  "; allowed: " + AttributeNames(tid));
        }
        StringValue v;
        Get()->GetAttribute(name, v);
        return v.Get();
    }

    /// Connect a callable to a trace source of the object.
    void Connect(const std::string& name, py::function fn, const std::string& context)
    {
        ConnectOne(Get(), What(), name, std::move(fn), context);
    }

  private:
    Ptr<Object> m_object; //!< The object.
};

/// reps.QueuePair: a sending queue pair of a launcher.
class PyQueuePair : public SimulationHandle
{
  public:
    /// \param qp the queue pair
    explicit PyQueuePair(Ptr<RdmaQueuePair> qp)
        : SimulationHandle("reps.QueuePair"),
          m_qp(qp)
    {
    }

    /// \return the queue pair, alive
    Ptr<RdmaQueuePair> Get() const
    {
        CheckAlive();
        return m_qp;
    }

    /// \return GetStats(), as a dict
    py::dict Stats() const
    {
        const RdmaQueuePairStats s = Get()->GetStats();
        py::dict d;
        d["packets_sent"] = s.packetsSent;
        d["bytes_sent"] = s.bytesSent;
        d["retransmissions"] = s.retransmissions;
        d["acks_received"] = s.acksReceived;
        d["ecn_acks"] = s.ecnAcks;
        d["nacks_received"] = s.nacksReceived;
        d["timeouts"] = s.timeouts;
        d["packets_lost"] = s.packetsLost;
        d["cnps_received"] = s.cnpsReceived;
        d["messages_completed"] = s.messagesCompleted;
        d["data_received"] = s.dataReceived;
        d["bytes_received"] = s.bytesReceived;
        return d;
    }

    /// \return the path selector
    PyObjectHandle PathSelectorHandle() const
    {
        return PyObjectHandle(Get()->GetPathSelector(), "reps.QueuePair.path_selector");
    }

    /// \return the congestion controller
    PyObjectHandle CongestionControlHandle() const
    {
        return PyObjectHandle(Get()->GetCongestionControl(), "reps.QueuePair.congestion_control");
    }

    /// \return the path selector's counters (PathSelector::GetCounters())
    PathSelector::Counters SelectorCounters() const
    {
        return Get()->GetPathSelector()->GetCounters();
    }

    /// Connect a callable to a trace source of the queue pair.
    void Connect(const std::string& name, py::function fn, const std::string& context)
    {
        ConnectOne(Get(), "QueuePair", name, std::move(fn), context);
    }

  private:
    Ptr<RdmaQueuePair> m_qp; //!< The queue pair.
};

// reps.RdmaFlowLauncher

/// reps.RdmaFlowLauncher: carries flows over queue pairs of the fabric's hosts.
class PyLauncher : public SimulationHandle
{
  public:
    /**
     * \param fabric the fabric (the RDMA stack installed on its hosts)
     * \param rdma makes the queue pairs of ordinary flows
     * \param background those of background flows (null: rdma)
     * \param attributes the launcher's attributes (ConnectionMapping)
     */
    PyLauncher(std::shared_ptr<PyFabric> fabric,
               std::shared_ptr<PyRdmaHelper> rdma,
               std::shared_ptr<PyRdmaHelper> background,
               const py::kwargs& attributes)
        : SimulationHandle("reps.RdmaFlowLauncher"),
          m_fabric(std::move(fabric)),
          m_rdma(std::move(rdma)),
          m_background(background ? std::move(background) : m_rdma)
    {
        const std::string who = "RdmaFlowLauncher";
        AttributeList list = CheckedAttributes(who, RdmaFlowLauncher::GetTypeId(), attributes);
        m_rdma->CheckConnection(who, *m_fabric);
        m_background->CheckConnection(who, *m_fabric);
        m_launcher = CreateObject<RdmaFlowLauncher>(m_fabric->Get()->GetHosts(),
                                                    m_rdma->GetHelper(),
                                                    m_background->GetHelper());
        for (const auto& [name, value] : list)
        {
            m_launcher->SetAttribute(name, *value);
        }
    }

    /// \return the launcher, alive
    Ptr<RdmaFlowLauncher> Get() const
    {
        CheckAlive();
        return m_launcher;
    }

    /// \return the fabric
    const PyFabric& GetFabric() const
    {
        return *m_fabric;
    }

    /**
     * Check flows: hosts of the fabric, a size, a start.
     * \param who the method, for the message
     * \param flows the flows
     */
    void CheckFlows(const std::string& who, const std::vector<FlowSpec>& flows) const
    {
        const uint32_t n = m_fabric->GetNHosts();
        for (const FlowSpec& f : flows)
        {
            const std::string flow = who + ": flow " + std::to_string(f.id);
            if (f.src >= n || f.dst >= n || f.src == f.dst)
            {
                throw py::value_error(flow + " goes from host " + std::to_string(f.src) +
                                      " to host " + std::to_string(f.dst) +
                                      "; allowed: two different hosts of 0 to " +
                                      std::to_string(n - 1));
            }
            if (f.bytes == 0)
            {
                throw py::value_error(flow + " has 0 bytes; allowed: at least 1");
            }
            if (f.start.IsStrictlyNegative())
            {
                throw py::value_error(flow + " starts before 0; allowed: a start >= 0");
            }
        }
    }

    /// Prepare(), checked
    void Prepare(const std::vector<FlowSpec>& flows)
    {
        CheckFlows("RdmaFlowLauncher.prepare", flows);
        m_rdma->CheckConnection("RdmaFlowLauncher.prepare", *m_fabric);
        m_background->CheckConnection("RdmaFlowLauncher.prepare", *m_fabric);
        Get()->Prepare(flows);
    }

    /// \return the sending queue pairs
    std::vector<PyQueuePair> Senders() const
    {
        std::vector<PyQueuePair> out;
        for (const Ptr<RdmaQueuePair>& qp : Get()->GetSenders())
        {
            out.emplace_back(qp);
        }
        return out;
    }

    /// \return the sum of the senders' counters
    py::dict SenderTotals() const
    {
        const RdmaQueuePairStats s = Get()->GetSenderTotals();
        py::dict d;
        d["packets_sent"] = s.packetsSent;
        d["bytes_sent"] = s.bytesSent;
        d["retransmissions"] = s.retransmissions;
        d["acks_received"] = s.acksReceived;
        d["ecn_acks"] = s.ecnAcks;
        d["nacks_received"] = s.nacksReceived;
        d["timeouts"] = s.timeouts;
        d["packets_lost"] = s.packetsLost;
        d["messages_completed"] = s.messagesCompleted;
        return d;
    }

    /**
     * Connect a callable to a trace source of every sending queue pair made so far, of their
     * path selectors or of their congestion controllers.
     * \param target "QueuePair/NAME", "PathSelector/NAME" or "CongestionControl/NAME"
     * \param fn the callable
     * \param context whether fn gets "QueuePair/i" first
     * \return the number of sources connected
     */
    std::size_t Connect(const std::string& target, py::function fn, bool context)
    {
        const std::size_t cut = target.find('/');
        if (cut == std::string::npos || cut + 1 == target.size())
        {
            throw py::value_error("RdmaFlowLauncher.connect: '" + target +
                                  "' names no trace source; allowed: QueuePair/NAME, "
                                  "PathSelector/NAME or CongestionControl/NAME");
        }
        Ptr<RdmaFlowLauncher> launcher = Get();
        try
        {
            return PythonTraceHooks::ConnectQueuePairs(launcher->GetSenders(),
                                                       target.substr(0, cut),
                                                       target.substr(cut + 1),
                                                       std::move(fn),
                                                       context);
        }
        catch (py::value_error& e)
        {
            throw py::value_error(std::string("RdmaFlowLauncher.connect: ") + e.what());
        }
    }

  private:
    std::shared_ptr<PyFabric> m_fabric;         //!< The fabric.
    std::shared_ptr<PyRdmaHelper> m_rdma;       //!< Ordinary flows' queue pairs.
    std::shared_ptr<PyRdmaHelper> m_background; //!< Background flows' queue pairs.
    Ptr<RdmaFlowLauncher> m_launcher;           //!< The launcher.
};

// reps.WorkloadRunner and reps.FlowStats

/// One flow's record, as Python reads it.
struct PyFlowRecord
{
    FlowSpec flow;                  //!< The flow.
    Time ideal;                     //!< Its ideal FCT.
    bool completed{false};          //!< Whether it completed.
    std::optional<Time> finished;   //!< When it completed.
    std::optional<Time> fct;        //!< Its FCT.
    std::optional<double> slowdown; //!< FCT over the ideal FCT.
};

/// Stop the simulation now (the AllCompleted callback of stop_when_all_completed()).
void
StopNow()
{
    Simulator::Stop();
}

/// reps.WorkloadRunner: starts flows on time through a launcher, records their completions.
class PyRunner : public SimulationHandle
{
  public:
    /// \param launcher the launcher the flows ride
    explicit PyRunner(std::shared_ptr<PyLauncher> launcher)
        : SimulationHandle("reps.WorkloadRunner"),
          m_launcher(std::move(launcher)),
          m_runner(CreateObject<WorkloadRunner>())
    {
        m_runner->SetLauncher(m_launcher->Get()->GetLauncher());
    }

    /// \return the runner, alive
    Ptr<WorkloadRunner> Get() const
    {
        CheckAlive();
        return m_runner;
    }

    /// Schedule(), checked
    void Schedule(const std::vector<FlowSpec>& flows)
    {
        const std::string who = "WorkloadRunner.schedule";
        Ptr<WorkloadRunner> runner = Get();
        m_launcher->CheckFlows(who, flows);
        std::set<uint32_t> ids;
        for (const FlowSpec& f : flows)
        {
            if (runner->GetStats().HasFlow(f.id) || !ids.insert(f.id).second)
            {
                throw py::value_error(who + ": flow id " + std::to_string(f.id) +
                                      " is used twice; allowed: ids not scheduled yet");
            }
            if (f.start < Simulator::Now())
            {
                throw py::value_error(who + ": flow " + std::to_string(f.id) + " starts at " +
                                      OptionParser::FormatTime(f.start) +
                                      ", in the past; allowed: from now (" +
                                      OptionParser::FormatTime(Simulator::Now()) + ") on");
            }
        }
        runner->Schedule(flows);
    }

    /// SetAllCompletedCallback() to stop the simulation
    void StopWhenAllCompleted()
    {
        Get()->SetAllCompletedCallback(MakeCallback(&StopNow));
    }

    /// GetStats().SetIdeal(), checked
    void SetIdeal(py::handle rate, py::handle baseRtt)
    {
        Get()->GetStats().SetIdeal(ToRate(rate, "FlowStats.set_ideal: rate"),
                                   ToTime(baseRtt, "FlowStats.set_ideal: base_rtt"));
    }

    /// \return the statistics, alive
    const FlowStats& Stats() const
    {
        return Get()->GetStats();
    }

    /// \return every flow's record
    std::vector<PyFlowRecord> Records() const
    {
        const FlowStats& stats = Stats();
        std::vector<PyFlowRecord> out;
        for (const FlowStats::Record& r : stats.GetRecords())
        {
            PyFlowRecord p;
            p.flow = r.flow;
            p.ideal = stats.GetIdealFct(r);
            p.completed = r.completed;
            if (r.completed)
            {
                p.finished = r.finished;
                p.fct = FlowStats::GetFct(r);
                p.slowdown = stats.GetSlowdown(r);
            }
            out.push_back(p);
        }
        return out;
    }

    /// Connect a callable to a trace source of the runner (FlowStarted, FlowCompleted).
    void Connect(const std::string& name, py::function fn, bool context)
    {
        ConnectOne(Get(), "WorkloadRunner", name, std::move(fn), context ? "WorkloadRunner" : "");
    }

  private:
    std::shared_ptr<PyLauncher> m_launcher; //!< The launcher.
    Ptr<WorkloadRunner> m_runner;           //!< The runner.
};

/// reps.FlowStats: the statistics of a runner.
class PyFlowStats
{
  public:
    /// \param runner the runner
    explicit PyFlowStats(std::shared_ptr<PyRunner> runner)
        : m_runner(std::move(runner))
    {
    }

    /// \return the runner
    PyRunner& Runner() const
    {
        try
        {
            m_runner->CheckAlive();
        }
        catch (std::runtime_error&)
        {
            throw std::runtime_error(
                "reps.FlowStats (of a reps.WorkloadRunner) was destroyed by Simulator.Destroy(); "
                "read it before, or make a new one");
        }
        return *m_runner;
    }

  private:
    std::shared_ptr<PyRunner> m_runner; //!< The runner.
};

/// \return a SampleSummary as a dict
py::dict
SummaryToDict(const SampleSummary& s)
{
    py::dict d;
    d["count"] = s.count;
    d["mean"] = s.mean;
    d["min"] = s.min;
    d["p50"] = s.p50;
    d["p99"] = s.p99;
    d["max"] = s.max;
    return d;
}

} // namespace

void
PythonScript::Bind(py::module_& m)
{
    // Times, exactly (ns-3's Time, at its resolution).
    py::class_<Time>(m, "Time", "An ns-3 time: Time('20us'), Time(2.5e-6) (seconds)")
        .def(py::init([](py::handle value) { return ToTime(value, "Time"); }), py::arg("value"))
        .def_property_readonly("seconds", &Time::GetSeconds)
        .def_property_readonly("us", [](const Time& t) { return t.ToDouble(Time::US); })
        .def_property_readonly("ns", &Time::GetNanoSeconds)
        .def_property_readonly("ps", &Time::GetPicoSeconds)
        .def("__float__", &Time::GetSeconds)
        .def("__str__", &OptionParser::FormatTime)
        .def("__repr__",
             [](const Time& t) { return "reps.Time('" + OptionParser::FormatTime(t) + "')"; })
        .def("__hash__", [](const Time& t) { return std::hash<int64_t>()(t.GetTimeStep()); })
        .def(py::self + py::self)
        .def(py::self - py::self)
        .def(py::self == py::self)
        .def(py::self != py::self)
        .def(py::self < py::self)
        .def(py::self <= py::self)
        .def(py::self > py::self)
        .def(py::self >= py::self)
        .def("__mul__", [](const Time& t, int64_t k) { return t * k; })
        .def("__rmul__", [](const Time& t, int64_t k) { return k * t; })
        .def("__mul__", [](const Time& t, double k) { return t * k; })
        .def("__rmul__", [](const Time& t, double k) { return t * k; })
        .def("__truediv__",
             [](const Time& a, const Time& b) { return a.GetDouble() / b.GetDouble(); })
        .def("__truediv__", [](const Time& t, int64_t k) -> Time {
            if (k == 0)
            {
                throw py::value_error("Time: division by 0");
            }
            return t / k;
        });

    py::class_<FlowSpec>(m, "FlowSpec", "One flow: id, src, dst, bytes, start, tag, ...")
        .def(py::init<>())
        .def_readwrite("id", &FlowSpec::id)
        .def_readwrite("src", &FlowSpec::src)
        .def_readwrite("dst", &FlowSpec::dst)
        .def_readwrite("bytes", &FlowSpec::bytes)
        .def_readwrite("start", &FlowSpec::start)
        .def_readwrite("tag", &FlowSpec::tag)
        .def_readwrite("group", &FlowSpec::group)
        .def_readwrite("step", &FlowSpec::step)
        .def_readwrite("subflow", &FlowSpec::subflow)
        .def_readwrite("background", &FlowSpec::background)
        .def("__repr__", [](const FlowSpec& f) {
            return "FlowSpec(id=" + std::to_string(f.id) + ", src=" + std::to_string(f.src) +
                   ", dst=" + std::to_string(f.dst) + ", bytes=" + std::to_string(f.bytes) +
                   ", start=" + OptionParser::FormatTime(f.start) + ", tag='" + f.tag + "')";
        });

    py::class_<SampleSummary>(m, "SampleSummary", "count, mean, min, p50, p99, max")
        .def_readonly("count", &SampleSummary::count)
        .def_readonly("mean", &SampleSummary::mean)
        .def_readonly("min", &SampleSummary::min)
        .def_readonly("p50", &SampleSummary::p50)
        .def_readonly("p99", &SampleSummary::p99)
        .def_readonly("max", &SampleSummary::max)
        .def("to_dict", &SummaryToDict);

    py::class_<PyFlowRecord>(m, "FlowRecord", "One flow's record: flow, ideal, fct, slowdown, ...")
        .def_readonly("flow", &PyFlowRecord::flow)
        .def_readonly("ideal", &PyFlowRecord::ideal)
        .def_readonly("completed", &PyFlowRecord::completed)
        .def_readonly("finished", &PyFlowRecord::finished)
        .def_readonly("fct", &PyFlowRecord::fct)
        .def_readonly("slowdown", &PyFlowRecord::slowdown);

    py::class_<PyFabricHelper>(m, "ClosFabricHelper")
        .def(py::init([](const py::kwargs& attributes) {
            PyFabricHelper helper;
            for (const auto& [name, value] : attributes)
            {
                helper.Set(py::str(name).cast<std::string>(), value);
            }
            return helper;
        }))
        .def("set", &PyFabricHelper::Set, py::arg("name"), py::arg("value"))
        .def("get", &PyFabricHelper::Get, py::arg("name"))
        .def("set_switch_queue_disc", &PyFabricHelper::SetSwitchQueueDisc, py::arg("type"))
        .def("set_host_queue_disc", &PyFabricHelper::SetHostQueueDisc, py::arg("type"))
        .def("set_port_selector", &PyFabricHelper::SetPortSelector, py::arg("type"))
        .def("set_pfc_attribute",
             &PyFabricHelper::SetPfcAttribute,
             py::arg("name"),
             py::arg("value"))
        .def("set_plane_attribute",
             &PyFabricHelper::SetPlaneAttribute,
             py::arg("name"),
             py::arg("value"))
        .def("set_fat_tree", &PyFabricHelper::SetFatTree, py::arg("k"))
        .def("set_oversubscription", &PyFabricHelper::SetOversubscription, py::arg("ratio"))
        .def("validate", &PyFabricHelper::Validate)
        .def("build",
             [](PyFabricHelper& h) {
                 auto fabric = std::make_shared<PyFabric>(h.Build());
                 KeepUntilDestroy(fabric);
                 return fabric;
             })
        .def_static(
            "assign_streams",
            [](const PyFabric& fabric, int64_t stream) {
                return ClosFabricHelper::AssignStreams(
                    fabric.Get(),
                    ToWhole(stream, 0, INT64_MAX / 2, "ClosFabricHelper.assign_streams: stream"));
            },
            py::arg("fabric"),
            py::arg("stream"));

    py::class_<PyInjector, std::shared_ptr<PyInjector>>(m, "FailureInjector")
        .def("outcomes", &PyInjector::Outcomes)
        .def("event_links", &PyInjector::EventLinks, py::arg("event"))
        .def("link_name", &PyInjector::LinkName, py::arg("link"));

    py::class_<PyFabric, std::shared_ptr<PyFabric>>(m, "ClosFabric")
        .def_property_readonly("n_hosts", &PyFabric::GetNHosts)
        .def_property_readonly("n_tiers", [](const PyFabric& f) { return f.Get()->GetNTiers(); })
        .def_property_readonly("n_leaves", [](const PyFabric& f) { return f.Get()->GetNLeaves(); })
        .def_property_readonly("n_hosts_per_leaf",
                               [](const PyFabric& f) { return f.Get()->GetNHostsPerLeaf(); })
        .def_property_readonly("n_spines", [](const PyFabric& f) { return f.Get()->GetNSpines(); })
        .def_property_readonly("n_pods", [](const PyFabric& f) { return f.Get()->GetNPods(); })
        .def_property_readonly("n_planes", [](const PyFabric& f) { return f.Get()->GetNPlanes(); })
        .def_property_readonly("n_switches",
                               [](const PyFabric& f) { return f.Get()->GetNSwitches(); })
        .def_property_readonly("n_links", [](const PyFabric& f) { return f.Get()->GetNLinks(); })
        .def_property_readonly("gpus_per_server",
                               [](const PyFabric& f) { return f.Get()->GetGpusPerServer(); })
        .def_property_readonly("n_servers",
                               [](const PyFabric& f) { return f.Get()->GetNServers(); })
        .def(
            "server_of_host",
            [](const PyFabric& f, int64_t host) {
                return f.Get()->GetServerOfHost(f.Host("server_of_host", host));
            },
            py::arg("host"))
        .def(
            "host_link",
            [](const PyFabric& f, int64_t host) {
                return f.Get()->GetHostLink(f.Host("host_link", host));
            },
            py::arg("host"))
        .def("leaf_spine_link",
             &PyFabric::LeafSpineLink,
             py::arg("leaf"),
             py::arg("spine"),
             py::arg("k") = 0)
        .def("leaf_agg_link",
             &PyFabric::LeafAggLink,
             py::arg("leaf"),
             py::arg("agg"),
             py::arg("k") = 0)
        .def("agg_core_link",
             &PyFabric::AggCoreLink,
             py::arg("pod"),
             py::arg("agg"),
             py::arg("core"),
             py::arg("k") = 0)
        .def(
            "link_name",
            [](const PyFabric& f, int64_t link) {
                return f.Get()->GetLinkName(f.Link("link_name", link));
            },
            py::arg("link"))
        .def(
            "is_link_up",
            [](const PyFabric& f, int64_t link) {
                return f.Get()->IsLinkUp(f.Link("is_link_up", link));
            },
            py::arg("link"))
        .def(
            "link_rate",
            [](const PyFabric& f, int64_t link) {
                return f.Get()->GetLinkRate(f.Link("link_rate", link)).GetBitRate();
            },
            py::arg("link"))
        .def(
            "link_delay",
            [](const PyFabric& f, int64_t link) {
                return f.Get()->GetLinkDelay(f.Link("link_delay", link));
            },
            py::arg("link"))
        .def(
            "routed_path",
            [](const PyFabric& f, int64_t src, int64_t dst) {
                return f.Get()->GetRoutedPath(f.Host("routed_path", src),
                                              f.Host("routed_path", dst));
            },
            py::arg("src"),
            py::arg("dst"))
        .def("degrade_link",
             &PyFabric::DegradeLink,
             py::arg("link"),
             py::arg("rate"),
             py::arg("at") = 0)
        .def("fail_link",
             &PyFabric::FailLink,
             py::arg("link"),
             py::arg("at"),
             py::arg("up_at") = py::none())
        .def("schedule_failures",
             &PyFabric::ScheduleFailures,
             py::arg("text") = py::none(),
             py::arg("path") = py::none(),
             py::arg("stream") = py::none())
        .def("base_rtt",
             &PyFabric::BaseRtt,
             py::arg("src"),
             py::arg("dst"),
             py::arg("packet_bytes") = 4096,
             py::arg("ack_bytes") = 64)
        .def("link_counters", &PyFabric::LinkCounters, py::arg("link"), py::arg("direction"))
        .def("queue_stats", &PyFabric::QueueStats, py::arg("link"), py::arg("side"))
        .def("summary", &PyFabric::Summary)
        .def("connect",
             &PyFabric::Connect,
             py::arg("name"),
             py::arg("fn"),
             py::arg("context") = false);

    py::class_<PyRdmaHelper, std::shared_ptr<PyRdmaHelper>>(m, "RdmaHelper")
        .def(py::init<>())
        .def("set_path_selector", &PyRdmaHelper::SetPathSelector, py::arg("type"))
        .def("set_congestion_control", &PyRdmaHelper::SetCongestionControl, py::arg("type"))
        .def("set_queue_pair_attribute",
             &PyRdmaHelper::SetQueuePairAttribute,
             py::arg("name"),
             py::arg("value"))
        .def("set_path_selector_attribute",
             &PyRdmaHelper::SetPathSelectorAttribute,
             py::arg("name"),
             py::arg("value"))
        .def("validate", &PyRdmaHelper::Validate)
        .def("install", &PyRdmaHelper::Install, py::arg("fabric"))
        .def("assign_streams", &PyRdmaHelper::AssignStreams, py::arg("fabric"), py::arg("stream"))
        .def_static(
            "validate_type_id",
            [](const std::string& type, const std::string& base, const std::string& what) {
                TypeId tid;
                if (!TypeId::LookupByNameFailSafe(base, &tid))
                {
                    throw py::value_error("RdmaHelper.validate_type_id: base '" + base +
                                          "' is not a TypeId");
                }
                return RdmaHelper::ValidateTypeId(type, tid, what);
            },
            py::arg("type"),
            py::arg("base"),
            py::arg("what"));

    py::class_<PyWorkloadHelper>(m, "WorkloadHelper")
        .def(py::init<int64_t>(), py::arg("hosts"))
        .def_property_readonly("hosts", &PyWorkloadHelper::GetHosts)
        .def("set_start_time", &PyWorkloadHelper::SetStartTime, py::arg("start"))
        .def("set_start_jitter", &PyWorkloadHelper::SetStartJitter, py::arg("jitter"))
        .def("assign_streams", &PyWorkloadHelper::AssignStreams, py::arg("stream"))
        .def("permutation", &PyWorkloadHelper::Permutation, py::arg("bytes"))
        .def("tornado", &PyWorkloadHelper::Tornado, py::arg("bytes"))
        .def("incast",
             &PyWorkloadHelper::Incast,
             py::arg("senders"),
             py::arg("dst"),
             py::arg("bytes"))
        .def("pair", &PyWorkloadHelper::Pair, py::arg("bytes"), py::arg("bidirectional") = false)
        .def("outcast_incast",
             &PyWorkloadHelper::OutcastIncast,
             py::arg("senders"),
             py::arg("outcast_flows"),
             py::arg("bytes"))
        .def("all_to_all",
             &PyWorkloadHelper::AllToAll,
             py::arg("bytes_per_peer"),
             py::arg("flows_per_peer") = 1)
        .def("poisson",
             &PyWorkloadHelper::Poisson,
             py::arg("sizes"),
             py::arg("load"),
             py::arg("host_rate"),
             py::arg("duration"))
        .def("background", &PyWorkloadHelper::Background, py::arg("fraction"), py::arg("bytes"))
        .def("flow_trace",
             &PyWorkloadHelper::FlowTraceFile,
             py::arg("path"),
             py::arg("first_id") = 0);

    py::class_<PyObjectHandle>(m, "ObjectHandle", "A path selector or congestion controller")
        .def_property_readonly("type_id", &PyObjectHandle::GetTypeName)
        .def("get", &PyObjectHandle::GetAttribute, py::arg("name"))
        .def("connect",
             &PyObjectHandle::Connect,
             py::arg("name"),
             py::arg("fn"),
             py::arg("context") = "");

    py::class_<PyQueuePair>(m, "QueuePair")
        .def_property_readonly("stats", &PyQueuePair::Stats)
        .def_property_readonly("path_selector", &PyQueuePair::PathSelectorHandle)
        .def_property_readonly("congestion_control", &PyQueuePair::CongestionControlHandle)
        .def_property_readonly("selector_counters", &PyQueuePair::SelectorCounters)
        .def("connect",
             &PyQueuePair::Connect,
             py::arg("name"),
             py::arg("fn"),
             py::arg("context") = "");

    py::class_<PyLauncher, std::shared_ptr<PyLauncher>>(m, "RdmaFlowLauncher")
        .def(py::init([](std::shared_ptr<PyFabric> fabric,
                         std::shared_ptr<PyRdmaHelper> rdma,
                         std::shared_ptr<PyRdmaHelper> background,
                         const py::kwargs& attributes) {
                 auto launcher = std::make_shared<PyLauncher>(std::move(fabric),
                                                              std::move(rdma),
                                                              std::move(background),
                                                              attributes);
                 KeepUntilDestroy(launcher);
                 return launcher;
             }),
             py::arg("fabric").none(false),
             py::arg("rdma").none(false),
             py::arg("background") = nullptr)
        .def("prepare", &PyLauncher::Prepare, py::arg("flows"))
        .def_property_readonly("senders", &PyLauncher::Senders)
        .def_property_readonly("sender_totals", &PyLauncher::SenderTotals)
        .def_property_readonly("freezes", [](const PyLauncher& l) { return l.Get()->GetFreezes(); })
        .def_property_readonly("selector_counters",
                               [](const PyLauncher& l) { return l.Get()->GetSelectorCounters(); })
        .def("connect",
             &PyLauncher::Connect,
             py::arg("target"),
             py::arg("fn"),
             py::arg("context") = false);

    py::class_<PyFlowStats>(m, "FlowStats")
        .def(
            "set_ideal",
            [](const PyFlowStats& s, py::handle rate, py::handle baseRtt) {
                s.Runner().SetIdeal(rate, baseRtt);
            },
            py::arg("rate"),
            py::arg("base_rtt"))
        .def_property_readonly(
            "flow_count",
            [](const PyFlowStats& s) { return s.Runner().Stats().GetFlowCount(); })
        .def_property_readonly(
            "completed_count",
            [](const PyFlowStats& s) { return s.Runner().Stats().GetCompletedCount(); })
        .def("fct_summary_us",
             [](const PyFlowStats& s) { return s.Runner().Stats().GetFctSummaryUs(); })
        .def("slowdown_summary",
             [](const PyFlowStats& s) { return s.Runner().Stats().GetSlowdownSummary(); })
        .def_property_readonly(
            "last_completion",
            [](const PyFlowStats& s) { return s.Runner().Stats().GetLastCompletion(); })
        .def_property_readonly("records",
                               [](const PyFlowStats& s) { return s.Runner().Records(); });

    py::class_<PyRunner, std::shared_ptr<PyRunner>>(m, "WorkloadRunner")
        .def(py::init([](std::shared_ptr<PyLauncher> launcher) {
                 auto runner = std::make_shared<PyRunner>(std::move(launcher));
                 KeepUntilDestroy(runner);
                 return runner;
             }),
             py::arg("launcher").none(false))
        .def("schedule", &PyRunner::Schedule, py::arg("flows"))
        .def("stop_when_all_completed", &PyRunner::StopWhenAllCompleted)
        .def_property_readonly("stats",
                               [](std::shared_ptr<PyRunner> r) {
                                   r->CheckAlive();
                                   return PyFlowStats(r);
                               })
        .def_property_readonly("total", [](const PyRunner& r) { return r.Get()->GetTotal(); })
        .def_property_readonly("completed",
                               [](const PyRunner& r) { return r.Get()->GetCompleted(); })
        .def_property_readonly("done", [](const PyRunner& r) { return r.Get()->IsDone(); })
        .def("connect",
             &PyRunner::Connect,
             py::arg("name"),
             py::arg("fn"),
             py::arg("context") = false);

    m.def(
        "simulator_stop_after",
        [](py::handle delay) { Simulator::Stop(ToTime(delay, "Simulator.Stop: delay")); },
        py::arg("delay"));
    m.def(
        "rate_bps",
        [](py::handle rate) { return ToRate(rate, "rate_bps").GetBitRate(); },
        py::arg("rate"));
    m.def("rng_set_run", [](int64_t run) {
        RngSeedManager::SetRun(ToWhole(run, 0, INT64_MAX, "RngSeedManager.SetRun: run"));
    });
    m.def("rng_set_seed", [](int64_t seed) {
        RngSeedManager::SetSeed(ToWhole(seed, 1, UINT32_MAX, "RngSeedManager.SetSeed: seed"));
    });
    m.def("rng_get_run", &RngSeedManager::GetRun);
    m.def("rng_get_seed", &RngSeedManager::GetSeed);
}

} // namespace ns3
