/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FABRIC_EXPERIMENT_H
#define REPS_FABRIC_EXPERIMENT_H

#include "experiment-options.h"
#include "experiment-report.h"
#include "path-selector-names.h"
#include "run-result.h"

#include "ns3/callback.h"
#include "ns3/ptr.h"

#include <ostream>
#include <vector>

namespace ns3
{

class ClosFabric;
class RdmaQueuePair;

/**
 * \ingroup reps
 * One load-balancing experiment on a Clos fabric, run once per path selector with everything
 * else equal: the fabric (2 or 3 tiers, rates, delays, ECN queues, trimming), its faults
 * (degraded and failed leaf uplinks), RDMA queue pairs with the chosen congestion control, and
 * a workload (permutation, tornado, incast, all-to-all, ring all-reduce, or Poisson flows with
 * web-search or Hadoop sizes, plus optional ECMP-pinned RDMA background flows and ns-3 TCP
 * background flows).
 *
 * The public fields are the options (ExperimentOptions): an example changes the defaults it
 * wants, calls AddOptions() (which lists every option, with its unit, in --help), parses its
 * command line, then Check(), and Run() per path selector (or RunAll()). A run is an
 * ExperimentRun, in named stages.
 *
 * Every run uses the same workload and the same random streams (they depend on --RngRun only;
 * the stream numbers are named in experiment-streams.h), so the runs differ only by their path
 * selector.
 */
class FabricExperiment : public ExperimentOptions
{
  public:
    /**
     * Build the fabric, run the workload with one path selector, and tear the simulation
     * down.
     * \param lb the path selector.
     * \return what was measured.
     */
    RunResult Run(const PathSelectorNames::Choice& lb);

    /**
     * Run every path selector of --lb, print the setup and the side-by-side table to \p os,
     * and write --json and --csv (exits with a message when a file cannot be written).
     * \param os where to print.
     * \param report receives the configuration and one result per path selector.
     */
    void RunAll(std::ostream& os, ExperimentReport& report);

    /**
     * Write the report to --json and --csv if they are set; exit(1) with a message if a file
     * cannot be written.
     * \param report the report.
     */
    void WriteOutputs(const ExperimentReport& report) const;

    /**
     * Called in every run once the fabric, the RDMA stacks and the queue pairs of the
     * workload are built, before the simulation starts: the place for a research script to
     * connect its own trace sinks or change attributes of the objects built.
     */
    typedef Callback<void, Ptr<ClosFabric>, const std::vector<Ptr<RdmaQueuePair>>&> BuiltCallback;

    /// \param cb called in every run after building (a null callback: none)
    void SetBuiltCallback(BuiltCallback cb);

    /// \return the callback set by SetBuiltCallback()
    const BuiltCallback& GetBuiltCallback() const;

  private:
    BuiltCallback m_built; //!< SetBuiltCallback().
};

} // namespace ns3

#endif /* REPS_FABRIC_EXPERIMENT_H */
