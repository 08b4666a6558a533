/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_DISTRIBUTED_RUN_H
#define REPS_DISTRIBUTED_RUN_H

#include "run-result.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * An experiment on ns-3's MPI engine (ns3::DistributedSimulatorImpl): every rank builds the
 * same fabric and flows, runs the flows of its own hosts, and rank 0 gathers what the ranks
 * measured into one RunResult, the one a sequential run gives.
 *
 * The engine exists only in an ns-3 tree configured with --enable-mpi (NS3_MPI defined);
 * elsewhere IsAvailable() is false and Enable() refuses more than one rank. A rank's part of
 * a result travels as a flat array of 64-bit words (Pack(), Merge()), so the merge can be
 * tested without MPI.
 */
class DistributedRun
{
  public:
    /// \return whether the build has ns-3's MPI module (in-tree, --enable-mpi).
    static bool IsAvailable();

    /**
     * Start the MPI engine for this many ranks (once; later calls only check the count).
     * \param systems the ranks the fabric is cut into (1: nothing to do, unless mpirun
     * started more processes).
     * \return "" or why not: no MPI in the build, or mpirun started another number of ranks.
     */
    static std::string Enable(uint32_t systems);

    /// \return whether the MPI engine runs (Enable() with more than one rank).
    static bool IsEnabled();

    /// \return this process's rank (0 without MPI).
    static uint32_t GetRank();

    /// \return the number of ranks (1 without MPI).
    static uint32_t GetSize();

    /// Stop the MPI engine (MPI_Finalize), when it runs.
    static void Disable();

    /// After Simulator::Destroy(): make the MPI engine ready for another run in this process.
    static void Restart();

    /**
     * \return the number of processes the MPI launcher (mpirun) says it started, read from
     * its environment (1 when not started by a launcher).
     */
    static uint32_t GetLauncherSize();

    /**
     * Collective over all ranks: every rank gives its part, rank 0 receives all of them.
     * \param part this rank's part.
     * \return on rank 0, the parts of every rank in rank order; elsewhere, empty.
     */
    static std::vector<std::vector<uint64_t>> GatherToRoot(const std::vector<uint64_t>& part);

    /**
     * \param r what one rank measured: its flows' completions and its nodes' counters.
     * \return the same as a flat array, for Merge().
     */
    static std::vector<uint64_t> Pack(const RunResult& r);

    /**
     * Add one rank's part to a result: counters are summed, maxima are kept, link bytes are
     * summed link by link, the planes' packets and bytes plane by plane (their shares
     * recomputed), simTime and wallSeconds are the maxima, and the flows that completed on that
     * rank are added to \p completions.
     * \param into the result being merged (its link list and tiers are those of every rank).
     * \param part a rank's Pack().
     * \param [out] completions flow id to completion time.
     * \return "" or why the part does not fit \p into.
     */
    static std::string Merge(RunResult& into,
                             const std::vector<uint64_t>& part,
                             std::map<uint32_t, Time>& completions);

    /**
     * Clear the counters that Merge() adds up (before merging every rank's part into it).
     * \param r a result.
     */
    static void ClearCounters(RunResult& r);

    /**
     * Add a rank's per-plane packets and bytes to a result and recompute the shares.
     * \param into the result being merged.
     * \param part a rank's Pack().
     * \param at where the planes' words start in \p part.
     */
    static void MergePlanes(RunResult& into, const std::vector<uint64_t>& part, size_t at);

    /// The extra fields of RunResult summed over ranks by Merge(), in packing order.
    static const std::vector<std::string>& SummedExtras();
};

} // namespace ns3

#endif /* REPS_DISTRIBUTED_RUN_H */
