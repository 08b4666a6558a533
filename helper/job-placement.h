/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_JOB_PLACEMENT_H
#define REPS_JOB_PLACEMENT_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Splits the hosts of a fabric between concurrent jobs: disjoint host sets that together cover
 * every host, of sizes N / J or N / J + 1 (the larger ones first). A plain type with no
 * simulator, so that a researcher can place jobs (and tests can check placements) without a
 * fabric.
 */
class JobPlacement
{
  public:
    /// How hosts are dealt to jobs.
    enum class Layout
    {
        CONTIGUOUS,  //!< Job j gets a block of consecutive hosts (whole leaves when they align).
        INTERLEAVED, //!< Host i goes to job i mod J (every job spans every leaf).
    };

    /**
     * \param name "contiguous" or "interleaved".
     * \param [out] layout the layout.
     * \return whether the name is known.
     */
    static bool LayoutFromName(const std::string& name, Layout& layout);

    /**
     * \param hosts number of hosts N.
     * \param jobs number of jobs J, 1 to N / 2 (every job needs 2 hosts).
     * \param layout how hosts are dealt.
     * \return the hosts of every job, each in increasing order.
     */
    static std::vector<std::vector<uint32_t>> Split(uint32_t hosts, uint32_t jobs, Layout layout);
};

} // namespace ns3

#endif /* REPS_JOB_PLACEMENT_H */
