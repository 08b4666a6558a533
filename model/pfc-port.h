/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PFC_PORT_H
#define REPS_PFC_PORT_H

#include "pfc-header.h"

#include "ns3/attribute.h"
#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ns3
{

class Packet;
class PointToPointNetDevice;

/**
 * \ingroup reps
 * The PFC (IEEE 802.1Qbb) MAC control of one end of a point-to-point link, aggregated to its
 * PointToPointNetDevice: it sends PAUSE frames to the device at the other end, and honours
 * those it receives by stopping the lossless priority of its own transmit side.
 *
 * Sending. SendPause() puts a 64-byte PfcHeader frame on the link ahead of any queued data: it
 * starts as soon as the frame being serialized by the device (if any) ends, takes 64 bytes of
 * serialization at the device's DataRate, then the channel's propagation delay, and is handed
 * to the PfcPort of the other device. PointToPointNetDevice carries only IPv4 and IPv6 (PPP
 * protocol numbers), so the frame travels beside the device rather than through
 * PointToPointNetDevice::Send(); its timing is that of a frame on the link, but a data frame
 * that starts while a PAUSE frame is being serialized is not pushed back by it (64 bytes,
 * 1.28 ns at 400 Gb/s).
 *
 * Receiving. A PAUSE frame with non-zero quanta for priority p stops p for quanta x 512 bit
 * times (a new frame restarts the time, so a congested receiver refreshes it); quanta 0 (XON)
 * resumes p at once. Stopping the lossless priority (Priority attribute) stops the data band
 * of the device's root queue disc (EcnQueueDisc::SetDataBandPaused(); control packets still
 * go) and tells the callbacks added with AddStateCallback(), through which the RDMA stack of a
 * host stops its data packets. The frame already handed to the device still goes.
 *
 * Counters (GetCounters()) give PAUSE (XOFF) and XON frames sent and received, and the time
 * the lossless priority was stopped.
 */
class PfcPort : public Object
{
  public:
    /// Counters of one port.
    struct Counters
    {
        uint64_t pausesSent{0};      //!< PAUSE frames with non-zero quanta sent.
        uint64_t resumesSent{0};     //!< XON frames (quanta 0) sent.
        uint64_t pausesReceived{0};  //!< PAUSE frames with non-zero quanta received.
        uint64_t resumesReceived{0}; //!< XON frames received.
        uint64_t pauses{0};          //!< Times the lossless priority went from sending to stopped.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcPort();
    ~PfcPort() override;

    /**
     * TracedCallback signature of PauseSent and PauseReceived.
     * \param [in] priority the priority
     * \param [in] quanta its quanta (0: XON)
     */
    typedef void (*PauseTracedCallback)(uint8_t priority, uint16_t quanta);
    /**
     * TracedCallback signature of Resumed.
     * \param [in] priority the priority
     * \param [in] paused how long it was stopped
     */
    typedef void (*ResumedTracedCallback)(uint8_t priority, Time paused);

    /// Callback on a change of the lossless priority: true when it stops, false when it resumes.
    using StateCallback = Callback<void, bool>;

    /**
     * Send a PFC frame for one priority to the other end of the link.
     * \param priority the priority, 0 to 7
     * \param quanta the pause time in quanta (0: XON)
     */
    void SendPause(uint8_t priority, uint16_t quanta);

    /**
     * A PFC frame arrived from the other end of the link (called at the end of its
     * propagation).
     * \param frame the frame
     */
    void ReceivePause(Ptr<Packet> frame);

    /**
     * \param priority a priority, 0 to 7
     * \return whether the other end has stopped it
     */
    bool IsPaused(uint8_t priority) const;
    /// \return whether the lossless priority is stopped
    bool IsDataPaused() const;
    /// \return the lossless priority (Priority attribute)
    uint8_t GetPriority() const;
    /**
     * \param priority a priority, 0 to 7
     * \return how long it has been stopped since the start, the current pause included
     */
    Time GetPausedTime(uint8_t priority) const;
    /// \return the counters
    const Counters& GetCounters() const;

    /// \param cb called when the lossless priority stops (true) or resumes (false)
    void AddStateCallback(StateCallback cb);

    /// \return the device this port is aggregated to
    Ptr<PointToPointNetDevice> GetDevice() const;
    /// \return the rate of the device
    DataRate GetRate() const;
    /// \return the propagation delay of the device's channel
    Time GetDelay() const;

  protected:
    void NotifyNewAggregate() override;
    void DoDispose() override;

  private:
    /**
     * A frame started on the device's transmitter (PhyTxBegin).
     * \param packet the frame
     */
    void TxBegin(Ptr<const Packet> packet);
    /**
     * The PAUSE frame reaches the head of the transmitter: it starts now.
     * \param frame the frame
     * \param priority its priority
     * \param quanta its quanta
     */
    void StartPause(Ptr<Packet> frame, uint8_t priority, uint16_t quanta);
    /// \return the PfcPort at the other end of the link, or null
    Ptr<PfcPort> GetPeer();
    /**
     * Resume a priority (XON or end of the pause time).
     * \param priority the priority
     */
    void Resume(uint8_t priority);
    /**
     * Tell the queue disc and the callbacks that the lossless priority stopped or resumed.
     * \param paused true when it stopped
     */
    void NotifyDataState(bool paused);

    uint8_t m_priority;                  //!< Priority attribute.
    Ptr<PointToPointNetDevice> m_device; //!< The device.
    Ptr<PfcPort> m_peer;                 //!< The other end (lazy).
    /// \return when the wire is free: the end of the last frame or PAUSE frame started on it
    Time TxFreeAt() const;

    Ptr<const AttributeAccessor> m_rateAccessor; //!< The device's DataRate, read without a lookup.
    Time m_txBeginAt;                            //!< Start of the last data frame on the wire.
    uint32_t m_txBytes{0};                       //!< Its size.
    DataRate m_txRate;                           //!< The device's rate when it started.
    Time m_pauseFreeAt;                          //!< End of the last PAUSE frame on the wire.
    bool m_lastWasPause{true}; //!< The last frame on the wire was a PAUSE frame, or none was.
    std::array<bool, PfcHeader::N_PRIORITIES> m_paused{};      //!< Stopped priorities.
    std::array<Time, PfcHeader::N_PRIORITIES> m_pausedSince{}; //!< Start of each stop.
    std::array<Time, PfcHeader::N_PRIORITIES> m_pausedTotal{}; //!< Finished stops.
    std::array<EventId, PfcHeader::N_PRIORITIES> m_expiry{};   //!< End of each pause time.
    std::vector<StateCallback> m_stateCallbacks;               //!< AddStateCallback().
    Counters m_counters;                                       //!< Counters.

    TracedCallback<uint8_t, uint16_t> m_pauseSentTrace;     //!< PauseSent trace source.
    TracedCallback<uint8_t, uint16_t> m_pauseReceivedTrace; //!< PauseReceived trace source.
    TracedCallback<uint8_t, Time> m_resumedTrace;           //!< Resumed trace source.
};

} // namespace ns3

#endif /* REPS_PFC_PORT_H */
