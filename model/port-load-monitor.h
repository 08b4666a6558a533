/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PORT_LOAD_MONITOR_H
#define REPS_PORT_LOAD_MONITOR_H

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;

/**
 * \ingroup reps
 * The load of the ports of a switch, as the load-aware port selectors see it (adaptive, DLB,
 * GLB, or one of your own): a plain part that a PortSelector holds and feeds from its
 * DoAddPort() hook. Every port is watched through its device's PhyTxBegin and PhyTxEnd trace
 * sources:
 * - the backlog (GetBacklogBytes()) is what the port still has to send: the bytes in its
 *   queue disc and in the device queue, plus the part of the packet on the wire not yet sent;
 * - the drain time (GetDrainTime()) is how long the port stays busy with that backlog, at the
 *   port's rate, measured from the transmissions (so a link degraded during a run counts at
 *   its reduced rate from its next packet on);
 * - the recent load (GetRecentLoad()) is an exponentially weighted moving average of the bytes
 *   transmitted, with time constant SetLoadTimeConstant(), as a fraction of the line rate (1 at
 *   a steady line rate).
 *
 * The monitor disconnects from the devices in Clear() (and when destroyed); the selector that
 * holds it calls Clear() from its DoDispose().
 */
class PortLoadMonitor
{
  public:
    PortLoadMonitor();
    ~PortLoadMonitor();
    /// The devices' trace sources point at this object: no copies.
    PortLoadMonitor(const PortLoadMonitor&) = delete;
    /// The devices' trace sources point at this object: no copies.
    PortLoadMonitor& operator=(const PortLoadMonitor&) = delete;

    /**
     * Watch a port (ports are numbered in the order of the calls).
     * \param device its device (a PointToPointNetDevice gives its queue and rate)
     * \param queueDisc its root queue disc (null if none)
     */
    void AddPort(Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc);

    /// Stop watching every port (disconnect from the devices) and forget them.
    void Clear();

    /// \return the number of ports watched
    uint32_t GetNPorts() const;

    /**
     * \param tau the time constant of the recent load (> 0)
     */
    void SetLoadTimeConstant(Time tau);
    /// \return the time constant of the recent load
    Time GetLoadTimeConstant() const;

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

  private:
    /// What is known of a port.
    struct PortState
    {
        Ptr<NetDevice> device;          //!< Its device.
        Ptr<QueueDisc> queueDisc;       //!< Root queue disc, or null.
        Ptr<Queue<Packet>> deviceQueue; //!< The device's queue, or null.
        double bitRate{0};              //!< Rate (bit/s), measured from transmissions.
        int64_t txStartNs{0};           //!< Start of the transmission on the wire.
        int64_t busyUntilNs{0};         //!< Its end.
        uint32_t txBytes{0};            //!< Its size.
        double ewmaBytes{0};            //!< Moving average of bytes sent (at ewmaNs).
        int64_t ewmaNs{0};              //!< When ewmaBytes was last brought up to date.
    };

    /**
     * \param port a port
     * \return the sink of its PhyTxBegin trace source
     */
    Callback<void, Ptr<const Packet>> TxBeginSink(uint32_t port);
    /**
     * \param port a port
     * \return the sink of its PhyTxEnd trace source
     */
    Callback<void, Ptr<const Packet>> TxEndSink(uint32_t port);
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

    Time m_tau;                     //!< Time constant of the recent load.
    std::vector<PortState> m_ports; //!< Ports.
};

} // namespace ns3

#endif /* REPS_PORT_LOAD_MONITOR_H */
