/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rccc-sender.h"

#include "roce-credit-request-header.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RcccSender");

NS_OBJECT_ENSURE_REGISTERED(RcccSender);

namespace
{
/// Point-to-point header bytes on the wire, beyond the IPv4 packet of RdmaCcContext.
constexpr uint32_t kPppBytes = 2;

/// \param c a connection \param bdps a number of BDPs \return that many BDPs, wire bytes
int64_t
WireBdps(const RdmaCcContext& c, double bdps)
{
    // The BDP in integers first (exact for whole nanoseconds and kb/s), so that 1.5 BDP of
    // 150000 bytes is 225000 bytes, not one less.
    const double bdp = static_cast<double>(c.lineRate.GetBitRate() / 1000) *
                       static_cast<double>(c.baseRtt.GetNanoSeconds()) / 8e6;
    return static_cast<int64_t>(std::floor(bdps * bdp + 1e-6));
}
} // namespace

TypeId
RcccSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RcccSender")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<RcccSender>()
            .AddAttribute("MaxCredit",
                          "Speculative credit of a new queue pair, and the most credit it holds, "
                          "in bandwidth-delay products of its connection (line rate x BaseRtt, "
                          "bytes on the wire); the receiver's slow pulls give an idle queue pair "
                          "at most this much too (the reference: its largest window, 1.5 BDP). "
                          "At least one packet.",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&RcccSender::m_maxCredit),
                          MakeDoubleChecker<double>(0.0, 1000.0))
            .AddAttribute("SpeculativeCredit",
                          "Speculative credit of a new queue pair, bytes on the wire; 0: "
                          "MaxCredit (the reference's default; its -cwnd N sets N packets). At "
                          "most 2^40.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RcccSender::m_speculativeCredit),
                          MakeUintegerChecker<uint64_t>(0, uint64_t(1) << 40))
            .AddAttribute("RtsInterval",
                          "Least time between two RTS of a queue pair; 0: its BaseRtt (the "
                          "reference: the network's unloaded RTT).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RcccSender::m_rtsInterval),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddAttribute("RtsTimeout",
                          "A queue pair stuck on credit (something to send, no credit, nothing "
                          "in flight) sends an RTS when neither a PULL nor an RTS of its own "
                          "went by for this long, and again as long after (lost PULLs, a lost "
                          "RTS); long enough by default not to fire while it merely waits "
                          "its turn in an incast of about 100 senders. In retransmission "
                          "timeouts (Rto) of the queue pair, at least 1.",
                          DoubleValue(8.0),
                          MakeDoubleAccessor(&RcccSender::m_rtsTimeout),
                          MakeDoubleChecker<double>(1.0, 1e6))
            .AddTraceSource("Credit",
                            "The credit held, bytes on the wire (negative: a debt of less than "
                            "a packet).",
                            MakeTraceSourceAccessor(&RcccSender::m_credit),
                            "ns3::TracedValueCallback::Int64")
            .AddTraceSource("CreditGranted",
                            "A PULL added credit: bytes added, credit held after.",
                            MakeTraceSourceAccessor(&RcccSender::m_creditGrantedTrace),
                            "ns3::RcccSender::CreditTracedCallback")
            .AddTraceSource("CreditUsed",
                            "A packet spent credit: its bytes on the wire, credit held after.",
                            MakeTraceSourceAccessor(&RcccSender::m_creditUsedTrace),
                            "ns3::RcccSender::CreditTracedCallback")
            .AddTraceSource("RtsSent",
                            "An RTS left: the pull target it carries.",
                            MakeTraceSourceAccessor(&RcccSender::m_rtsTrace),
                            "ns3::RcccSender::RtsTracedCallback");
    return tid;
}

RcccSender::RcccSender()
    : m_maxCredit(1.5),
      m_speculativeCredit(0),
      m_rtsInterval(0),
      m_rtsTimeout(8.0),
      m_credit(0)
{
    NS_LOG_FUNCTION(this);
}

RcccSender::~RcccSender()
{
    NS_LOG_FUNCTION(this);
}

std::string
RcccSender::Validate(const RdmaCcContext& context) const
{
    std::ostringstream os;
    const int64_t packet = context.packetBytes + kPppBytes;
    if (WireBdps(context, m_maxCredit) < packet)
    {
        os << "RcccSender: MaxCredit (" << m_maxCredit
           << " BDP = " << WireBdps(context, m_maxCredit)
           << " bytes) must hold at least one packet (" << packet << " bytes on the wire)";
    }
    return os.str();
}

void
RcccSender::Init(const RdmaCcContext& context, Time rto)
{
    NS_LOG_FUNCTION(this << rto);
    const std::string error = Validate(context);
    NS_ABORT_MSG_IF(!error.empty(), error);
    RcccSenderParameters p;
    p.maxCreditBytes = WireBdps(context, m_maxCredit);
    p.speculativeBytes = static_cast<int64_t>(m_speculativeCredit);
    p.packetBytes = context.packetBytes + kPppBytes;
    p.rtsIntervalNs =
        (m_rtsInterval.IsStrictlyPositive() ? m_rtsInterval : context.baseRtt).GetNanoSeconds();
    m_timeout = NanoSeconds(std::llround(m_rtsTimeout * rto.GetNanoSeconds()));
    m_core = std::make_unique<RcccSenderCore>(p);
    Publish();
}

void
RcccSender::Publish()
{
    if (m_credit.Get() != m_core->GetCredit())
    {
        m_credit = m_core->GetCredit();
    }
}

bool
RcccSender::HasCredit() const
{
    return m_core->HasCredit();
}

void
RcccSender::OnSend(uint32_t wireBytes)
{
    m_core->OnSend(wireBytes);
    Publish();
    m_creditUsedTrace(wireBytes, m_core->GetCredit());
}

void
RcccSender::StopSpeculating()
{
    if (m_core->StopSpeculating() > 0)
    {
        NS_LOG_LOGIC("speculation over, credit " << m_core->GetCredit());
    }
    Publish();
}

uint32_t
RcccSender::OnPull(uint64_t cumulative)
{
    NS_LOG_FUNCTION(this << cumulative);
    const int64_t added = m_core->OnPull(static_cast<int64_t>(cumulative));
    Publish();
    if (added > 0)
    {
        m_creditGrantedTrace(static_cast<uint32_t>(added), m_core->GetCredit());
    }
    return static_cast<uint32_t>(added);
}

uint64_t
RcccSender::PullTarget(uint64_t backlogBytes,
                       uint64_t retransmitBytes,
                       int64_t windowCapBytes,
                       uint32_t activeSources) const
{
    const int64_t target = m_core->PullTarget(static_cast<int64_t>(backlogBytes),
                                              static_cast<int64_t>(retransmitBytes),
                                              windowCapBytes,
                                              activeSources);
    return std::min<uint64_t>(target, RoceCreditRequestHeader::MAX_TARGET);
}

bool
RcccSender::MayRequest() const
{
    return m_core->MayRequest(Simulator::Now().GetNanoSeconds());
}

void
RcccSender::OnRequest(uint64_t target)
{
    NS_LOG_FUNCTION(this << target);
    m_core->OnRequest(Simulator::Now().GetNanoSeconds());
    m_rtsTrace(target);
}

int64_t
RcccSender::GetCredit() const
{
    return m_core ? m_core->GetCredit() : 0;
}

uint64_t
RcccSender::GetPulled() const
{
    return m_core ? m_core->GetPulled() : 0;
}

bool
RcccSender::IsSpeculating() const
{
    return m_core && m_core->IsSpeculating();
}

uint64_t
RcccSender::GetMaxCredit() const
{
    return m_core ? m_core->GetMaxCredit() : 0;
}

uint64_t
RcccSender::GetSpent() const
{
    return m_core ? m_core->GetSpent() : 0;
}

uint64_t
RcccSender::GetSpeculativeCredit() const
{
    return GetMaxCredit();
}

Time
RcccSender::GetRtsTimeout() const
{
    return m_timeout;
}

} // namespace ns3
