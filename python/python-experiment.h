/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PYTHON_EXPERIMENT_H
#define REPS_PYTHON_EXPERIMENT_H

#include "ns3/fabric-experiment.h"

#include <memory>
#include <pybind11/pybind11.h>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The experiment of reps-lb-comparison for Python (reps.Experiment): the options by name, as
 * text, given to the same option registry as the command line, so that a refused value raises
 * ValueError with the command line's message; a run per path selector; the results as the
 * JSON the example writes with --json (ExperimentReport::ToJson()), so that its fields never
 * differ from the command line's.
 *
 * ns-3's state is global: every run starts from ns-3's own attribute defaults and global
 * values (Config::Reset()), applies the options, runs each path selector to its end
 * (Simulator::Destroy()), and resets them again, so that nothing one experiment sets leaks
 * into the next.
 */
class PythonExperiment
{
  public:
    /// Option names and values, as on the command line (without the dashes).
    using Options = std::vector<std::pair<std::string, std::string>>;

    /**
     * Check the options (raises ValueError with the command line's message when one is
     * refused).
     * \param options the options, in order
     */
    explicit PythonExperiment(Options options);

    /**
     * Run every path selector.
     * \param lb the path selectors (empty: those of the options' lb)
     * \return the JSON report and the text the example prints (setup and table)
     */
    std::pair<std::string, std::string> Run(const std::vector<std::string>& lb);

    /**
     * Connect a callable, in every run, to a trace source of what the run builds.
     * \param target "QueuePair/Name", "PathSelector/Name", "CongestionControl/Name" (those of
     *        every sending queue pair), "Fabric/Name", or an ns-3 Config path whose last
     *        segment names the trace source
     * \param fn the callable
     * \param context whether \p fn gets, first, which object fired ("QueuePair/3", or the
     *        matched Config path)
     */
    void Connect(const std::string& target, pybind11::function fn, bool context);

    /// \return the JSON configuration the options give (every option, defaults included)
    std::string GetConfig() const;

    /// \return the names of every option, in the order of --help
    static std::vector<std::string> GetOptionNames();

  private:
    /**
     * A checked experiment: ns-3's defaults reset, the options (and \p extra) applied.
     * \param extra options given after the experiment's own
     * \return the experiment
     */
    std::unique_ptr<FabricExperiment> Prepare(const Options& extra) const;

    /**
     * The built callback of every run: connects the hooks.
     * \param fabric the fabric
     * \param senders the sending queue pairs
     */
    void Built(Ptr<ClosFabric> fabric, const std::vector<Ptr<RdmaQueuePair>>& senders);

    /// A callable to connect in every run.
    struct Hook
    {
        std::string kind;      //!< QueuePair, PathSelector, CongestionControl, Fabric or a path.
        std::string source;    //!< The trace source.
        pybind11::function fn; //!< The callable.
        bool context;          //!< Whether it gets the context first.
    };

    Options m_options;         //!< The options.
    std::vector<Hook> m_hooks; //!< Connect().
};

} // namespace ns3

#endif /* REPS_PYTHON_EXPERIMENT_H */
