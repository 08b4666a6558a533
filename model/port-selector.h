/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PORT_SELECTOR_H
#define REPS_PORT_SELECTOR_H

#include "ns3/ipv4-header.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Base class of the switch-side load balancers: picks the egress port of a packet among the
 * equal-cost ports toward its destination, the switch-side mirror of PathSelector. A
 * FabricSwitch holds one (FabricSwitch::SetPortSelector(); ClosFabricHelper::SetPortSelector()
 * gives every switch its own), and subclasses are chosen by TypeId: HashPortSelector (the
 * default: the salted 5-tuple hash of ECMP switches), RandomPortSelector, AdaptivePortSelector,
 * DlbPortSelector and GlbPortSelector.
 *
 * The switch calls AddPort() for each of its ports (in port order), Pick() for every packet it
 * forwards, then OnForward() with the port chosen. Pick() takes a set of one port as is, asks
 * the subclass otherwise (DoPick(), the one hook a subclass must implement), and fires the
 * PortChosen trace. Optional hooks: DoAddPort() (watch a port, e.g. with a PortLoadMonitor),
 * DoForward() (rewrite fields of the IPv4 header of the packet leaving, as GLB does) and
 * AssignStreams().
 *
 * Random numbers come from RandomInteger() and LeastAtRandom(): one stream per selector,
 * which FabricSwitch::AssignStreams() sets, so that --RngRun changes the choices and the same
 * run number reproduces them.
 */
class PortSelector : public Object
{
  public:
    /// What the switch read of the packet being forwarded (its flow) and what it derived.
    struct Flow
    {
        uint32_t src{0};      //!< Source address.
        uint32_t dst{0};      //!< Destination address (a host of the fabric).
        uint8_t protocol{0};  //!< IP protocol.
        uint16_t srcPort{0};  //!< Source port: the entropy value of RoCEv2 (0 unless UDP/TCP).
        uint16_t dstPort{0};  //!< Destination port (0 unless UDP/TCP).
        uint32_t hash{0};     //!< The switch's salted hash of the 5-tuple.
        uint32_t hashPort{0}; //!< The port of the flow hash: ports[hash % n].
        uint32_t srcHost{0};  //!< Host number of the source (>= the host count: not a host).
        uint32_t dstHost{0};  //!< Host number of the destination.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PortSelector();
    ~PortSelector() override;

    /**
     * TracedCallback signature of the PortChosen trace source.
     * \param [in] port the egress port chosen
     * \param [in] candidates the number of equal-cost ports it was chosen from
     * \param [in] flow the packet's flow
     */
    typedef void (*PortChosenTracedCallback)(uint32_t port, uint32_t candidates, const Flow& flow);

    /**
     * A port was added to the switch: DoAddPort(). Ports are numbered 0, 1, ... in the order
     * of the calls, as the switch numbers them.
     * \param device its device
     * \param queueDisc its root queue disc (null if none)
     */
    void AddPort(Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc);

    /// \return the number of ports added
    uint32_t GetNPorts() const;

    /**
     * The egress port of a packet: the one port of a set of one, else DoPick(). Fires
     * PortChosen.
     * \param ports the equal-cost ports toward the packet's destination
     * \param n their number (at least 1)
     * \param flow the packet's flow (hashPort is one of ports)
     * \return one of ports
     */
    uint32_t Pick(const uint32_t* ports, uint32_t n, const Flow& flow);

    /**
     * The switch forwards a packet out of \p outPort (chosen by Pick() from \p ports):
     * DoForward(), which may rewrite fields of its IPv4 header.
     * \param ip the IPv4 header of the packet (TTL already decremented)
     * \param ports the equal-cost ports the port was chosen from
     * \param n their number
     * \param outPort the egress port
     * \param flow the packet's flow
     */
    void OnForward(Ipv4Header& ip,
                   const uint32_t* ports,
                   uint32_t n,
                   uint32_t outPort,
                   const Flow& flow);

    /**
     * Assign a fixed random variable stream number to the random variables used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned (1)
     */
    virtual int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

    /**
     * Choose the egress port of a packet among two or more equal-cost ports.
     * \param ports the equal-cost ports
     * \param n their number (at least 2)
     * \param flow the packet's flow
     * \return one of ports
     */
    virtual uint32_t DoPick(const uint32_t* ports, uint32_t n, const Flow& flow) = 0;

    /**
     * A port was added (see AddPort()). The default does nothing.
     * \param port its number
     * \param device its device
     * \param queueDisc its root queue disc (null if none)
     */
    virtual void DoAddPort(uint32_t port, Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc);

    /**
     * A packet leaves (see OnForward()). The default does nothing.
     * \param ip its IPv4 header, which the hook may rewrite
     * \param ports the equal-cost ports
     * \param n their number
     * \param outPort the egress port
     * \param flow the packet's flow
     */
    virtual void DoForward(Ipv4Header& ip,
                           const uint32_t* ports,
                           uint32_t n,
                           uint32_t outPort,
                           const Flow& flow);

    /**
     * \param max the largest value
     * \return an integer drawn uniformly from [0, max], from the selector's stream
     */
    uint32_t RandomInteger(uint32_t max);

    /**
     * The least of a score, ties broken uniformly at random (a draw only when there is a tie).
     * \param score the score of each candidate (at least one)
     * \return the index of the candidate chosen
     */
    uint32_t LeastAtRandom(const std::vector<int64_t>& score);

  private:
    Ptr<UniformRandomVariable> m_rng; //!< The selector's random variable.
    uint32_t m_nPorts;                //!< Ports added.
    std::vector<uint32_t> m_ties;     //!< Scratch space of LeastAtRandom().

    TracedCallback<uint32_t, uint32_t, const Flow&> m_portChosen; //!< PortChosen trace.
};

} // namespace ns3

#endif /* REPS_PORT_SELECTOR_H */
