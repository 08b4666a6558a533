/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PYTHON_SELECTOR_H
#define REPS_PYTHON_SELECTOR_H

#include "ns3/path-selector.h"

#include <pybind11/pybind11.h>
#include <string>

namespace ns3
{

class PythonSelectorBase;

/**
 * \ingroup reps
 * A path selector written in Python (reps.PathSelector, registered with
 * reps.register_selector()): a PathSelector whose hooks call the methods of a Python object.
 *
 * reps.register_selector(name, factory) gives the selector a TypeId of its own,
 * "ns3::PythonPathSelector::<name>", child of this class and so of PathSelector, with
 * PathSelector's attributes and trace sources; a queue pair, the experiment's lb option and
 * PathSelectorNames find it by its short name like a selector of the module. A TypeId needs a
 * constructor of its own C++ class, so each registered name takes one of MAX_SELECTORS slot
 * classes (PythonPathSelectorSlot); registering a name again replaces its factory.
 *
 * Each Start() (the queue pair connects; AssignStreams() starts it again) calls the factory
 * for a new Python object; its methods are the hooks: next_entropy(retransmission) returns
 * the EV, or (EV, choice); feedback(ev, kind, rtt, last_hop), timeout(),
 * probe_reply(ev, rtt) and counters() are optional. A method that raises, or an EV outside
 * [EntropyBase, EntropyBase + EntropySpace), stops the simulation (as a trace hook does,
 * PythonTraceHooks): the exception is raised again when Simulator::Run() returns, and no
 * Python method is called until then (the selector answers EntropyBase).
 *
 * The Python interpreter's lock is held throughout: the simulation runs from Python.
 */
class PythonPathSelector : public PathSelector
{
  public:
    /// The number of Python path selectors one process can register.
    static constexpr uint32_t MAX_SELECTORS = 64;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param slot the registered selector this object is one of
     */
    explicit PythonPathSelector(uint32_t slot);
    ~PythonPathSelector() override;

    /// \return the name it was registered under
    std::string GetName() const override;

    /**
     * Register a Python path selector, or replace the factory of one registered before.
     * \param name the short name (letters, digits, '-', '_', '.', '+'; not a name of a
     *        selector of the module)
     * \param factory called with no argument for each connection; returns a reps.PathSelector
     * \return the TypeId's name; raises ValueError when \p name is refused or the slots are
     *         exhausted
     */
    static std::string Register(const std::string& name, pybind11::object factory);

    /// \return the names registered so far, in order
    static std::vector<std::string> GetRegisteredNames();

    /**
     * Add the classes and functions to the extension module.
     * \param m the module
     */
    static void Bind(pybind11::module_& m);

    /// For reps.PathSelector: an EV drawn uniformly from the entropy space.
    /// \return the EV
    uint16_t PyRandomEntropy();

    /**
     * For reps.PathSelector.
     * \param max the largest value
     * \return an integer drawn uniformly from [0, max]
     */
    uint32_t PyRandomInteger(uint32_t max);

    /**
     * For reps.PathSelector: ask the transport to send a probe.
     * \param ev the EV to probe
     * \return whether a probe was handed to the transport
     */
    bool PySendProbe(int64_t ev);

  protected:
    void DoDispose() override;
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override;
    void DoFeedback(const Feedback& feedback) override;
    void DoTimeout() override;
    void DoStart() override;
    void DoProbeReply(uint16_t ev, Time rtt) override;
    void DoGetCounters(Counters& counters) const override;

  private:
    /**
     * Record the Python exception being handled: the run stops and it is raised again after
     * Simulator::Run().
     * \param e the exception
     */
    void Fail(pybind11::error_already_set& e);

    /**
     * Record a new exception of type \p type with \p message (see Fail()).
     * \param type a Python exception type
     * \param message what is wrong
     */
    void Fail(PyObject* type, const std::string& message);

    /// \return whether the Python object can be called (made, and nothing raised)
    bool Live() const;

    /// Detach the Python object: its handle raises from now on, the references go.
    void Release();

    uint32_t m_slot;                     //!< The registered selector.
    pybind11::object m_impl;             //!< The Python object of this connection.
    PythonSelectorBase* m_base{nullptr}; //!< Its reps.PathSelector part.
    pybind11::object m_next;             //!< Its next_entropy.
    pybind11::object m_feedback;         //!< Its feedback, or None.
    pybind11::object m_timeout;          //!< Its timeout, or None.
    pybind11::object m_probeReply;       //!< Its probe_reply, or None.
    pybind11::object m_counters;         //!< Its counters, or None.
};

/**
 * \ingroup reps
 * What reps.PathSelector is in C++: the link from the Python object to the PythonPathSelector
 * it serves, cut when that selector is disposed (its methods raise RuntimeError from then on).
 */
class PythonSelectorBase
{
  public:
    /// Attaches to the selector whose factory is being called (none outside a factory).
    PythonSelectorBase();

    /// \return the selector; raises RuntimeError when detached
    PythonPathSelector& Get() const;

    /// Cut the link (the selector is disposed).
    void Detach();

    /// \return whether it serves a selector
    bool IsAttached() const;

  private:
    friend class PythonPathSelector;
    PythonPathSelector* m_selector{nullptr}; //!< The selector served, or null.
    std::string m_name;                      //!< Its name, for messages once detached.
};

} // namespace ns3

#endif /* REPS_PYTHON_SELECTOR_H */
