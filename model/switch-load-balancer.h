/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_SWITCH_LOAD_BALANCER_H
#define REPS_SWITCH_LOAD_BALANCER_H

#include "dlb-flowlet-table.h"

#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;
class QueueDisc;

/**
 * \ingroup reps
 * The load-aware egress choices of a FabricSwitch: per-packet adaptive routing and dynamic
 * load balancing on flowlets (DLB). The switch hands it its ports (AddPort(), in the switch's
 * port order) and its random variable, and asks it to pick among equal-cost ports.
 *
 * Port load. Every port is watched through its device's PhyTxBegin/PhyTxEnd trace sources:
 * - the drain time (GetDrainTime()) is how long the port stays busy with what it holds now:
 *   the remainder of the packet on the wire plus the bytes in the device queue and in the
 *   queue disc, at the port's rate (measured from the transmissions, so a degraded link
 *   counts at its reduced rate);
 * - the recent load (GetRecentLoad()) is an exponentially weighted moving average of the
 *   bytes transmitted, with time constant LoadTimeConstant, as a fraction of the line rate.
 *
 * Adaptive (PickAdaptive()): the port with the shortest drain time; ties (idle ports, most
 * often) are broken uniformly at random.
 *
 * DLB (PickDlb()): a flowlet table (DlbFlowletTable, FlowletTableSize buckets) keyed by the
 * flow hash of the 5-tuple including the entropy value. A packet of a live flowlet keeps the
 * flowlet's port; a packet after a gap longer than FlowletTimeout starts a new flowlet on the
 * port of best quality (GetQuality(); among ports of equal quality the one free soonest, then
 * at random); a packet whose bucket holds a live
 * flowlet of another flow takes the flow-hash port (a collision).
 */
class SwitchLoadBalancer : public Object
{
  public:
    /// Counters of the DLB flowlet table.
    struct Counters
    {
        uint64_t flowlets{0};    //!< Flowlets started.
        uint64_t moves{0};       //!< Flowlets of a known flow started on another port.
        uint64_t collisions{0};  //!< Packets sent by the flow hash after a bucket collision.
        uint64_t glbFeedback{0}; //!< GLB: congestion-to-leaf entries received on packets.
    };

    /// GLB: the value of a 5-bit up-link field that carries nothing.
    static constexpr uint32_t GLB_NONE = 31;
    /// GLB: number of metric levels carried (3 bits).
    static constexpr uint32_t GLB_LEVELS = 8;

    /// GLB: the fields carried in the 16-bit IPv4 Identification of an unfragmented packet.
    struct GlbFields
    {
        uint32_t upLink{GLB_NONE}; //!< Forward: the source leaf's up-link (position in its set).
        uint32_t metric{0};        //!< Forward: the worst hop metric so far (0 to 7).
        uint32_t fbUpLink{
            GLB_NONE}; //!< Feedback: an up-link of the receiving leaf toward the sender's leaf.
        uint32_t fbMetric{0}; //!< Feedback: that path's metric (0 to 7).
    };

    /**
     * \param f the fields
     * \return the 16-bit value (up-link 5 bits, metric 3, feedback up-link 5, feedback metric 3)
     */
    static uint16_t EncodeGlb(const GlbFields& f);
    /**
     * \param id the 16-bit value
     * \return the fields
     */
    static GlbFields DecodeGlb(uint16_t id);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchLoadBalancer();
    ~SwitchLoadBalancer() override;

    /**
     * TracedCallback signature of the Flowlet trace source.
     * \param [in] hash the flow hash of the flowlet
     * \param [in] oldPort the port the flow had before (equal to newPort when new or unchanged;
     *             UINT32_MAX for a flow the bucket did not know)
     * \param [in] newPort the port of the new flowlet
     */
    typedef void (*FlowletTracedCallback)(uint32_t hash, uint32_t oldPort, uint32_t newPort);

    /**
     * Watch a port of the switch (ports are numbered in the order of the calls).
     * \param device its device
     * \param queueDisc its root queue disc (null if none)
     */
    void AddPort(Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc);
    /**
     * \param rng the switch's random variable, used to break ties
     */
    void SetRandom(Ptr<UniformRandomVariable> rng);

    /**
     * \param port a port
     * \return bytes the port still has to send: queue disc, device queue, rest of the packet
     *         on the wire
     */
    uint64_t GetBacklogBytes(uint32_t port) const;
    /**
     * \param port a port
     * \return how long the port stays busy with its backlog, at its rate
     */
    Time GetDrainTime(uint32_t port) const;
    /**
     * \param port a port
     * \return the moving average of the bytes transmitted, as a fraction of the line rate
     */
    double GetRecentLoad(uint32_t port) const;
    /**
     * The DLB quality of a port (0 is best): a level of QualityLevels, the weighted mix of the
     * quantised recent load and the quantised queueing delay (drain time over DelayRange).
     * \param port a port
     * \return the quality level
     */
    uint32_t GetQuality(uint32_t port) const;

    /**
     * Quantised mix of load and delay (the rule of GetQuality(), without a port).
     * \param load recent load (fraction of the line rate)
     * \param delay queueing delay as a fraction of DelayRange
     * \param levels number of levels (>= 2)
     * \param loadWeight weight of the load
     * \param delayWeight weight of the delay
     * \return the level, 0 to levels - 1
     */
    static uint32_t Quality(double load,
                            double delay,
                            uint32_t levels,
                            uint32_t loadWeight,
                            uint32_t delayWeight);

    /**
     * Per-packet adaptive choice.
     * \param ports the equal-cost ports
     * \param n their number (>= 1)
     * \return the port with the shortest drain time (ties at random)
     */
    uint32_t PickAdaptive(const uint32_t* ports, uint32_t n);
    /**
     * DLB choice.
     * \param ports the equal-cost ports
     * \param n their number (>= 1)
     * \param hash the packet's flow hash (5-tuple with the entropy value)
     * \param hashPort the flow-hash port (taken on a collision)
     * \return the port
     */
    uint32_t PickDlb(const uint32_t* ports, uint32_t n, uint32_t hash, uint32_t hashPort);

    /**
     * GLB: tell the switch where it is. Leaves run GLB on their up-links; other switches only
     * raise the metric carried by the packets they forward.
     * \param leaf this switch's leaf number, or UINT32_MAX when it is not a leaf
     * \param hostLeaf the leaf of every host
     * \param nLeaves the number of leaves
     */
    void SetGlbTopology(uint32_t leaf, const std::vector<uint32_t>& hostLeaf, uint32_t nLeaves);
    /**
     * GLB choice at a leaf for a packet going up: as PickDlb(), but a new flowlet takes the
     * up-link whose worst hop toward the destination leaf (max of the local metric and the
     * congestion-to-leaf entry) is least. Elsewhere, PickDlb().
     * \param ports the equal-cost ports
     * \param n their number
     * \param hash the packet's flow hash
     * \param hashPort the flow-hash port
     * \param srcHost the source host number
     * \param dstHost the destination host number
     * \return the port
     */
    uint32_t PickGlb(const uint32_t* ports,
                     uint32_t n,
                     uint32_t hash,
                     uint32_t hashPort,
                     uint32_t srcHost,
                     uint32_t dstHost);
    /**
     * GLB: update the fields of a packet being forwarded (and learn from them): a source leaf
     * writes its up-link, its metric and one feedback entry; other switches raise the metric to
     * their egress port's; the destination leaf stores the metric (congestion from the source
     * leaf) and the feedback entry (congestion to the source leaf).
     * \param ip the IPv4 header (Identification rewritten)
     * \param ports the equal-cost ports the egress port was chosen from
     * \param n their number
     * \param outPort the egress port
     * \param srcHost the source host number
     * \param dstHost the destination host number
     */
    void GlbForward(Ipv4Header& ip,
                    const uint32_t* ports,
                    uint32_t n,
                    uint32_t outPort,
                    uint32_t srcHost,
                    uint32_t dstHost);
    /**
     * \param port a port
     * \return its GLB metric: the quality scaled to GLB_LEVELS levels
     */
    uint32_t GetGlbMetric(uint32_t port) const;
    /**
     * \param dstLeaf a leaf
     * \param upLink an up-link of this leaf (position in its set)
     * \return the metric last fed back for that path, or -1 if none or older than GlbAgingTime
     */
    int32_t GetCongestionToLeaf(uint32_t dstLeaf, uint32_t upLink) const;
    /**
     * \param srcLeaf a leaf
     * \param upLink an up-link of that leaf (position in its set)
     * \return the metric last carried by a packet on that path, or -1 if none or stale
     */
    int32_t GetCongestionFromLeaf(uint32_t srcLeaf, uint32_t upLink) const;

    /// \return the DLB counters
    const Counters& GetCounters() const;
    /// \return the number of live flowlets now
    uint32_t GetLiveFlowlets() const;

  protected:
    void DoDispose() override;

  private:
    /// What is known of a port.
    struct PortState
    {
        Ptr<QueueDisc> queueDisc;       //!< Root queue disc, or null.
        Ptr<Queue<Packet>> deviceQueue; //!< The device's queue, or null.
        double bitRate{0};              //!< Rate (bit/s), measured from transmissions.
        int64_t txStartNs{0};           //!< Start of the transmission on the wire.
        int64_t busyUntilNs{0};         //!< Its end.
        uint32_t txBytes{0};            //!< Its size.
        double ewmaBytes{0};            //!< Moving average of bytes sent (at ewmaNs).
        int64_t ewmaNs{0};              //!< When ewmaBytes was last brought up to date.
    };

    /// A GLB metric and when it was learnt.
    struct GlbEntry
    {
        int64_t atNs{0};   //!< When.
        uint8_t metric{0}; //!< Metric, 0 to 7.
        bool valid{false}; //!< Ever learnt.
    };

    /**
     * \param table a GLB table
     * \param leaf a leaf
     * \param upLink an up-link
     * \return its entry's metric, or -1 if none or stale
     */
    int32_t ReadGlb(const std::vector<GlbEntry>& table, uint32_t leaf, uint32_t upLink) const;
    /**
     * The flowlet choice of DLB and GLB.
     * \param ports the equal-cost ports
     * \param n their number
     * \param hash the flow hash
     * \param hashPort the flow-hash port
     * \param dstLeaf GLB: the destination leaf; UINT32_MAX: DLB
     * \return the port
     */
    uint32_t PickFlowlet(const uint32_t* ports,
                         uint32_t n,
                         uint32_t hash,
                         uint32_t hashPort,
                         uint32_t dstLeaf);

    /**
     * PhyTxBegin of a port's device.
     * \param port the port
     * \param packet the packet
     */
    void TxBegin(uint32_t port, Ptr<const Packet> packet);
    /**
     * PhyTxEnd of a port's device.
     * \param port the port
     * \param packet the packet
     */
    void TxEnd(uint32_t port, Ptr<const Packet> packet);
    /**
     * The least of a score over the ports, ties at random.
     * \param ports the ports
     * \param n their number
     * \param score the score of each port (n entries)
     * \return the index of the chosen port in ports
     */
    uint32_t PickLeast(const uint32_t* ports, uint32_t n, const std::vector<int64_t>& score);
    /// \param size the FlowletTableSize attribute
    void SetTableSize(uint32_t size);
    /// \return the FlowletTableSize attribute
    uint32_t GetTableSize() const;

    Time m_flowletTimeout;            //!< FlowletTimeout attribute.
    Time m_loadTimeConstant;          //!< LoadTimeConstant attribute.
    uint32_t m_levels;                //!< QualityLevels attribute.
    uint32_t m_loadWeight;            //!< LoadWeight attribute.
    uint32_t m_queueWeight;           //!< QueueWeight attribute.
    Time m_delayRange;                //!< DelayRange attribute.
    DlbFlowletTable m_table;          //!< Flowlet table.
    std::vector<PortState> m_ports;   //!< Ports.
    Ptr<UniformRandomVariable> m_rng; //!< The switch's random variable.
    Time m_glbAging;                  //!< GlbAgingTime attribute.
    uint32_t m_glbLeaf;               //!< This leaf's number (UINT32_MAX: not a leaf).
    std::vector<uint32_t> m_hostLeaf; //!< Leaf of every host.
    std::vector<GlbEntry> m_toLeaf;   //!< [leaf * 31 + up-link]: congestion to a leaf.
    std::vector<GlbEntry> m_fromLeaf; //!< [leaf * 31 + up-link]: congestion from a leaf.
    std::vector<uint8_t> m_fbNext;    //!< Per leaf: next feedback entry (round robin).
    Counters m_counters;              //!< Counters.
    std::vector<int64_t> m_score;     //!< Scratch space of the choices.
    std::vector<uint32_t> m_ties;     //!< Scratch space of the choices.

    TracedCallback<uint32_t, uint32_t, uint32_t> m_flowletTrace; //!< Flowlet trace source.
};

} // namespace ns3

#endif /* REPS_SWITCH_LOAD_BALANCER_H */
