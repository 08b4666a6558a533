/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_TCP_BACKGROUND_H
#define REPS_TCP_BACKGROUND_H

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * What the ns-3 TCP background flows of a run delivered (TcpBackground). They are not part of
 * the RDMA flow statistics.
 */
struct TcpBackgroundResult
{
    uint32_t flows{0};         //!< TCP flows (0: no TCP background).
    uint32_t completed{0};     //!< Sized flows whose sink received every byte.
    uint64_t bytesPerFlow{0};  //!< Bytes per flow (0: unlimited, until the run ends).
    uint64_t bytes{0};         //!< Bytes the sinks received, all flows together.
    double goodputGbps{0};     //!< bytes over the time from the flows' start to the run's end.
    std::vector<double> fctUs; //!< Completion times of the completed flows (us).
};

class ClosFabric;

/**
 * \ingroup reps
 * ns-3 TCP flows sharing a fabric with the RDMA traffic: one BulkSendApplication per chosen
 * sending host, to a PacketSink on its destination host, over ns-3's own TCP (the hosts keep
 * ns-3's internet stack; the switches hash the TCP 5-tuple like any other).
 *
 * Each flow has its own sink port, so that every sink counts the bytes of exactly one flow. A
 * sized flow completes when its sink has received all its bytes; its completion time runs from
 * the start of the flows. Only the sinks' receive trace is used (one callback per delivered
 * segment).
 *
 * The object must outlive the simulation (it is the sinks' trace target).
 */
class TcpBackground
{
  public:
    TcpBackground();

    /**
     * Choose the sending hosts and their destinations: round(fraction * nHosts) hosts (at
     * least one when fraction > 0), without repetition, each with a uniformly chosen other
     * host. The choice depends on the run number and \p stream only.
     * \param nHosts hosts of the fabric (at least 2).
     * \param fraction share of hosts that send (0 to 1).
     * \param stream the random stream of the choice.
     * \return (source, destination) host indices, one per flow.
     */
    static std::vector<std::pair<uint32_t, uint32_t>> PickPairs(uint32_t nHosts,
                                                                double fraction,
                                                                int64_t stream);

    /**
     * Install the flows (call before Simulator::Run).
     * \param fabric the fabric (host addresses).
     * \param pairs (source, destination) host indices, one per flow.
     * \param bytes bytes per flow (0: send until the simulation ends).
     * \param start when every flow starts.
     * \param congestionControl TcpCongestionOps TypeId of the TCP of the flows' hosts, senders
     * and receivers (an invalid TypeId: ns-3's default of TcpL4Protocol::SocketType).
     */
    void Install(Ptr<ClosFabric> fabric,
                 const std::vector<std::pair<uint32_t, uint32_t>>& pairs,
                 uint64_t bytes,
                 Time start,
                 TypeId congestionControl = TypeId());

    /**
     * \param cb called once, when every sized flow has delivered all its bytes (never for
     * unlimited flows).
     */
    void SetAllCompletedCallback(Callback<void> cb);

    /// \return whether every flow has delivered all its bytes (false for unlimited flows).
    bool IsAllCompleted() const;

    /// \return bytes the sinks received so far.
    uint64_t GetRxBytes() const;

    /**
     * \param end the end of the measurement (normally the end of the run).
     * \return what the flows delivered.
     */
    TcpBackgroundResult GetResult(Time end) const;

  private:
    /**
     * Receive trace of one sink.
     * \param self the object.
     * \param flow the flow.
     * \param packet the received data.
     * \param from the sender.
     */
    static void Rx(TcpBackground* self,
                   uint32_t flow,
                   Ptr<const Packet> packet,
                   const Address& from);

    /// One flow.
    struct Flow
    {
        uint32_t src{0};        //!< Sending host.
        uint32_t dst{0};        //!< Receiving host.
        uint64_t rxBytes{0};    //!< Bytes delivered.
        Time done{Seconds(-1)}; //!< When the last byte arrived (negative: not yet).
    };

    std::vector<Flow> m_flows;     //!< The flows.
    uint64_t m_bytes;              //!< Bytes per flow (0: unlimited).
    Time m_start;                  //!< Start of every flow.
    uint32_t m_completed;          //!< Flows that delivered all their bytes.
    Callback<void> m_allCompleted; //!< Called when all flows completed.
};

} // namespace ns3

#endif /* REPS_TCP_BACKGROUND_H */
