/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_EXPERIMENT_STREAMS_H
#define REPS_EXPERIMENT_STREAMS_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * The random-stream numbers of a fabric experiment, in one place. Every run of an experiment
 * gives each part of the simulation the same fixed streams, so that the same --RngRun draws the
 * same workload, hash salts and faults for every path selector, and another run number draws
 * others. Ranges must not overlap: each part takes as many streams as it has objects.
 */
struct ExperimentStreams
{
    static constexpr int64_t FABRIC = 100;      //!< Switch salts and per-packet choices.
    static constexpr int64_t WORKLOAD = 1000;   //!< Flows, sizes, arrival times, ring order.
    static constexpr int64_t RDMA = 2000;       //!< Path selectors and congestion controllers.
    static constexpr int64_t DEGRADED = 3000;   //!< Which uplinks are degraded.
    static constexpr int64_t FAILED = 3001;     //!< Which uplinks fail.
    static constexpr int64_t LOSS = 3200;       //!< Loss and bit errors of --failureFile.
    static constexpr uint32_t TCP_PAIRS = 3100; //!< Which hosts send TCP background flows.
};

} // namespace ns3

#endif /* REPS_EXPERIMENT_STREAMS_H */
