/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-queue-pair.h"

#include "rccc-pull-pacer.h"
#include "rdma-stack.h"
#include "roce-ack-header.h"
#include "roce-bth-header.h"
#include "roce-credit-request-header.h"
#include "roce-probe-header.h"
#include "roce-pull-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-route.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
constexpr uint32_t kMaxMtu = 65000;              //!< Largest payload of one packet.
constexpr uint32_t kCnpPayload = 16;             //!< Reserved bytes of a CNP (RoCEv2 annex).
constexpr uint32_t kMaxBackoff = 6;              //!< RTO backoff stops at 2^6 = 64 x.
constexpr uint32_t kMaxAckEveryBytes = 1u << 30; //!< Largest AckEveryBytes.
} // namespace

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("Mtu",
                          "Payload bytes of a full packet (1 to 65000; the IPv4 MTU of the "
                          "hosts' and switches' devices must hold Mtu + 44 bytes). 0 is accepted "
                          "here and rejected when the queue pair connects, with a message.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaQueuePair::m_mtu),
                          MakeUintegerChecker<uint32_t>(0, kMaxMtu))
            .AddAttribute("ReceiveWindow",
                          "PSNs above the next expected one that the receiver can place out of "
                          "order (a power of two, 128 to 4194304); the sender never has more "
                          "packets outstanding.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaQueuePair::m_receiveWindow),
                          MakeUintegerChecker<uint32_t>(0, 1u << 22))
            .AddAttribute("BaseRtt",
                          "Unloaded round-trip time of the connection (set by the helper or the "
                          "fabric); gives the BDP and the default Rto (> 0).",
                          TimeValue(MicroSeconds(8)),
                          MakeTimeAccessor(&RdmaQueuePair::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Rto",
                          "Retransmission timeout: a packet unacknowledged this long after it "
                          "was sent is declared lost. 0 means 5 x BaseRtt. Never below MinRto.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaQueuePair::m_rtoAttr),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinRto",
                          "Lower bound of the retransmission timeout (0: none). The REPS "
                          "evaluation's rule is the fabric's largest unloaded RTT plus the drain "
                          "time of four full switch queues (at most 10 s).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaQueuePair::m_minRto),
                          MakeTimeChecker(Time(0), Seconds(10)))
            .AddAttribute("RtoBackoff",
                          "Double the retransmission timeout after every timeout, up to 64 x, "
                          "until an ACK advances the cumulative point (false: a fixed timeout, "
                          "as in the REPS evaluation).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaQueuePair::m_rtoBackoff),
                          MakeBooleanChecker())
            .AddAttribute("AckEvery",
                          "ACK coalescing: the receiver acknowledges every n-th in-order data "
                          "packet (1 to 65536); out-of-order, duplicate, CE-marked, "
                          "last-of-message and AckReq packets are acknowledged at once.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaQueuePair::m_ackEvery),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("AckEveryBytes",
                          "ACK coalescing by bytes: the receiver also acknowledges as soon as "
                          "this many payload bytes arrived in order since its last ACK, whichever "
                          "of AckEvery and AckEveryBytes comes first (0: off; at most 2^30). The "
                          "ACK echoes the EV and CE bit of the packet that triggered it.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaQueuePair::m_ackEveryBytes),
                          MakeUintegerChecker<uint32_t>(0, kMaxAckEveryBytes))
            .AddAttribute("AckDelay",
                          "ACK coalescing timer: when a data packet is left unacknowledged, an "
                          "ACK of the last such packet leaves at the latest this long after it "
                          "(0: off; at most 1 s).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaQueuePair::m_ackDelay),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("GoBackN",
                          "Classic RoCEv2 go-back-N instead of selective repeat: the receiver "
                          "drops out-of-order packets and the sender resends everything from the "
                          "first missing packet.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaQueuePair::m_goBackN),
                          MakeBooleanChecker())
            .AddAttribute("Trimming",
                          "Whether the switches trim packets instead of dropping them (told to "
                          "the path selector: REPS then treats every timeout as a failure).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaQueuePair::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute("InitialPsn",
                          "PSN of the first packet each end sends, and so the first PSN each end "
                          "expects: both ends of a connection use the same value (RdmaHelper "
                          "sets both from its queue pair attributes). 0 to 16777215.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaQueuePair::m_initialPsn),
                          MakeUintegerChecker<uint32_t>(0, RoceBthHeader::MAX_PSN))
            .AddAttribute("ReceiverCredits",
                          "Also send on receiver credits (RCCC), under the congestion "
                          "controller's window: speculative credit at the start, then the "
                          "credit the receiver's pull pacer grants (RcccSender, RcccPullPacer). "
                          "A controller that needs credits (RcccCongestionControl) turns them on "
                          "whatever this says. Both ends of a connection should agree "
                          "(RdmaHelper gives them the same attributes).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaQueuePair::m_receiverCredits),
                          MakeBooleanChecker())
            .AddTraceSource("PacketSent",
                            "A data packet was sent: PSN, entropy value, retransmission.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_packetSentTrace),
                            "ns3::RdmaQueuePair::PacketSentTracedCallback")
            .AddTraceSource("AckReceived",
                            "An ACK was received: PSN of the packet it answers, echoed entropy "
                            "value and CE bit, RTT sample.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_ackReceivedTrace),
                            "ns3::RdmaQueuePair::AckTracedCallback")
            .AddTraceSource("NackReceived",
                            "A NACK was received: PSN, echoed entropy value, reason.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_nackReceivedTrace),
                            "ns3::RdmaQueuePair::NackTracedCallback")
            .AddTraceSource("PacketLost",
                            "The retransmission timer declared a packet lost: PSN, entropy "
                            "value.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_lossTrace),
                            "ns3::RdmaQueuePair::LossTracedCallback")
            .AddTraceSource("Timeout",
                            "The retransmission timer declared packets lost: how many.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_timeoutTrace),
                            "ns3::RdmaQueuePair::TimeoutTracedCallback")
            .AddTraceSource("MessageComplete",
                            "Every packet of a message was acknowledged: id, size, FCT.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_messageCompleteTrace),
                            "ns3::RdmaQueuePair::MessageTracedCallback")
            .AddTraceSource("MessageReceived",
                            "Every byte of a message arrived: id, size, time since its first "
                            "packet arrived.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_messageReceivedTrace),
                            "ns3::RdmaQueuePair::MessageTracedCallback")
            .AddTraceSource("DataReceived",
                            "A data packet arrived: PSN, entropy value, CE, duplicate.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_dataReceivedTrace),
                            "ns3::RdmaQueuePair::DataReceivedTracedCallback")
            .AddTraceSource("AckSent",
                            "The receiver sent an ACK or NACK: PSN, echoed entropy value, echoed "
                            "CE, NACK.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_ackSentTrace),
                            "ns3::RdmaQueuePair::AckSentTracedCallback")
            .AddTraceSource("CnpReceived",
                            "A CNP arrived.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_cnpReceivedTrace),
                            "ns3::TracedCallback::Void");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
    : m_mtu(4096),
      m_receiveWindow(4096),
      m_baseRtt(MicroSeconds(8)),
      m_rtoAttr(0),
      m_minRto(0),
      m_rtoBackoff(false),
      m_ackEvery(1),
      m_ackEveryBytes(0),
      m_ackDelay(0),
      m_goBackN(false),
      m_trimming(false),
      m_initialPsn(0),
      m_receiverCredits(false),
      m_qpn(0),
      m_remoteQpn(0),
      m_connected(false),
      m_backoff(0),
      m_backlogWire(0),
      m_pullEv(0),
      m_segIndex(0),
      m_nextMessageId(0),
      m_probeSequence(0),
      m_rxMessageBytes(0),
      m_rxMessageId(0),
      m_rxMessageStarted(false),
      m_unacked(0),
      m_unackedBytes(0),
      m_pendingPsn(0),
      m_pendingEv(0),
      m_cnpSent(false)
{
    NS_LOG_FUNCTION(this);
}

RdmaQueuePair::~RdmaQueuePair()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaQueuePair::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rtoEvent.Cancel();
    m_paceEvent.Cancel();
    m_ackTimer.Cancel();
    m_rtsTimer.Cancel();
    m_credit = nullptr;
    m_stack = nullptr;
    if (m_ps)
    {
        m_ps->SetProbeCallback(PathSelector::ProbeCallback());
    }
    m_ps = nullptr;
    m_cc = nullptr;
    m_route = nullptr;
    m_ipId = nullptr;
    m_messages.clear();
    m_onReceive = MessageCallback();
    Object::DoDispose();
}

std::string
RdmaQueuePair::Validate() const
{
    std::ostringstream os;
    if (m_mtu == 0 || m_mtu > kMaxMtu)
    {
        os << "RdmaQueuePair: Mtu (" << m_mtu << ") must be in [1, " << kMaxMtu << "] bytes";
    }
    else if (m_receiveWindow < 128 || (m_receiveWindow & (m_receiveWindow - 1)) != 0)
    {
        os << "RdmaQueuePair: ReceiveWindow (" << m_receiveWindow
           << ") must be a power of two in [128, 4194304] packets";
    }
    else if (!m_baseRtt.IsStrictlyPositive())
    {
        os << "RdmaQueuePair: BaseRtt (" << m_baseRtt.As(Time::US) << ") must be > 0";
    }
    return os.str();
}

void
RdmaQueuePair::Connect(Ptr<RdmaStack> stack,
                       uint32_t localQpn,
                       Ipv4Address local,
                       Ipv4Address remote,
                       uint32_t remoteQpn,
                       Ptr<PathSelector> pathSelector,
                       Ptr<RdmaCongestionControl> cc)
{
    NS_LOG_FUNCTION(this << localQpn << local << remote << remoteQpn);
    std::string error = Validate();
    NS_ABORT_MSG_IF(!error.empty(), error);
    NS_ABORT_MSG_IF(!pathSelector, "RdmaQueuePair: a path selector is required");
    NS_ABORT_MSG_IF(!cc, "RdmaQueuePair: a congestion controller is required");
    NS_ABORT_MSG_IF(localQpn == 0 || localQpn > RoceBthHeader::MAX_QPN || remoteQpn == 0 ||
                        remoteQpn > RoceBthHeader::MAX_QPN,
                    "RdmaQueuePair: QPNs must be in [1, 16777215]");
    NS_ABORT_MSG_IF(m_connected, "RdmaQueuePair: already connected");
    const bool credits = m_receiverCredits || cc->UsesReceiverCredits();
    const uint32_t needed = m_mtu + RoceBthHeader::SIZE + RoceBthHeader::ICRC_SIZE + 8 + 20 +
                            (credits ? RoceCreditRequestHeader::SIZE : 0);
    NS_ABORT_MSG_IF(stack->GetIpMtu() < needed,
                    "RdmaQueuePair: Mtu (" << m_mtu << ") needs an IPv4 MTU of at least " << needed
                                           << " bytes on the NIC (it has " << stack->GetIpMtu()
                                           << "); raise the devices' Mtu or lower Mtu");
    m_stack = stack;
    m_qpn = localQpn;
    m_remoteQpn = remoteQpn;
    m_local = local;
    m_remote = remote;
    m_ps = pathSelector;
    m_ps->SetProbeCallback(MakeCallback(&RdmaQueuePair::SendProbe, this));
    m_cc = cc;
    m_lineRate = stack->GetLineRate(remote);
    m_scaleUpPeer = stack->IsScaleUpPeer(remote);
    m_ipId = nullptr;
    m_baseRto = std::max(m_rtoAttr.IsStrictlyPositive() ? m_rtoAttr : 5 * m_baseRtt, m_minRto);
    m_rto = m_baseRto;
    m_backoff = 0;

    const uint32_t wirePacket = needed + 2;
    RdmaCcContext ccContext;
    ccContext.lineRate = m_lineRate;
    ccContext.mtu = m_mtu;
    ccContext.packetBytes = needed;
    ccContext.baseRtt = m_baseRtt;
    ccContext.trimming = m_trimming;
    ccContext.receiverCredits = credits;
    double bdpPackets = m_lineRate.GetBitRate() * m_baseRtt.GetSeconds() / 8.0 / wirePacket;
    ccContext.bdpBytes = std::max<uint64_t>(m_mtu, static_cast<uint64_t>(bdpPackets * m_mtu));
    m_cc->Init(ccContext);
    if (credits)
    {
        // Made here, before a script assigns random streams: the NIC's pacer draws its control
        // intervals from the stream RdmaHelper::AssignStreams() gives it.
        m_credit = CreateObject<RcccSender>();
        m_credit->Init(ccContext, m_baseRto);
        stack->GetPullPacer();
    }

    // The path selector starts when the first packet leaves, not here: a research script
    // creates its queue pairs and then assigns random streams (RdmaHelper::AssignStreams), and
    // a selector that draws at Start() (ECMP's EV, MP's set) must draw from the assigned stream.
    m_psContext.baseRtt = m_baseRtt;
    m_psContext.rto = m_baseRto;
    m_psContext.bdpPackets = std::max<uint32_t>(1, static_cast<uint32_t>(bdpPackets + 0.5));
    m_psContext.trimming = m_trimming;
    m_psContext.planes = stack->GetNPlanes();
    // Its attributes are checked now, so that a wrong one stops the script where the queue
    // pair is connected rather than when its first packet leaves.
    error = m_ps->Validate(m_psContext);
    NS_ABORT_MSG_IF(!error.empty(), error);

    m_txWindow.Reset(m_initialPsn, m_receiveWindow);
    m_rxWindow.Reset(m_initialPsn, m_receiveWindow, m_goBackN);
    m_connected = true;
}

uint64_t
RdmaQueuePair::PostSend(uint64_t size, MessageCallback onComplete)
{
    NS_LOG_FUNCTION(this << size);
    NS_ABORT_MSG_IF(!m_connected, "RdmaQueuePair: PostSend() before the queue pair is connected");
    Message m;
    m.id = m_nextMessageId++;
    m.size = size;
    m.unsegmented = size;
    m.posted = Simulator::Now();
    m.onComplete = onComplete;
    m_messages.push_back(std::move(m));
    // A message of 0 bytes is one empty packet.
    const uint64_t packets = size == 0 ? 1 : (size + m_mtu - 1) / m_mtu;
    m_backlogWire += size + packets * PacketOverhead();
    NotifyStack();
    if (m_credit && m_txWindow.GetBytesInFlight() == 0 && IsStuckOnCredit())
    {
        // The receiver has not heard of this message: an RTS tells it, if no PULL comes.
        m_lastRts = Simulator::Now();
        ArmRtsTimer();
    }
    return m_messages.back().id;
}

void
RdmaQueuePair::SetReceiveCallback(MessageCallback cb)
{
    NS_LOG_FUNCTION(this);
    m_onReceive = cb;
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RdmaQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

Ipv4Address
RdmaQueuePair::GetLocalAddress() const
{
    return m_local;
}

Ipv4Address
RdmaQueuePair::GetRemoteAddress() const
{
    return m_remote;
}

Ptr<PathSelector>
RdmaQueuePair::GetPathSelector() const
{
    return m_ps;
}

Ptr<RdmaCongestionControl>
RdmaQueuePair::GetCongestionControl() const
{
    return m_cc;
}

const RdmaQueuePairStats&
RdmaQueuePair::GetStats() const
{
    return m_stats;
}

uint64_t
RdmaQueuePair::GetBytesInFlight() const
{
    return m_txWindow.GetBytesInFlight();
}

Time
RdmaQueuePair::GetRto() const
{
    return m_rto;
}

Time
RdmaQueuePair::GetBaseRtt() const
{
    return m_baseRtt;
}

uint32_t
RdmaQueuePair::GetMtu() const
{
    return m_mtu;
}

bool
RdmaQueuePair::IsIdle() const
{
    return m_messages.empty();
}

Ptr<RcccSender>
RdmaQueuePair::GetCreditSender() const
{
    return m_credit;
}

uint64_t
RdmaQueuePair::GetCreditLimit() const
{
    return m_credit ? m_credit->GetMaxCredit() : 0;
}

Ptr<Ipv4Route>
RdmaQueuePair::GetRoute() const
{
    return m_route;
}

void
RdmaQueuePair::SetRoute(Ptr<Ipv4Route> route)
{
    m_route = route;
}

bool
RdmaQueuePair::IsScaleUpPeer() const
{
    return m_scaleUpPeer;
}

uint16_t*
RdmaQueuePair::GetIpIdCounter() const
{
    return m_ipId;
}

void
RdmaQueuePair::SetIpIdCounter(uint16_t* counter)
{
    m_ipId = counter;
}

// ---------------------------------------------------------------- send side

bool
RdmaQueuePair::HasNewData() const
{
    if (m_segIndex >= m_messages.size())
    {
        return false;
    }
    const Message& m = m_messages[m_segIndex];
    return m.unsegmented > 0 || !m.started;
}

bool
RdmaQueuePair::CanSend() const
{
    if (!m_connected || Simulator::Now() < m_nextSendTime)
    {
        return false;
    }
    if (m_credit && !m_credit->HasCredit())
    {
        return false; // a packet leaves on any positive credit, and spends its size
    }
    uint32_t next;
    if (m_txWindow.HasRetransmissions())
    {
        next = m_mtu; // at most one full packet
    }
    else if (HasNewData() && !m_txWindow.IsFull())
    {
        const Message& m = m_messages[m_segIndex];
        next = static_cast<uint32_t>(std::min<uint64_t>(m.unsegmented, m_mtu));
    }
    else
    {
        return false;
    }
    const uint32_t cwnd = m_cc->GetWindow();
    const uint64_t inflight = m_txWindow.GetBytesInFlight();
    return inflight == 0 || inflight + next <= cwnd;
}

uint64_t
RdmaQueuePair::SegmentNext()
{
    Message& m = m_messages[m_segIndex];
    const uint32_t bytes = static_cast<uint32_t>(std::min<uint64_t>(m.unsegmented, m_mtu));
    const bool first = !m.started;
    m.started = true;
    m.unsegmented -= bytes;
    m_backlogWire -= bytes + PacketOverhead();
    const bool last = m.unsegmented == 0;
    const uint8_t opCode =
        first ? (last ? RoceBthHeader::RC_SEND_ONLY : RoceBthHeader::RC_SEND_FIRST)
              : (last ? RoceBthHeader::RC_SEND_LAST : RoceBthHeader::RC_SEND_MIDDLE);
    const uint64_t seq = m_txWindow.Append(bytes, opCode);
    if (last)
    {
        m.lastSeq = seq;
        ++m_segIndex;
    }
    return seq;
}

Ptr<Packet>
RdmaQueuePair::BuildNextPacket(uint16_t& sport)
{
    NS_LOG_FUNCTION(this);
    uint64_t seq = 0;
    const bool retx = m_txWindow.PopRetransmission(seq);
    if (retx)
    {
        ++m_stats.retransmissions;
    }
    else
    {
        if (!HasNewData() || m_txWindow.IsFull())
        {
            return nullptr;
        }
        seq = SegmentNext();
    }
    if (!m_ps->IsStarted())
    {
        m_ps->Start(m_psContext);
    }
    m_txWindow.MarkSent(seq, m_ps->NextEntropy(retx), Simulator::Now());
    const RdmaSendWindow::Slot& slot = m_txWindow.At(seq);
    sport = slot.ev;

    Ptr<Packet> p = Create<Packet>(slot.bytes + RoceBthHeader::ICRC_SIZE);
    RoceBthHeader bth;
    bth.SetOpCode(slot.opCode);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(static_cast<uint32_t>(seq));
    // Ask for an ACK at once at the end of a message, for a retransmission, and when the
    // congestion or the receive window is full with too few packets in flight for the peer's
    // coalescing to answer them (the peer coalesces as this end does: the helper gives both
    // ends the same attributes), so that ACK coalescing never stalls the sender. With at least
    // AckEvery packets (or AckEveryBytes bytes) in flight an ACK is on its way anyway; asking
    // for one on every packet of a full window would undo the coalescing.
    bool last =
        slot.opCode == RoceBthHeader::RC_SEND_LAST || slot.opCode == RoceBthHeader::RC_SEND_ONLY;
    uint32_t cwnd = m_cc->GetWindow();
    const uint64_t inflight = m_txWindow.GetBytesInFlight();
    const bool windowFull = inflight + m_mtu > cwnd || m_txWindow.IsFull();
    const bool peerWillAck = inflight >= static_cast<uint64_t>(m_ackEvery) * m_mtu ||
                             (m_ackEveryBytes > 0 && inflight >= m_ackEveryBytes);
    const bool creditOut = m_credit && SpendCredit(p, bth, slot.bytes);
    bth.SetAckRequest(last || retx || creditOut || (windowFull && !peerWillAck));
    p->AddHeader(bth);

    const uint32_t wire = p->GetSize() + RdmaStack::WIRE_OVERHEAD;
    ++m_stats.packetsSent;
    m_stats.bytesSent += slot.bytes;
    m_cc->OnSend(wire);
    m_packetSentTrace(RdmaPsnOf(seq), slot.ev, retx);

    DataRate rate = m_cc->GetRate();
    if (rate < m_lineRate && rate.GetBitRate() > 0)
    {
        m_nextSendTime = Simulator::Now() + rate.CalculateBytesTxTime(wire);
        m_paceEvent.Cancel();
        m_paceEvent = Simulator::Schedule(m_nextSendTime - Simulator::Now(),
                                          &RdmaQueuePair::PaceExpired,
                                          this);
    }
    ArmRto();
    return p;
}

void
RdmaQueuePair::PaceExpired()
{
    NS_LOG_FUNCTION(this);
    NotifyStack();
}

void
RdmaQueuePair::NotifyStack()
{
    if (m_stack && CanSend())
    {
        m_stack->NotifyReady(this);
    }
}

bool
RdmaQueuePair::SpendCredit(Ptr<Packet> packet, RoceBthHeader& bth, uint32_t payloadBytes)
{
    if (!m_rtsTimer.IsExpired())
    {
        // No longer stuck; removed rather than cancelled, so that no event outlives the flow.
        Simulator::Remove(m_rtsTimer);
    }
    // The packet spends its bytes of credit, then tells the receiver how much this queue pair
    // wants now; the last packet before the credit runs out asks for an ACK.
    const bool speculative = m_credit->IsSpeculating();
    m_credit->OnSend(payloadBytes + PacketOverhead());
    RoceCreditRequestHeader request;
    request.SetPullTarget(PullTargetNow());
    request.SetSpeculative(speculative);
    packet->AddHeader(request);
    bth.SetCreditRequest(true);
    return !m_credit->HasCredit();
}

uint32_t
RdmaQueuePair::PacketOverhead() const
{
    return RoceBthHeader::SIZE + RoceBthHeader::ICRC_SIZE + RdmaStack::WIRE_OVERHEAD +
           (m_credit ? RoceCreditRequestHeader::SIZE : 0);
}

uint64_t
RdmaQueuePair::PullTargetNow() const
{
    const uint64_t overhead = PacketOverhead();
    const uint64_t retransmit = m_txWindow.GetLostBytes() + m_txWindow.GetLostPackets() * overhead;
    // A sender window caps the request at the window plus a packet, in wire bytes.
    int64_t cap = -1;
    const uint32_t cwnd = m_cc->GetWindow();
    if (cwnd != RdmaCongestionControl::UNLIMITED)
    {
        const uint64_t packets = (static_cast<uint64_t>(cwnd) + m_mtu - 1) / m_mtu;
        cap = static_cast<int64_t>(cwnd + packets * overhead + m_mtu + overhead);
    }
    return m_credit->PullTarget(m_backlogWire, retransmit, cap, m_stack->GetNWaiting() + 1);
}

bool
RdmaQueuePair::IsStuckOnCredit() const
{
    return m_credit && !m_credit->HasCredit() &&
           (m_txWindow.GetLostPackets() > 0 || (HasNewData() && !m_txWindow.IsFull()));
}

void
RdmaQueuePair::CheckStuck()
{
    // With packets in flight, their ACKs or their timeouts move things on; with none, lost
    // PULLs (a failed return path) would leave the queue pair waiting forever.
    if (!m_credit)
    {
        return;
    }
    if (m_txWindow.GetBytesInFlight() == 0 && IsStuckOnCredit())
    {
        ArmRtsTimer();
    }
    else if (!m_rtsTimer.IsExpired() && !IsStuckOnCredit())
    {
        // Removed rather than cancelled, so that no event outlives the flow.
        Simulator::Remove(m_rtsTimer);
    }
}

void
RdmaQueuePair::ArmRtsTimer()
{
    if (m_rtsTimer.IsExpired())
    {
        m_rtsTimer =
            Simulator::Schedule(m_credit->GetRtsTimeout(), &RdmaQueuePair::RtsTimerExpired, this);
    }
}

void
RdmaQueuePair::RtsTimerExpired()
{
    NS_LOG_FUNCTION(this);
    // With packets in flight, their ACKs or their timeouts move things on.
    if (m_txWindow.GetBytesInFlight() > 0 || !IsStuckOnCredit())
    {
        return;
    }
    const Time due = Max(m_lastRts, m_lastPull) + m_credit->GetRtsTimeout();
    if (Simulator::Now() >= due)
    {
        SendRts(); // arms the timer again
        return;
    }
    m_rtsTimer = Simulator::Schedule(due - Simulator::Now(), &RdmaQueuePair::RtsTimerExpired, this);
}

void
RdmaQueuePair::SendRts()
{
    NS_LOG_FUNCTION(this);
    if (!m_credit->MayRequest())
    {
        ArmRtsTimer(); // it goes when the timer next finds the queue pair stuck
        return;
    }
    const uint64_t target = PullTargetNow();
    m_credit->OnRequest(target);
    ++m_stats.rtsSent;
    m_lastRts = Simulator::Now();
    ArmRtsTimer();
    RoceCreditRequestHeader request;
    request.SetPullTarget(target);
    Ptr<Packet> p = Create<Packet>(RoceBthHeader::ICRC_SIZE);
    p->AddHeader(request);
    RoceBthHeader bth;
    bth.SetOpCode(RoceBthHeader::RTS);
    bth.SetDestQp(m_remoteQpn);
    p->AddHeader(bth);
    if (!m_ps->IsStarted())
    {
        m_ps->Start(m_psContext);
    }
    // Sprayed as a packet sent again would be: the path of the lost one may be the cause.
    m_stack->SendControl(p, this, m_ps->NextEntropy(true));
}

void
RdmaQueuePair::SendPull(uint64_t cumulative, bool slow)
{
    NS_LOG_FUNCTION(this << cumulative << slow);
    ++m_stats.pullsSent;
    RocePullHeader pull;
    pull.SetCumulativeCredit(std::min(cumulative, RocePullHeader::MAX_CREDIT));
    pull.SetSlow(slow);
    Ptr<Packet> p = Create<Packet>(RoceBthHeader::ICRC_SIZE);
    p->AddHeader(pull);
    RoceBthHeader bth;
    bth.SetOpCode(RoceBthHeader::PULL);
    bth.SetDestQp(m_remoteQpn);
    p->AddHeader(bth);
    // Back on the EV of the sender's last request, as ACKs go back on the data's.
    m_stack->SendControl(p, this, m_pullEv);
}

void
RdmaQueuePair::ReceivePull(Ptr<Packet> packet)
{
    NS_LOG_FUNCTION(this << packet);
    RocePullHeader pull;
    if (!m_credit || packet->PeekHeader(pull) == 0)
    {
        NS_LOG_LOGIC("QP " << m_qpn << " PULL dropped (no credits, or malformed)");
        return;
    }
    ++m_stats.pullsReceived;
    m_lastPull = Simulator::Now();
    m_credit->StopSpeculating();
    m_credit->OnPull(pull.GetCumulativeCredit());
    NotifyStack();
    CheckStuck();
}

void
RdmaQueuePair::ReceiveRts(Ptr<Packet> packet, uint16_t ev)
{
    NS_LOG_FUNCTION(this << packet << ev);
    RoceCreditRequestHeader request;
    if (packet->PeekHeader(request) == 0)
    {
        NS_LOG_LOGIC("QP " << m_qpn << " malformed RTS dropped");
        return;
    }
    ++m_stats.rtsReceived;
    HandleCreditRequest(request.GetPullTarget(), ev, false, false, false);
    m_stack->GetPullPacer()->Requeue(this);
}

void
RdmaQueuePair::HandleCreditRequest(uint64_t target,
                                   uint16_t ev,
                                   bool ce,
                                   bool trimmed,
                                   bool lastHop)
{
    m_pullEv = ev;
    Ptr<RcccPullPacer> pacer = m_stack->GetPullPacer();
    pacer->OnPacket(ce, trimmed, lastHop);
    pacer->OnPullTarget(this, target);
}

void
RdmaQueuePair::ArmRto()
{
    if (m_rtoEvent.IsExpired())
    {
        m_rtoEvent = Simulator::Schedule(m_rto, &RdmaQueuePair::RtoExpired, this);
    }
}

void
RdmaQueuePair::AdvanceUna()
{
    if (m_txWindow.AdvanceUna() > 0 && m_backoff > 0)
    {
        // Progress: the path works again, so the timer returns to its base value.
        m_backoff = 0;
        m_rto = m_baseRto;
    }
    while (!m_messages.empty() && m_segIndex > 0 &&
           m_messages.front().lastSeq < m_txWindow.GetUna())
    {
        Message m = std::move(m_messages.front());
        m_messages.pop_front();
        --m_segIndex;
        Time fct = Simulator::Now() - m.posted;
        ++m_stats.messagesCompleted;
        NS_LOG_LOGIC("QP " << m_qpn << " message " << m.id << " of " << m.size << " bytes in "
                           << fct.As(Time::US));
        m_messageCompleteTrace(m.id, m.size, fct);
        if (!m.onComplete.IsNull())
        {
            m.onComplete(m.id, m.size, fct);
        }
    }
    if (m_txWindow.GetOutstanding() == 0)
    {
        m_rtoEvent.Cancel();
    }
}

void
RdmaQueuePair::ReceiveAck(Ptr<Packet> packet, const RoceBthHeader& bth)
{
    NS_LOG_FUNCTION(this << packet);
    RoceAckHeader ack;
    if (packet->PeekHeader(ack) == 0)
    {
        NS_LOG_LOGIC("QP " << m_qpn << " malformed ACK dropped");
        return;
    }
    const uint64_t trigger = m_txWindow.Unwrap(ack.GetTriggerPsn());
    const uint64_t cum = std::min(m_txWindow.Unwrap(ack.GetCumulativePsn()), m_txWindow.GetHigh());
    const uint16_t ev = ack.GetEchoedEntropy();
    const bool ce = ack.GetEchoedCe();
    if (ce)
    {
        ++m_stats.ecnAcks;
    }
    if (m_credit)
    {
        m_credit->StopSpeculating(); // the receiver has heard of this queue pair
    }

    Time rtt(0);
    uint32_t acked = 0;
    if (!ack.IsNack())
    {
        ++m_stats.acksReceived;
        if (m_txWindow.Contains(trigger) &&
            m_txWindow.At(trigger).state != RdmaSendWindow::State::ACKED)
        {
            rtt = Simulator::Now() - m_txWindow.At(trigger).sendTime;
        }
        acked += m_txWindow.MarkAcked(trigger);
    }
    acked += m_txWindow.AckBelow(cum);
    if (!m_goBackN)
    {
        acked += m_txWindow.AckSack(cum, ack.GetSackBitmap());
    }

    if (!ack.IsNack())
    {
        m_ackReceivedTrace(ack.GetTriggerPsn(), ev, ce, rtt);
        m_ps->OnAck(ev, ce, rtt);
        if (acked > 0 || ce)
        {
            m_cc->OnAck(acked, ce, rtt);
        }
    }
    else
    {
        ReceiveNack(ack, trigger, cum, acked);
    }
    AdvanceUna();
    NotifyStack();
    CheckStuck();
}

void
RdmaQueuePair::ReceiveNack(const RoceAckHeader& ack, uint64_t trigger, uint64_t cum, uint32_t acked)
{
    const uint16_t ev = ack.GetEchoedEntropy();
    ++m_stats.nacksReceived;
    m_nackReceivedTrace(ack.GetTriggerPsn(), ev, ack.GetNackReason());
    if (acked > 0)
    {
        m_cc->OnAck(acked, false, Time(0));
    }
    if (ack.GetNackReason() == RoceAckHeader::TRIMMED)
    {
        if (ack.IsLastHop())
        {
            ++m_stats.lastHopNacksReceived;
        }
        m_ps->OnNack(ev, ack.IsLastHop(), ack.GetEchoedCe());
        if (m_txWindow.IsInFlight(trigger))
        {
            m_cc->OnNack(m_txWindow.At(trigger).bytes, ack.IsLastHop());
            m_txWindow.MarkLost(trigger);
        }
        return;
    }
    // Go back to the first missing packet: everything in flight from there goes again.
    m_txWindow.GoBack(cum, [this](const RdmaSendWindow::Slot& first) {
        m_cc->OnNack(first.bytes, false);
        m_ps->OnLoss(first.ev);
    });
}

void
RdmaQueuePair::RtoExpired()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    const bool pending = m_txWindow.GetLostPackets() > 0;
    const RdmaSendWindow::Expiry expiry =
        m_txWindow.Expire(now,
                          m_rto,
                          m_goBackN,
                          [this](uint64_t seq, const RdmaSendWindow::Slot& slot) {
                              ++m_stats.packetsLost;
                              m_lossTrace(RdmaPsnOf(seq), slot.ev);
                              m_ps->OnLoss(slot.ev);
                              m_cc->OnLoss(slot.bytes);
                          });
    if (expiry.lost > 0)
    {
        ++m_stats.timeouts;
        if (m_rtoBackoff && m_backoff < kMaxBackoff)
        {
            ++m_backoff;
            m_rto = m_baseRto * static_cast<int64_t>(1u << m_backoff);
        }
        m_timeoutTrace(expiry.lost);
        m_ps->OnTimeout();
        m_cc->OnTimeout();
        // Receiver credits: a packet to send again and no credit (or others already waiting
        // for it), so the receiver may not know this queue pair waits: an RTS tells it.
        if (m_credit && (!m_credit->HasCredit() || pending))
        {
            SendRts();
        }
    }
    if (expiry.next != Time::Max())
    {
        m_rtoEvent = Simulator::Schedule(expiry.next - now, &RdmaQueuePair::RtoExpired, this);
    }
    NotifyStack();
    CheckStuck();
}

// ---------------------------------------------------------------- receive side

void
RdmaQueuePair::Receive(Ptr<Packet> packet, const RoceBthHeader& bth, uint16_t sport, bool ce)
{
    NS_LOG_FUNCTION(this << packet << sport << ce);
    if (bth.IsData())
    {
        ReceiveData(packet, bth, sport, ce);
    }
    else if (bth.GetOpCode() == RoceBthHeader::PULL)
    {
        ReceivePull(packet);
    }
    else if (bth.GetOpCode() == RoceBthHeader::RTS)
    {
        ReceiveRts(packet, sport);
    }
    else if (bth.GetOpCode() == RoceBthHeader::RC_ACK)
    {
        ReceiveAck(packet, bth);
    }
    else if (bth.GetOpCode() == RoceBthHeader::PROBE ||
             bth.GetOpCode() == RoceBthHeader::PROBE_REPLY)
    {
        ReceiveProbe(packet, bth.GetOpCode() == RoceBthHeader::PROBE_REPLY);
    }
    else if (bth.GetOpCode() == RoceBthHeader::CNP)
    {
        ++m_stats.cnpsReceived;
        m_cnpReceivedTrace();
        m_cc->OnCnp();
        NotifyStack();
    }
}

void
RdmaQueuePair::ReceiveData(Ptr<Packet> packet, const RoceBthHeader& bth, uint16_t ev, bool ce)
{
    NS_LOG_FUNCTION(this << packet << ev << ce);
    ++m_stats.dataReceived;
    const uint32_t psn = bth.GetPsn();
    const uint64_t seq = m_rxWindow.Unwrap(psn);
    RoceCreditRequestHeader request;
    const bool credited = bth.HasCreditRequest() &&
                          packet->PeekHeader(request) == RoceCreditRequestHeader::SIZE &&
                          packet->RemoveHeader(request) == RoceCreditRequestHeader::SIZE;
    if (credited)
    {
        HandleCreditRequest(request.GetPullTarget(),
                            ev,
                            ce,
                            bth.IsTrimmed(),
                            bth.IsTrimmed() && bth.IsTrimmedAtLastHop());
    }

    if (ce && m_cc)
    {
        Time interval = m_cc->GetCnpInterval();
        if (interval.IsStrictlyPositive() &&
            (!m_cnpSent || Simulator::Now() - m_lastCnp >= interval))
        {
            SendCnp(ev);
        }
    }

    if (bth.IsTrimmed())
    {
        ++m_stats.trimmedReceived;
        if (bth.IsTrimmedAtLastHop())
        {
            ++m_stats.lastHopTrimmedReceived;
        }
        m_dataReceivedTrace(psn, ev, ce, false);
        SendAck(psn, ev, ce, false, RoceAckHeader::TRIMMED, bth.IsTrimmedAtLastHop());
        if (credited)
        {
            // Its sender will send it again: it needs credit for that.
            m_stack->GetPullPacer()->Requeue(this);
        }
        return;
    }

    const RdmaReceiveWindow::Verdict verdict = m_rxWindow.Admit(seq);
    m_dataReceivedTrace(psn, ev, ce, verdict == RdmaReceiveWindow::Verdict::DUPLICATE);
    switch (verdict)
    {
    case RdmaReceiveWindow::Verdict::DUPLICATE:
        ++m_stats.duplicates;
        SendAck(psn, ev, ce, true, RoceAckHeader::NONE);
        break;
    case RdmaReceiveWindow::Verdict::BEYOND_WINDOW:
        ++m_stats.outOfWindow;
        break;
    case RdmaReceiveWindow::Verdict::OUT_OF_ORDER_NACK:
        ++m_stats.outOfOrderDropped;
        SendAck(psn, ev, ce, false, RoceAckHeader::SEQUENCE_ERROR);
        break;
    case RdmaReceiveWindow::Verdict::OUT_OF_ORDER:
        ++m_stats.outOfOrderDropped;
        break;
    case RdmaReceiveWindow::Verdict::ACCEPT:
        AcceptData(packet, bth, seq, ev, ce);
        break;
    }
}

void
RdmaQueuePair::AcceptData(Ptr<Packet> packet,
                          const RoceBthHeader& bth,
                          uint64_t seq,
                          uint16_t ev,
                          bool ce)
{
    const uint32_t bytes = packet->GetSize() >= RoceBthHeader::ICRC_SIZE
                               ? packet->GetSize() - RoceBthHeader::ICRC_SIZE
                               : 0;
    m_rxWindow.Place(seq, bytes, bth.GetOpCode());
    m_stats.bytesReceived += bytes;
    if (!m_rxMessageStarted)
    {
        m_rxMessageStarted = true;
        m_rxMessageStart = Simulator::Now();
    }

    const bool inOrder = seq == m_rxWindow.GetNext();
    m_rxWindow.Advance([this](uint64_t, const RdmaReceiveWindow::Slot& slot) {
        DeliverData(slot.bytes, slot.opCode);
    });

    ++m_unacked;
    m_unackedBytes += bytes;
    const bool lastOfMessage = bth.GetOpCode() == RoceBthHeader::RC_SEND_LAST ||
                               bth.GetOpCode() == RoceBthHeader::RC_SEND_ONLY;
    const bool enoughBytes = m_ackEveryBytes > 0 && m_unackedBytes >= m_ackEveryBytes;
    // As TCP's delayed ACKs (RFC 5681): a packet that fills a gap (the cumulative point jumps
    // past it) is acknowledged at once. Under spraying the packet that fills the last gap is
    // often the last of a window to arrive; held back, it would leave the sender waiting for
    // its retransmission timer.
    if (m_unacked >= m_ackEvery || enoughBytes || !inOrder || ce || lastOfMessage ||
        bth.GetAckRequest() || m_rxWindow.GetNext() > seq + 1)
    {
        SendAck(bth.GetPsn(), ev, ce, false, RoceAckHeader::NONE);
        return;
    }
    // Held back: remember what the timer's ACK will echo (an unmarked packet, since a CE mark
    // is acknowledged at once), and start the timer at the first packet held back.
    m_pendingPsn = bth.GetPsn();
    m_pendingEv = ev;
    if (m_ackDelay.IsStrictlyPositive() && m_ackTimer.IsExpired())
    {
        m_ackTimer = Simulator::Schedule(m_ackDelay, &RdmaQueuePair::AckDelayExpired, this);
    }
}

void
RdmaQueuePair::AckDelayExpired()
{
    NS_LOG_FUNCTION(this);
    if (m_unacked > 0)
    {
        SendAck(m_pendingPsn, m_pendingEv, false, false, RoceAckHeader::NONE);
    }
}

void
RdmaQueuePair::DeliverData(uint32_t bytes, uint8_t opCode)
{
    m_rxMessageBytes += bytes;
    if (opCode != RoceBthHeader::RC_SEND_LAST && opCode != RoceBthHeader::RC_SEND_ONLY)
    {
        return;
    }
    ++m_stats.messagesReceived;
    Time t = Simulator::Now() - m_rxMessageStart;
    uint64_t id = m_rxMessageId++;
    uint64_t size = m_rxMessageBytes;
    m_rxMessageBytes = 0;
    m_rxMessageStarted = false;
    m_messageReceivedTrace(id, size, t);
    if (!m_onReceive.IsNull())
    {
        m_onReceive(id, size, t);
    }
}

void
RdmaQueuePair::SendAck(uint32_t psn,
                       uint16_t ev,
                       bool ce,
                       bool duplicate,
                       uint8_t nackReason,
                       bool lastHop)
{
    NS_LOG_FUNCTION(this << psn << ev << ce << duplicate << +nackReason << lastHop);
    m_unacked = 0;
    m_unackedBytes = 0;
    if (!m_ackTimer.IsExpired())
    {
        m_ackTimer.Cancel();
    }
    RoceAckHeader ack;
    if (nackReason != RoceAckHeader::NONE)
    {
        ack.SetType(RoceAckHeader::NACK);
        ack.SetNackReason(static_cast<RoceAckHeader::NackReason>(nackReason));
        ack.SetLastHop(lastHop && nackReason == RoceAckHeader::TRIMMED);
        ++m_stats.nacksSent;
    }
    else
    {
        ++m_stats.acksSent;
    }
    ack.SetTriggerPsn(psn);
    ack.SetCumulativePsn(RdmaPsnOf(m_rxWindow.GetNext()));
    ack.SetSackBitmap(m_goBackN ? 0 : m_rxWindow.GetSackBitmap());
    ack.SetEchoedEntropy(ev);
    ack.SetEchoedCe(ce);
    ack.SetDuplicate(duplicate);
    Ptr<Packet> p = Create<Packet>(RoceBthHeader::ICRC_SIZE);
    p->AddHeader(ack);
    RoceBthHeader bth;
    bth.SetOpCode(RoceBthHeader::RC_ACK);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(psn);
    p->AddHeader(bth);
    m_ackSentTrace(psn, ev, ce, nackReason != RoceAckHeader::NONE);
    // The ACK carries the data packet's EV as its own source port, so ACKs spread over the
    // reverse paths as the data does over the forward ones.
    m_stack->SendControl(p, this, ev);
}

void
RdmaQueuePair::SendCnp(uint16_t ev)
{
    NS_LOG_FUNCTION(this);
    m_lastCnp = Simulator::Now();
    m_cnpSent = true;
    ++m_stats.cnpsSent;
    Ptr<Packet> p = Create<Packet>(kCnpPayload + RoceBthHeader::ICRC_SIZE);
    RoceBthHeader bth;
    bth.SetOpCode(RoceBthHeader::CNP);
    bth.SetDestQp(m_remoteQpn);
    bth.SetBecn(true);
    p->AddHeader(bth);
    // Back on the plane of the packet that was marked (a single-plane NIC ignores it).
    m_stack->SendControl(p, this, static_cast<uint16_t>(m_qpn & 0xFFFF), ev);
}

// ---------------------------------------------------------------- path probes

void
RdmaQueuePair::SendProbe(uint16_t ev)
{
    NS_LOG_FUNCTION(this << ev);
    if (!m_stack)
    {
        return;
    }
    ++m_stats.probesSent;
    RoceProbeHeader probe;
    probe.SetEntropy(ev);
    probe.SetSequence(m_probeSequence++);
    probe.SetTimestamp(Simulator::Now());
    Ptr<Packet> p = Create<Packet>(RoceBthHeader::ICRC_SIZE);
    p->AddHeader(probe);
    RoceBthHeader bth;
    bth.SetOpCode(RoceBthHeader::PROBE);
    bth.SetDestQp(m_remoteQpn);
    p->AddHeader(bth);
    // A probe leaves with the probed EV as its source port, so the switches hash it onto the
    // path data with that EV takes; it goes ahead of data, as ACKs do.
    m_stack->SendControl(p, this, ev);
}

void
RdmaQueuePair::ReceiveProbe(Ptr<Packet> packet, bool reply)
{
    NS_LOG_FUNCTION(this << packet << reply);
    RoceProbeHeader probe;
    if (packet->PeekHeader(probe) == 0)
    {
        NS_LOG_LOGIC("QP " << m_qpn << " malformed probe dropped");
        return;
    }
    if (reply)
    {
        ++m_stats.probeReplies;
        if (m_ps)
        {
            m_ps->OnProbeReply(probe.GetEntropy(), Simulator::Now() - probe.GetTimestamp());
        }
        return;
    }
    ++m_stats.probesAnswered;
    Ptr<Packet> p = Create<Packet>(RoceBthHeader::ICRC_SIZE);
    p->AddHeader(probe);
    RoceBthHeader bth;
    bth.SetOpCode(RoceBthHeader::PROBE_REPLY);
    bth.SetDestQp(m_remoteQpn);
    p->AddHeader(bth);
    m_stack->SendControl(p, this, probe.GetEntropy());
}

} // namespace ns3
