/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_IDEAL_FCT_H
#define REPS_IDEAL_FCT_H

#include "ns3/clos-fabric.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The ideal completion time of a message: what it takes alone on an idle path, from the
 * moment it is posted to the moment its sender holds the ACK of its last packet.
 *
 * The message of B bytes leaves as n = max(1, ceil(B / payload)) packets, every one of
 * payload + header bytes on the wire but the last, which carries the rest. Over hops
 * 1 .. H of rates r_1 .. r_H and propagation delays d_1 .. d_H, store and forward, the last
 * packet reaches the receiver at
 *
 *   T_data = sum_h d_h + max over hops a <= b of [ sum_{h<a} s_1/r_h + (n-1) s_1/r_a
 *            + sum_{a<h<=b} s_1/r_h + sum_{h>=b} s_n/r_h ]
 *
 * (s_1 the size of a full packet, s_n that of the last: the longest way through the pipeline
 * of packets and hops; with one packet, or every hop at one rate and s_n = s_1, it is the
 * familiar "first packet over every hop, the others at the bottleneck rate"). Its ACK of A
 * bytes then comes back store and forward over the same hops: T_ack = sum_h (A/r_h + d_h).
 * The ideal FCT is T_data + T_ack. Sizes are on the wire (the per-link framing included).
 *
 * On a fabric of several planes the packets of a message may take different planes, so that
 * none waits behind another past the NIC, whose one transmit clock runs at the rate of its
 * first port (r_1): packet k leaves at the sum of the sizes before it over r_1 and crosses its
 * plane alone, and the last to arrive sets
 *
 *   T_data = sum_h d_h + max( (n-2) s_1/r_1 + sum_h s_1/r_h,  (n-1) s_1/r_1 + sum_h s_n/r_h )
 *
 * (the first term for n >= 2 only), which no spreading over the planes can beat.
 */
class IdealFct
{
  public:
    /// One hop of a path.
    struct Hop
    {
        DataRate rate; //!< Its rate.
        Time delay;    //!< Its one-way propagation delay.
    };

    /// How a message is cut into packets and acknowledged.
    struct Packets
    {
        uint32_t payload{4096}; //!< Payload bytes of a full packet (> 0).
        uint32_t header{0};     //!< Bytes of every packet besides its payload, on the wire.
        uint32_t ack{0};        //!< Bytes of the ACK on the wire.
    };

    /**
     * \param hops the path from the sender to the receiver (at least one hop, rates > 0)
     * \param bytes the message size (0 is taken as 1)
     * \param packets the packet sizes
     * \param planes the planes the packets may spread over (1: one path)
     * \return the ideal completion time
     */
    static Time Compute(const std::vector<Hop>& hops,
                        uint64_t bytes,
                        const Packets& packets,
                        uint32_t planes = 1);

    /**
     * The hops between two hosts of a fabric over the routed path (the first equal-cost choice
     * at every hop, as ClosFabric::GetBaseRtt), at the links' current rates.
     * \param fabric the fabric
     * \param src a host
     * \param dst another host
     * \return the hops (empty if dst cannot be reached)
     */
    static std::vector<Hop> PathOf(Ptr<const ClosFabric> fabric, uint32_t src, uint32_t dst);

    /// Bytes a point-to-point link adds to every packet (its PPP header).
    static constexpr uint32_t LINK_FRAMING = 2;
};

} // namespace ns3

#endif /* REPS_IDEAL_FCT_H */
