/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PYTHON_TRACE_H
#define REPS_PYTHON_TRACE_H

#include "ns3/object-base.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <pybind11/pybind11.h>
#include <string>
#include <vector>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup reps
 * Connects Python callables to ns-3 trace sources and carries an exception raised by one out
 * of Simulator::Run().
 *
 * An ns-3 trace source accepts only a callback of its exact signature (a wrong one aborts the
 * program), so every signature a callable may be connected to is listed here, keyed by the
 * callback name its TypeId declares (TraceSourceInformation::callback). Each argument reaches
 * Python as a plain value: integers and booleans as they are, an enum as its integer, a Time
 * as seconds (float), a DataRate in bit/s, a packet or queue-disc item as its size in bytes,
 * a FlowSpec as a dict.
 *
 * A callable that raises stops the simulation (Simulator::Stop(), the event under way
 * finishes) and no hook runs again until ThrowIfFailed() re-raises the exception after
 * Simulator::Run() returns. The hooks hold their callables until Clear().
 */
class PythonTraceHooks
{
  public:
    /**
     * Connect a callable to a trace source of an object.
     * \param object the object
     * \param name the trace source (e.g. "FreezeStarted")
     * \param fn the callable, called with the trace's arguments (after \p context, if any)
     * \param context passed first to \p fn when not empty
     * \return an empty string when connected, else why not
     */
    static std::string Connect(ObjectBase* object,
                               const std::string& name,
                               pybind11::function fn,
                               const std::string& context);

    /**
     * \param tid a type
     * \param name a trace source of it (or of a parent)
     * \return an empty string when a callable can be connected to it, else why not
     */
    static std::string CheckSource(TypeId tid, const std::string& name);

    /**
     * \param kind "QueuePair", "PathSelector" or "CongestionControl"
     * \param name a trace source
     * \return an empty string when a callable can be connected to \p name of a queue pair, of
     *         a path selector or of a congestion controller (of a subclass of the base: a
     *         selector without it is skipped by ConnectQueuePairs()), else why not
     */
    static std::string CheckQueuePairSource(const std::string& kind, const std::string& name);

    /**
     * Connect a callable to a trace source of every queue pair of a list, of their path
     * selectors or of their congestion controllers (CheckQueuePairSource() first); an object
     * without the source is skipped (FreezeStarted of a selector that never freezes).
     * \param queuePairs the queue pairs
     * \param kind "QueuePair", "PathSelector" or "CongestionControl"
     * \param name the trace source
     * \param fn the callable
     * \param context whether \p fn gets "QueuePair/i" first (i: the index in \p queuePairs)
     * \return the number of trace sources connected
     */
    static std::size_t ConnectQueuePairs(const std::vector<Ptr<RdmaQueuePair>>& queuePairs,
                                         const std::string& kind,
                                         const std::string& name,
                                         pybind11::function fn,
                                         bool context);

    /// \return the callback names of the trace sources a callable can be connected to
    static std::vector<std::string> GetSupportedCallbacks();

    /// \return whether a hook raised since the last ThrowIfFailed() or Clear()
    static bool HasFailed();

    /**
     * Record an exception raised by Python code the simulation called (a hook, a path
     * selector written in Python): the simulation stops and ThrowIfFailed() raises it. Only
     * the first one is kept.
     * \param e the exception
     */
    static void Fail(pybind11::error_already_set&& e);

    /// Re-raise (and forget) the exception a hook raised, if any.
    static void ThrowIfFailed();

    /// Forget every hook and a pending exception (after Simulator::Destroy()).
    static void Clear();
};

} // namespace ns3

#endif /* REPS_PYTHON_TRACE_H */
