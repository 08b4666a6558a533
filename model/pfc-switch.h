/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PFC_SWITCH_H
#define REPS_PFC_SWITCH_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FabricSwitch;
class PfcPort;
class QueueDiscItem;

/**
 * \ingroup reps
 * The PFC (IEEE 802.1Qbb) ingress accounting of a switch, aggregated to its node next to the
 * FabricSwitch, which tells it of every packet it forwards (NotifyForward()).
 *
 * For every port i it counts the bytes of the lossless priority (the data band: every packet
 * but RoCEv2 control packets, EcnQueueDisc::IsControlPacket()) that arrived on i and are still
 * held in an egress queue of the switch; a packet leaves the count when its egress queue disc
 * dequeues or drops it (a packet tag carries the ingress port and the bytes counted). When the
 * count of port i passes the XOFF threshold, the switch sends a PAUSE frame for the lossless
 * priority out of port i (its PfcPort), and refreshes it every half pause time while the count
 * stays high; when the count falls to XonOffset below the threshold (or to zero), it sends XON.
 *
 * The threshold (ThresholdMode): STATIC, StaticThreshold bytes per port; DYNAMIC (the
 * shared-buffer rule of data-center switches), Alpha x (SharedBufferSize - bytes held by the
 * switch). Each port also has headroom for the bytes that still arrive after XOFF:
 * ComputeHeadroom() of its rate, propagation delay and MTU. The switch buffer is
 * SharedBufferSize plus the headroom of every port (GetBufferSize()); Setup() gives every
 * egress queue disc that capacity, so that no queue overflows before PFC stops its senders.
 */
class PfcSwitch : public Object
{
  public:
    /// How the XOFF threshold is set.
    enum ThresholdMode
    {
        STATIC,  //!< StaticThreshold bytes per port.
        DYNAMIC, //!< Alpha x the free shared buffer.
    };

    /// State and counters of the ingress side of one port.
    struct Ingress
    {
        Ptr<PfcPort> port;    //!< The PFC MAC control of the port.
        uint64_t bytes{0};    //!< Lossless bytes from this port held in the switch.
        uint64_t maxBytes{0}; //!< Largest value of bytes.
        uint64_t headroom{0}; //!< Headroom of the port (ComputeHeadroom()).
        bool xoff{false};     //!< The upstream device is paused.
        EventId refresh;      //!< Next refresh of the PAUSE.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcSwitch();
    ~PfcSwitch() override;

    /**
     * Attach to the ports of the switch: every port device must have a PfcPort and an
     * ns3::EcnQueueDisc (the data band of which PFC stops); aborts otherwise. Computes the
     * headroom of every port and gives every egress queue disc the capacity of the buffer.
     * Call after the last FabricSwitch::AddPort().
     * \param sw the switch
     */
    void Setup(Ptr<FabricSwitch> sw);

    /**
     * A packet is about to be handed to an egress queue: count it against its ingress port.
     * \param inPort the port it arrived on
     * \param item the packet, as it will be enqueued
     */
    void NotifyForward(uint32_t inPort, Ptr<QueueDiscItem> item);

    /**
     * The headroom a port needs: the bytes that can still arrive after its count passes XOFF.
     * The PAUSE frame waits for the frame on the wire (one frame of MTU + 2 bytes of PPP),
     * is serialized (64 bytes) and propagates (rate x delay); the upstream device then ends
     * the frame it is sending and the one already in its device queue (two frames), whose
     * last bit arrives one propagation delay later (rate x delay):
     * 2 x rate x delay / 8 + 3 x (MTU + 2) + 64 bytes.
     * \param rate the link rate
     * \param delay the propagation delay
     * \param mtu the device MTU (largest IPv4 packet)
     * \return the headroom in bytes
     */
    static uint64_t ComputeHeadroom(DataRate rate, Time delay, uint32_t mtu);

    /// \return the current XOFF threshold in bytes
    uint64_t GetXoffThreshold() const;
    /// \return SharedBufferSize plus the headroom of every port
    uint64_t GetBufferSize() const;
    /// \return lossless bytes held by the switch
    uint64_t GetHeldBytes() const;
    /// \return the largest value of GetHeldBytes()
    uint64_t GetMaxHeldBytes() const;
    /// \return the number of ports
    uint32_t GetNPorts() const;
    /**
     * \param port a port number
     * \return its state and counters
     */
    const Ingress& GetIngress(uint32_t port) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * An egress queue disc dequeued a packet or dropped it before enqueueing it.
     * \param item the packet
     */
    void Released(Ptr<const QueueDiscItem> item);
    /**
     * An egress queue disc dropped a packet before enqueueing it.
     * \param item the packet
     * \param reason why
     */
    void Dropped(Ptr<const QueueDiscItem> item, const char* reason);
    /**
     * Send XOFF or XON from a port when its count crosses a threshold.
     * \param port the port number
     */
    void Check(uint32_t port);
    /**
     * Refresh the PAUSE of a port while it is congested.
     * \param port the port number
     */
    void Refresh(uint32_t port);
    /**
     * \param in a port
     * \return the time between two PAUSE frames of a congested port
     */
    Time RefreshInterval(const Ingress& in) const;

    ThresholdMode m_mode;         //!< ThresholdMode attribute.
    uint64_t m_sharedBuffer;      //!< SharedBufferSize attribute.
    uint64_t m_staticThreshold;   //!< StaticThreshold attribute.
    double m_alpha;               //!< Alpha attribute.
    uint64_t m_xonOffset;         //!< XonOffset attribute.
    uint16_t m_quanta;            //!< PauseQuanta attribute.
    uint8_t m_priority;           //!< Lossless priority (from the PfcPorts).
    std::vector<Ingress> m_ports; //!< Per-port state.
    uint64_t m_held;              //!< Lossless bytes held.
    uint64_t m_maxHeld;           //!< Largest m_held.
    uint32_t m_nXoff;             //!< Ports in XOFF.
    uint32_t m_nodeId;            //!< Node id (for the packet tag).
};

} // namespace ns3

#endif /* REPS_PFC_SWITCH_H */
