/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FLOW_SPEC_H
#define REPS_FLOW_SPEC_H

#include "ns3/callback.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * One flow of a workload: a message of \c bytes from host \c src to host \c dst that starts at
 * \c start. Hosts are named by their index in the fabric's host list (0 to N-1), so a workload
 * is independent of the fabric and of the transport that will carry it.
 */
struct FlowSpec
{
    uint32_t id{0};         //!< Unique within a workload; also the row of the flow in the CSV.
    uint32_t src{0};        //!< Index of the sending host.
    uint32_t dst{0};        //!< Index of the receiving host.
    uint64_t bytes{0};      //!< Message size in bytes (at least 1).
    Time start{Seconds(0)}; //!< When the sender posts the message (absolute simulated time).
    std::string tag;        //!< What produced the flow ("permutation", "background", ...).
    uint32_t group{0};      //!< Collective or batch the flow belongs to (0: none).
    uint32_t step{0};       //!< Step of a collective (0 for plain flows).
    uint32_t subflow{0};    //!< Index among parallel flows of one peer pair (several QPs).
    bool background{false}; //!< Background traffic: carried on one fixed path (ECMP-pinned).
};

/**
 * \ingroup reps
 * What a launcher calls when a flow has finished: every byte of the message has reached the
 * receiver (for a queue pair: the message is acknowledged in full).
 */
typedef Callback<void> FlowCompletionCallback;

/**
 * \ingroup reps
 * Starts one flow now, over whatever transport the experiment binds (RDMA queue pairs, TCP
 * sockets, a fake delay in tests), and calls the completion callback exactly once, when the
 * flow has finished. Signature: `void Launch(const FlowSpec& flow, FlowCompletionCallback done)`.
 */
typedef Callback<void, const FlowSpec&, FlowCompletionCallback> FlowLauncher;

} // namespace ns3

#endif /* REPS_FLOW_SPEC_H */
