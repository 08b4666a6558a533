/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "python-selector.h"

#include "python-trace.h"

#include "ns3/log.h"
#include "ns3/path-selector-names.h"

#include <array>
#include <pybind11/stl.h>
#include <utility>

namespace py = pybind11;

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PythonPathSelector");

NS_OBJECT_ENSURE_REGISTERED(PythonPathSelector);

namespace
{

/// A registered Python path selector.
struct Registered
{
    std::string name;   //!< Its short name.
    py::object factory; //!< Makes its Python object.
    TypeId tid;         //!< Its TypeId.
};

/// The registered selectors, by slot. Never destroyed: the factories must not be released
/// after the interpreter is gone.
std::vector<Registered>&
Registry()
{
    static auto* registry = new std::vector<Registered>;
    return *registry;
}

/// The selector whose factory is being called (what a new reps.PathSelector attaches to).
PythonPathSelector* g_attaching = nullptr;

/**
 * The C++ class of slot N: a TypeId needs a constructor of its own class, and each slot's is
 * that of one registered name.
 */
template <uint32_t N>
class PythonPathSelectorSlot : public PythonPathSelector
{
  public:
    PythonPathSelectorSlot()
        : PythonPathSelector(N)
    {
    }
};

/**
 * \param name a TypeId name
 * \return a new TypeId whose objects are of slot N
 */
template <uint32_t N>
TypeId
MakeSlotTypeId(const std::string& name)
{
    return TypeId(name.c_str())
        .SetParent<PythonPathSelector>()
        .SetGroupName("Reps")
        .AddConstructor<PythonPathSelectorSlot<N>>();
}

/// Makes the TypeId of one slot.
using SlotMaker = TypeId (*)(const std::string&);

/// \return the TypeId maker of every slot
template <std::size_t... I>
constexpr std::array<SlotMaker, sizeof...(I)>
SlotMakers(std::index_sequence<I...>)
{
    return {&MakeSlotTypeId<static_cast<uint32_t>(I)>...};
}

/// The TypeId makers of the slots.
constexpr std::array<SlotMaker, PythonPathSelector::MAX_SELECTORS> kSlotMakers =
    SlotMakers(std::make_index_sequence<PythonPathSelector::MAX_SELECTORS>());

/// \return whether \p name is a short name a selector may have
bool
IsValidName(const std::string& name)
{
    if (name.empty() || name.size() > 64)
    {
        return false;
    }
    for (char c : name)
    {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '+';
        if (!ok)
        {
            return false;
        }
    }
    return true;
}

/**
 * \param o the object
 * \return its type's name, for messages
 */
std::string
TypeName(py::handle o)
{
    return py::str(py::type::handle_of(o).attr("__name__"));
}

/**
 * \param o an object
 * \param name an attribute
 * \return the attribute, or a null object when it is missing or None
 */
py::object
Optional(py::handle o, const char* name)
{
    if (!py::hasattr(o, name))
    {
        return py::object();
    }
    py::object a = o.attr(name);
    return a.is_none() ? py::object() : a;
}

} // namespace

TypeId
PythonPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PythonPathSelector").SetParent<PathSelector>().SetGroupName("Reps");
    return tid;
}

PythonPathSelector::PythonPathSelector(uint32_t slot)
    : m_slot(slot)
{
    NS_LOG_FUNCTION(this << slot);
}

PythonPathSelector::~PythonPathSelector()
{
    NS_LOG_FUNCTION(this);
    if (Py_IsInitialized())
    {
        Release();
    }
    else
    {
        // The interpreter is gone (an object freed at exit): the references cannot be given
        // back.
        m_impl.release();
        m_next.release();
        m_feedback.release();
        m_timeout.release();
        m_probeReply.release();
        m_counters.release();
    }
}

void
PythonPathSelector::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Release();
    PathSelector::DoDispose();
}

void
PythonPathSelector::Release()
{
    if (m_base)
    {
        m_base->Detach();
        m_base = nullptr;
    }
    m_next = py::object();
    m_feedback = py::object();
    m_timeout = py::object();
    m_probeReply = py::object();
    m_counters = py::object();
    m_impl = py::object();
}

std::string
PythonPathSelector::GetName() const
{
    return m_slot < Registry().size() ? Registry()[m_slot].name : "python";
}

bool
PythonPathSelector::Live() const
{
    return m_next && !PythonTraceHooks::HasFailed();
}

void
PythonPathSelector::Fail(py::error_already_set& e)
{
    PythonTraceHooks::Fail(std::move(e));
}

void
PythonPathSelector::Fail(PyObject* type, const std::string& message)
{
    PyErr_SetString(type, message.c_str());
    py::error_already_set e;
    Fail(e);
}

void
PythonPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    Release(); // a new Python object for each start
    if (PythonTraceHooks::HasFailed() || m_slot >= Registry().size())
    {
        return;
    }
    const Registered& r = Registry()[m_slot];
    PythonPathSelector* outer = g_attaching;
    g_attaching = this;
    try
    {
        py::object impl = r.factory();
        g_attaching = outer;
        if (!py::isinstance<PythonSelectorBase>(impl))
        {
            Fail(PyExc_TypeError,
                 "path selector '" + r.name + "': its factory returned a " + TypeName(impl) +
                     ", not a reps.PathSelector");
            return;
        }
        auto* base = impl.cast<PythonSelectorBase*>();
        if (base->m_selector != this)
        {
            Fail(PyExc_TypeError,
                 "path selector '" + r.name + "': the object its factory returned was not made " +
                     "by that call (a factory makes a new object for each connection)");
            return;
        }
        py::object next = Optional(impl, "next_entropy");
        if (!next)
        {
            Fail(PyExc_TypeError,
                 "path selector '" + r.name + "': " + TypeName(impl) +
                     " has no method next_entropy(self, retransmission)");
            return;
        }
        m_impl = impl;
        m_base = base;
        m_feedback = Optional(impl, "feedback");
        m_timeout = Optional(impl, "timeout");
        m_probeReply = Optional(impl, "probe_reply");
        m_counters = Optional(impl, "counters");
        py::object start = Optional(impl, "start");
        if (start)
        {
            start();
        }
        m_next = next; // last: Live() from here on
    }
    catch (py::error_already_set& e)
    {
        g_attaching = outer;
        Release();
        Fail(e);
    }
}

uint16_t
PythonPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    why = RANDOM;
    if (!Live())
    {
        return GetEntropyBase();
    }
    try
    {
        py::object r = m_next(retransmission);
        py::handle evObject = r;
        if (PyTuple_Check(r.ptr()))
        {
            if (PyTuple_GET_SIZE(r.ptr()) != 2)
            {
                Fail(PyExc_TypeError,
                     "path selector '" + GetName() + "': next_entropy() returned a tuple of " +
                         std::to_string(PyTuple_GET_SIZE(r.ptr())) +
                         "; allowed: an EV, or (EV, choice)");
                return GetEntropyBase();
            }
            evObject = PyTuple_GET_ITEM(r.ptr(), 0);
            py::handle choice = PyTuple_GET_ITEM(r.ptr(), 1);
            const long c = PyLong_Check(choice.ptr()) ? PyLong_AsLong(choice.ptr()) : -1;
            if (c < 0 || c >= static_cast<long>(N_CHOICES))
            {
                PyErr_Clear();
                Fail(PyExc_ValueError,
                     "path selector '" + GetName() + "': next_entropy() returned the choice " +
                         std::string(py::repr(choice)) +
                         "; allowed: reps.PathSelector.FIXED, RANDOM, EXPLORE, RECYCLED, "
                         "FROZEN or ROUND_ROBIN (0 to " +
                         std::to_string(N_CHOICES - 1) + ")");
                return GetEntropyBase();
            }
            why = static_cast<Choice>(c);
        }
        const long long ev = PyLong_Check(evObject.ptr()) ? PyLong_AsLongLong(evObject.ptr()) : -1;
        const long long lo = GetEntropyBase();
        const long long hi = lo + GetEntropySpace();
        if (!PyLong_Check(evObject.ptr()) || ev < lo || ev >= hi)
        {
            PyErr_Clear();
            Fail(PyExc_ValueError,
                 "path selector '" + GetName() + "': next_entropy() returned " +
                     std::string(py::repr(evObject)) + "; allowed: an EV in [" +
                     std::to_string(lo) + ", " + std::to_string(hi) +
                     ") (EntropyBase, EntropyBase + EntropySpace)");
            return GetEntropyBase();
        }
        return static_cast<uint16_t>(ev);
    }
    catch (py::error_already_set& e)
    {
        Fail(e);
        return GetEntropyBase();
    }
}

void
PythonPathSelector::DoFeedback(const Feedback& feedback)
{
    if (!m_feedback || !Live())
    {
        return;
    }
    try
    {
        m_feedback(feedback.ev,
                   static_cast<int>(feedback.kind),
                   feedback.rtt.GetSeconds(),
                   feedback.lastHop);
    }
    catch (py::error_already_set& e)
    {
        Fail(e);
    }
}

void
PythonPathSelector::DoTimeout()
{
    if (!m_timeout || !Live())
    {
        return;
    }
    try
    {
        m_timeout();
    }
    catch (py::error_already_set& e)
    {
        Fail(e);
    }
}

void
PythonPathSelector::DoProbeReply(uint16_t ev, Time rtt)
{
    if (!m_probeReply || !Live())
    {
        return;
    }
    try
    {
        m_probeReply(ev, rtt.GetSeconds());
    }
    catch (py::error_already_set& e)
    {
        Fail(e);
    }
}

void
PythonPathSelector::DoGetCounters(Counters& counters) const
{
    if (!m_counters || !Live())
    {
        return;
    }
    auto* self = const_cast<PythonPathSelector*>(this);
    try
    {
        py::object r = m_counters();
        if (!py::isinstance<py::dict>(r))
        {
            self->Fail(PyExc_TypeError,
                       "path selector '" + GetName() + "': counters() returned a " + TypeName(r) +
                           "; allowed: a dict of names to integers >= 0");
            return;
        }
        for (auto item : py::reinterpret_borrow<py::dict>(r))
        {
            if (!py::isinstance<py::str>(item.first) || !py::isinstance<py::int_>(item.second) ||
                item.second.cast<long long>() < 0)
            {
                self->Fail(PyExc_ValueError,
                           "path selector '" + GetName() + "': counters() has the entry " +
                               std::string(py::repr(item.first)) + ": " +
                               std::string(py::repr(item.second)) +
                               "; allowed: a name (str) and an integer >= 0");
                return;
            }
            counters[item.first.cast<std::string>()] = item.second.cast<uint64_t>();
        }
    }
    catch (py::error_already_set& e)
    {
        self->Fail(e);
    }
}

uint16_t
PythonPathSelector::PyRandomEntropy()
{
    return RandomEntropy();
}

uint32_t
PythonPathSelector::PyRandomInteger(uint32_t max)
{
    return RandomInteger(max);
}

bool
PythonPathSelector::PySendProbe(int64_t ev)
{
    if (ev < GetEntropyBase() || ev >= static_cast<int64_t>(GetEntropyBase()) + GetEntropySpace())
    {
        throw py::value_error("path selector '" + GetName() + "': send_probe(" +
                              std::to_string(ev) + "): allowed: an EV in [" +
                              std::to_string(GetEntropyBase()) + ", " +
                              std::to_string(GetEntropyBase() + GetEntropySpace()) + ")");
    }
    return SendProbe(static_cast<uint16_t>(ev));
}

std::string
PythonPathSelector::Register(const std::string& name, py::object factory)
{
    if (!IsValidName(name))
    {
        throw py::value_error("register_selector: '" + name +
                              "' is not a selector name; allowed: 1 to 64 letters, digits, "
                              "'-', '_', '.' or '+'");
    }
    if (!PyCallable_Check(factory.ptr()))
    {
        throw py::type_error("register_selector('" + name + "'): the factory is a " +
                             TypeName(factory) +
                             "; allowed: a subclass of reps.PathSelector or a callable "
                             "returning one");
    }
    for (Registered& r : Registry())
    {
        if (r.name == name)
        {
            r.factory = factory; // the same TypeId, a new factory
            return r.tid.GetName();
        }
    }
    for (const PathSelectorNames::Entry& e : PathSelectorNames::GetTable())
    {
        if (e.first == name)
        {
            throw py::value_error("register_selector: '" + name +
                                  "' is the name of the module's path selector " +
                                  e.second.GetName() + "; give another name");
        }
    }
    if (Registry().size() >= MAX_SELECTORS)
    {
        throw py::value_error("register_selector('" + name +
                              "'): " + std::to_string(MAX_SELECTORS) +
                              " Python path selectors are registered already, the most one "
                              "process can hold; register a factory again under an existing "
                              "name instead");
    }
    const std::string tidName = "ns3::PythonPathSelector::" + name;
    TypeId existing;
    if (TypeId::LookupByNameFailSafe(tidName, &existing))
    {
        throw py::value_error("register_selector: the TypeId " + tidName + " exists already");
    }
    const auto slot = static_cast<uint32_t>(Registry().size());
    Registry().push_back(Registered{name, factory, TypeId()});
    Registry().back().tid = kSlotMakers[slot](tidName);
    return tidName;
}

std::vector<std::string>
PythonPathSelector::GetRegisteredNames()
{
    std::vector<std::string> names;
    for (const Registered& r : Registry())
    {
        names.push_back(r.name);
    }
    return names;
}

PythonSelectorBase::PythonSelectorBase()
    : m_selector(g_attaching)
{
    if (m_selector)
    {
        m_name = m_selector->GetName();
    }
}

PythonPathSelector&
PythonSelectorBase::Get() const
{
    if (!m_selector)
    {
        if (m_name.empty())
        {
            throw std::runtime_error(
                "this reps.PathSelector serves no connection: the simulation makes one for "
                "each connection from the factory given to reps.register_selector()");
        }
        throw std::runtime_error("path selector '" + m_name +
                                 "': its connection is gone (the run ended or "
                                 "Simulator.Destroy() was called)");
    }
    return *m_selector;
}

void
PythonSelectorBase::Detach()
{
    m_selector = nullptr;
}

bool
PythonSelectorBase::IsAttached() const
{
    return m_selector != nullptr;
}

void
PythonPathSelector::Bind(py::module_& m)
{
    using B = PythonSelectorBase;
    py::class_<B> base(m, "PathSelector", py::dynamic_attr());
    base.doc() = "Base class of a path selector written in Python (see reps.register_selector)";
    base.def(py::init<>())
        .def(
            "random_entropy",
            [](const B& b) { return b.Get().PyRandomEntropy(); },
            "An EV drawn uniformly from the entropy space, from the selector's ns-3 stream")
        .def(
            "random_integer",
            [](const B& b, uint32_t max) { return b.Get().PyRandomInteger(max); },
            py::arg("max"),
            "An integer drawn uniformly from [0, max], from the selector's ns-3 stream")
        .def(
            "send_probe",
            [](const B& b, int64_t ev) { return b.Get().PySendProbe(ev); },
            py::arg("ev"),
            "Ask the transport to probe an EV; probe_reply(ev, rtt) gets the answer")
        .def_property_readonly("attached", &B::IsAttached)
        .def_property_readonly("name", [](const B& b) { return b.Get().GetName(); })
        .def_property_readonly("entropy_base", [](const B& b) { return b.Get().GetEntropyBase(); })
        .def_property_readonly("entropy_space",
                               [](const B& b) { return b.Get().GetEntropySpace(); })
        .def_property_readonly("planes", [](const B& b) { return b.Get().GetContext().planes; })
        .def_property_readonly("base_rtt",
                               [](const B& b) { return b.Get().GetContext().baseRtt.GetSeconds(); })
        .def_property_readonly("rto",
                               [](const B& b) { return b.Get().GetContext().rto.GetSeconds(); })
        .def_property_readonly("bdp_packets",
                               [](const B& b) { return b.Get().GetContext().bdpPackets; })
        .def_property_readonly("trimming", [](const B& b) { return b.Get().GetContext().trimming; })
        .def_property_readonly("packets", [](const B& b) { return b.Get().GetPacketCount(); });
    // Choices (the second value next_entropy may return) and feedback kinds.
    base.attr("FIXED") = static_cast<int>(PathSelector::FIXED);
    base.attr("RANDOM") = static_cast<int>(PathSelector::RANDOM);
    base.attr("EXPLORE") = static_cast<int>(PathSelector::EXPLORE);
    base.attr("RECYCLED") = static_cast<int>(PathSelector::RECYCLED);
    base.attr("FROZEN") = static_cast<int>(PathSelector::FROZEN);
    base.attr("ROUND_ROBIN") = static_cast<int>(PathSelector::ROUND_ROBIN);
    base.attr("GOOD") = static_cast<int>(PathSelector::Feedback::GOOD);
    base.attr("ECN") = static_cast<int>(PathSelector::Feedback::ECN);
    base.attr("NACK") = static_cast<int>(PathSelector::Feedback::NACK);
    base.attr("LOST") = static_cast<int>(PathSelector::Feedback::LOST);

    m.def("register_selector",
          &PythonPathSelector::Register,
          py::arg("name"),
          py::arg("factory"),
          "Register a path selector written in Python under a short name; returns its TypeId");
    m.def("registered_selectors",
          &PythonPathSelector::GetRegisteredNames,
          "The names of the path selectors registered from Python");
}

} // namespace ns3
