/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FABRIC_LINK_ERROR_MODEL_H
#define REPS_FABRIC_LINK_ERROR_MODEL_H

#include "ns3/callback.h"
#include "ns3/error-model.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup reps
 * The receive side of one direction of a fabric link: counts every packet that arrives over
 * the link, and loses all of them while the link is down.
 *
 * ClosPlane installs one on each PointToPointNetDevice of its links as its
 * ReceiveErrorModel, so that the counters of a device are those of the link direction that
 * ends at it. Sizes are those seen by PointToPointNetDevice::Receive(): the IPv4 packet plus
 * the 2-byte PPP header. A packet transmitted onto a down link still uses the sender's
 * transmitter, and is lost at the far end, as on a cut cable; a packet in flight when the
 * link goes down is lost as well. While the link is up, an optional loss model (any ns-3
 * ErrorModel, e.g. a RateErrorModel per packet for random loss or per bit for a bit-error
 * rate) loses the packets it corrupts, counted apart.
 */
class FabricLinkErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FabricLinkErrorModel();
    ~FabricLinkErrorModel() override;

    /**
     * TracedCallback signature of the Drop trace source.
     * \param [in] packet the packet lost on the down link (with its PPP header)
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet);

    /// \param down whether the link direction loses every packet from now on
    void SetDown(bool down);
    /// \return whether the link direction is down
    bool IsDown() const;
    /**
     * A packet arriving while the direction is up: whether the direction fails now (the
     * packet is then the first lost while it is down). Signature: bool (Ptr<const Packet>).
     */
    typedef Callback<bool, Ptr<const Packet>> FailOnTrafficCallback;
    /**
     * \param cb consulted for every packet that arrives while the direction is up, before
     *        the loss model; when it returns true the direction goes down (null: never)
     */
    void SetFailOnTraffic(FailOnTrafficCallback cb);

    /**
     * \param loss an ErrorModel consulted for every packet arriving while the link is up: a
     *        packet it corrupts is lost (null: none)
     */
    void SetLossModel(Ptr<ErrorModel> loss);
    /// \return the loss model (null: none)
    Ptr<ErrorModel> GetLossModel() const;
    /// \return packets the loss model lost
    uint64_t GetLostPackets() const;
    /// \return bytes the loss model lost
    uint64_t GetLostBytes() const;

    /// \return packets that arrived while the link was up
    uint64_t GetRxPackets() const;
    /// \return bytes that arrived while the link was up
    uint64_t GetRxBytes() const;
    /// \return packets lost because the link was down
    uint64_t GetDroppedPackets() const;
    /// \return bytes lost because the link was down
    uint64_t GetDroppedBytes() const;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    bool m_down;                                   //!< Whether every packet is lost.
    FailOnTrafficCallback m_failOnTraffic;         //!< Fails the direction (may be null).
    uint64_t m_rxPackets;                          //!< Packets delivered.
    uint64_t m_rxBytes;                            //!< Bytes delivered.
    uint64_t m_droppedPackets;                     //!< Packets lost.
    uint64_t m_droppedBytes;                       //!< Bytes lost.
    Ptr<ErrorModel> m_loss;                        //!< Loss model while up (may be null).
    uint64_t m_lostPackets;                        //!< Packets the loss model lost.
    uint64_t m_lostBytes;                          //!< Bytes the loss model lost.
    TracedCallback<Ptr<const Packet>> m_lossTrace; //!< Loss trace source.
    TracedCallback<Ptr<const Packet>> m_dropTrace; //!< Drop trace source.
};

} // namespace ns3

#endif /* REPS_FABRIC_LINK_ERROR_MODEL_H */
