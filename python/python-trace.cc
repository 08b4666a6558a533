/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "python-trace.h"

#include "ns3/data-rate.h"
#include "ns3/fabric-switch.h"
#include "ns3/flow-spec.h"
#include "ns3/mrc-path-selector.h"
#include "ns3/nscc-core.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/path-selector.h"
#include "ns3/port-selector.h"
#include "ns3/queue-item.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <map>
#include <memory>
#include <optional>
#include <type_traits>

namespace py = pybind11;

namespace ns3
{

namespace
{

/// One connected callable.
struct Hook
{
    py::function fn;     //!< The callable.
    std::string context; //!< Passed first when not empty.
};

/// The hooks connected, alive until Clear().
std::vector<std::unique_ptr<Hook>>&
Hooks()
{
    // Never destroyed: the callables must not be released after the interpreter is gone.
    static auto* hooks = new std::vector<std::unique_ptr<Hook>>;
    return *hooks;
}

/// The exception a hook raised, until re-raised.
std::optional<py::error_already_set>&
Pending()
{
    static auto* pending = new std::optional<py::error_already_set>;
    return *pending;
}

/// \return a FlowSpec as a dict of its fields
py::dict
FlowToPy(const FlowSpec& f)
{
    py::dict d;
    d["id"] = f.id;
    d["src"] = f.src;
    d["dst"] = f.dst;
    d["bytes"] = f.bytes;
    d["start"] = f.start.GetSeconds();
    d["tag"] = f.tag;
    d["group"] = f.group;
    d["step"] = f.step;
    d["subflow"] = f.subflow;
    d["background"] = f.background;
    return d;
}

/// \return one trace argument as a plain Python value
template <typename T>
py::object
ToPy(const T& v)
{
    using U = std::decay_t<T>;
    if constexpr (std::is_same_v<U, Time>)
    {
        return py::float_(v.GetSeconds());
    }
    else if constexpr (std::is_same_v<U, DataRate>)
    {
        return py::int_(v.GetBitRate());
    }
    else if constexpr (std::is_same_v<U, FlowSpec>)
    {
        return FlowToPy(v);
    }
    else if constexpr (std::is_same_v<U, Ptr<const Packet>> ||
                       std::is_same_v<U, Ptr<const QueueDiscItem>>)
    {
        return py::int_(v ? v->GetSize() : 0);
    }
    else if constexpr (std::is_enum_v<U>)
    {
        return py::int_(static_cast<int64_t>(v));
    }
    else if constexpr (std::is_same_v<U, bool>)
    {
        return py::bool_(v);
    }
    else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>)
    {
        return py::int_(static_cast<int64_t>(v));
    }
    else if constexpr (std::is_integral_v<U>)
    {
        return py::int_(static_cast<uint64_t>(v));
    }
    else
    {
        static_assert(std::is_floating_point_v<U>, "no conversion to Python");
        return py::float_(v);
    }
}

/// The sink of a trace of arguments Args: calls the hook's callable, or records its exception.
template <typename... Args>
void
Sink(Hook* hook, Args... args)
{
    if (Pending())
    {
        return; // the run is stopping: no hook runs after one raised
    }
    try
    {
        if (hook->context.empty())
        {
            hook->fn(ToPy(args)...);
        }
        else
        {
            hook->fn(hook->context, ToPy(args)...);
        }
    }
    catch (py::error_already_set& e)
    {
        PythonTraceHooks::Fail(std::move(e));
    }
}

/// Connects a hook to a trace source of arguments Args.
using Connector = bool (*)(ObjectBase*, const std::string&, Hook*);

/// \return whether the hook was connected to \p name of \p object with arguments Args
template <typename... Args>
bool
ConnectAs(ObjectBase* object, const std::string& name, Hook* hook)
{
    return object->TraceConnectWithoutContext(name, MakeBoundCallback(&Sink<Args...>, hook));
}

/// The signatures, by the callback name the trace sources declare.
const std::map<std::string, Connector>&
Connectors()
{
    using PS = PathSelector;
    static const std::map<std::string, Connector> table = {
        // The module's own.
        {"ns3::PathSelector::EntropyChosenTracedCallback", &ConnectAs<uint16_t, PS::Choice, bool>},
        {"ns3::PathSelector::FeedbackTracedCallback", &ConnectAs<uint16_t, PS::Feedback::Kind>},
        {"ns3::RepsPathSelector::EntropyTracedCallback", &ConnectAs<uint16_t>},
        {"ns3::RepsPathSelector::FreezeTracedCallback", &ConnectAs<Time>},
        {"ns3::BitmapPathSelector::PenaltyTracedCallback", &ConnectAs<uint16_t, uint8_t>},
        {"ns3::PlbPathSelector::RepathTracedCallback", &ConnectAs<uint16_t, uint16_t, bool>},
        {"ns3::MrcPathSelector::PathStateChangedTracedCallback",
         &ConnectAs<uint16_t, MrcPathSelector::PathState, MrcPathSelector::PathState>},
        {"ns3::MrcPathSelector::PathReplacedTracedCallback", &ConnectAs<uint16_t, uint16_t>},
        {"ns3::MrcPathSelector::PlaneSuspectedTracedCallback", &ConnectAs<uint32_t>},
        {"ns3::RdmaQueuePair::PacketSentTracedCallback", &ConnectAs<uint32_t, uint16_t, bool>},
        {"ns3::RdmaQueuePair::AckTracedCallback", &ConnectAs<uint32_t, uint16_t, bool, Time>},
        {"ns3::RdmaQueuePair::NackTracedCallback", &ConnectAs<uint32_t, uint16_t, uint8_t>},
        {"ns3::RdmaQueuePair::LossTracedCallback", &ConnectAs<uint32_t, uint16_t>},
        {"ns3::RdmaQueuePair::TimeoutTracedCallback", &ConnectAs<uint32_t>},
        {"ns3::RdmaQueuePair::MessageTracedCallback", &ConnectAs<uint64_t, uint64_t, Time>},
        {"ns3::RdmaQueuePair::DataReceivedTracedCallback",
         &ConnectAs<uint32_t, uint16_t, bool, bool>},
        {"ns3::RdmaQueuePair::AckSentTracedCallback", &ConnectAs<uint32_t, uint16_t, bool, bool>},
        {"ns3::TracedCallback::Void", &ConnectAs<>},
        {"ns3::NsccCongestionControl::DecisionTracedCallback",
         &ConnectAs<NsccDecision, uint32_t, uint32_t>},
        {"ns3::RcccPullPacer::PullTracedCallback", &ConnectAs<uint32_t, uint32_t, uint64_t, bool>},
        {"ns3::RcccSender::CreditTracedCallback", &ConnectAs<uint32_t, int64_t>},
        {"ns3::RcccSender::RtsTracedCallback", &ConnectAs<uint64_t>},
        {"ns3::ClosFabric::LinkStateTracedCallback", &ConnectAs<uint32_t, bool>},
        {"ns3::ClosPlane::LinkStateTracedCallback", &ConnectAs<uint32_t, bool>},
        {"ns3::CableFailureController::CableFailedTracedCallback", &ConnectAs<uint32_t, uint32_t>},
        {"ns3::DlbPortSelector::FlowletTracedCallback", &ConnectAs<uint32_t, uint32_t, uint32_t>},
        {"ns3::EcnQueueDisc::TrimTracedCallback", &ConnectAs<Ptr<const QueueDiscItem>>},
        {"ns3::FabricLinkErrorModel::DropTracedCallback", &ConnectAs<Ptr<const Packet>>},
        {"ns3::PfcPort::PauseTracedCallback", &ConnectAs<uint8_t, uint16_t>},
        {"ns3::PfcPort::ResumedTracedCallback", &ConnectAs<uint8_t, Time>},
        {"ns3::WorkloadRunner::FlowStartedTracedCallback", &ConnectAs<const FlowSpec&>},
        {"ns3::WorkloadRunner::FlowCompletedTracedCallback", &ConnectAs<const FlowSpec&, Time>},
        {"ns3::Collective::CompletedTracedCallback", &ConnectAs<Time>},
        {"ns3::TrainingLoop::IterationTracedCallback", &ConnectAs<uint32_t, Time>},
        // ns-3's, as the module's objects use them.
        {"ns3::Packet::TracedCallback", &ConnectAs<Ptr<const Packet>>},
        {"ns3::QueueDiscItem::TracedCallback", &ConnectAs<Ptr<const QueueDiscItem>>},
        {"ns3::TracedValueCallback::Bool", &ConnectAs<bool, bool>},
        {"ns3::TracedValueCallback::Uint32", &ConnectAs<uint32_t, uint32_t>},
        {"ns3::TracedValueCallback::Int64", &ConnectAs<int64_t, int64_t>},
        {"ns3::TracedValueCallback::Double", &ConnectAs<double, double>},
        {"ns3::TracedValueCallback::Time", &ConnectAs<Time, Time>},
        {"ns3::TracedValueCallback::DataRate", &ConnectAs<DataRate, DataRate>},
    };
    return table;
}

/**
 * \param tid a type
 * \param name a trace source
 * \param [out] error why no callable can be connected
 * \return its connector, or null
 */
Connector
FindConnector(TypeId tid, const std::string& name, std::string& error)
{
    TypeId::TraceSourceInformation info;
    if (!tid.LookupTraceSourceByName(name, &info))
    {
        std::vector<std::string> names;
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetTraceSourceN(); ++i)
            {
                names.push_back(t.GetTraceSource(i).name);
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
        error = tid.GetName() + " has no trace source '" + name +
                "'; allowed: " + (list.empty() ? "none" : list);
        return nullptr;
    }
    auto found = Connectors().find(info.callback);
    if (found == Connectors().end())
    {
        error = tid.GetName() + "::" + name + ": callbacks of type " + info.callback +
                " cannot be connected from Python";
        return nullptr;
    }
    return found->second;
}

} // namespace

std::string
PythonTraceHooks::CheckSource(TypeId tid, const std::string& name)
{
    std::string error;
    FindConnector(tid, name, error);
    return error;
}

namespace
{

/**
 * \param base a type
 * \param name a trace source
 * \return an empty string when \p base or one of its subclasses has \p name and a callable
 *         can be connected to it, else why not
 */
std::string
CheckSourceOfFamily(TypeId base, const std::string& name)
{
    std::string first = PythonTraceHooks::CheckSource(base, name);
    for (uint16_t i = 0; i < TypeId::GetRegisteredN() && !first.empty(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid != base && tid.IsChildOf(base))
        {
            TypeId::TraceSourceInformation info;
            if (tid.LookupTraceSourceByName(name, &info))
            {
                return PythonTraceHooks::CheckSource(tid, name);
            }
        }
    }
    return first.empty() ? first : first + " (nor has any subclass)";
}

} // namespace

std::string
PythonTraceHooks::CheckQueuePairSource(const std::string& kind, const std::string& name)
{
    if (kind == "QueuePair")
    {
        return CheckSource(RdmaQueuePair::GetTypeId(), name);
    }
    if (kind == "PathSelector")
    {
        return CheckSourceOfFamily(PathSelector::GetTypeId(), name);
    }
    if (kind == "CongestionControl")
    {
        return CheckSourceOfFamily(RdmaCongestionControl::GetTypeId(), name);
    }
    return "unknown target '" + kind + "'; allowed: QueuePair, PathSelector, CongestionControl";
}

std::size_t
PythonTraceHooks::ConnectQueuePairs(const std::vector<Ptr<RdmaQueuePair>>& queuePairs,
                                    const std::string& kind,
                                    const std::string& name,
                                    py::function fn,
                                    bool context)
{
    std::string error = CheckQueuePairSource(kind, name);
    if (!error.empty())
    {
        throw py::value_error(error);
    }
    std::size_t connected = 0;
    for (std::size_t i = 0; i < queuePairs.size(); ++i)
    {
        Ptr<Object> o = queuePairs[i];
        if (kind == "PathSelector")
        {
            o = queuePairs[i]->GetPathSelector();
        }
        else if (kind == "CongestionControl")
        {
            o = queuePairs[i]->GetCongestionControl();
        }
        TypeId::TraceSourceInformation info;
        if (!o || !o->GetInstanceTypeId().LookupTraceSourceByName(name, &info))
        {
            continue; // e.g. FreezeStarted of a selector that never freezes
        }
        error = Connect(PeekPointer(o), name, fn, context ? "QueuePair/" + std::to_string(i) : "");
        if (!error.empty())
        {
            throw py::value_error(error);
        }
        ++connected;
    }
    return connected;
}

std::string
PythonTraceHooks::Connect(ObjectBase* object,
                          const std::string& name,
                          py::function fn,
                          const std::string& context)
{
    std::string error;
    Connector connect = FindConnector(object->GetInstanceTypeId(), name, error);
    if (!connect)
    {
        return error;
    }
    Hooks().push_back(std::make_unique<Hook>(Hook{std::move(fn), context}));
    if (!connect(object, name, Hooks().back().get()))
    {
        Hooks().pop_back();
        return object->GetInstanceTypeId().GetName() + "::" + name + ": could not connect";
    }
    return "";
}

std::vector<std::string>
PythonTraceHooks::GetSupportedCallbacks()
{
    std::vector<std::string> names;
    for (const auto& entry : Connectors())
    {
        names.push_back(entry.first);
    }
    return names;
}

bool
PythonTraceHooks::HasFailed()
{
    return Pending().has_value();
}

void
PythonTraceHooks::Fail(py::error_already_set&& e)
{
    if (!Pending())
    {
        Pending() = std::move(e);
        Simulator::Stop();
    }
}

void
PythonTraceHooks::ThrowIfFailed()
{
    if (Pending())
    {
        py::error_already_set e = std::move(*Pending());
        Pending().reset();
        throw e;
    }
}

void
PythonTraceHooks::Clear()
{
    Hooks().clear();
    Pending().reset();
}

} // namespace ns3
