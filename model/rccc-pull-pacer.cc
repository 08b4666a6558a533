/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rccc-pull-pacer.h"

#include "rdma-queue-pair.h"
#include "rdma-stack.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RcccPullPacer");

NS_OBJECT_ENSURE_REGISTERED(RcccPullPacer);

namespace
{
constexpr uint32_t kMaxCredit = 1u << 24; //!< Largest CreditBytes and EmptyPullBytes.
} // namespace

TypeId
RcccPullPacer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RcccPullPacer")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<RcccPullPacer>()
            .AddAttribute("CreditBytes",
                          "Credit one PULL grants, bytes on the wire (the UEC specification's "
                          "default: 4 MSS of 4096 bytes). 1 to 16777216.",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&RcccPullPacer::m_creditBytes),
                          MakeUintegerChecker<uint32_t>(1, kMaxCredit))
            .AddAttribute("PullRateFraction",
                          "PULLs grant credit at this fraction of the NIC's rate (the sum of its "
                          "ports'), just under it so that the receiver's port does not queue. "
                          "In (0, 2].",
                          DoubleValue(0.99),
                          MakeDoubleAccessor(&RcccPullPacer::m_rateFraction),
                          MakeDoubleChecker<double>(0.0, 2.0))
            .AddAttribute("EmptyPullBytes",
                          "A PULL that grants nothing new (its sender's demand was met since it "
                          "was queued) takes the pacing time of this many bytes. 1 to 16777216.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RcccPullPacer::m_emptyPull),
                          MakeUintegerChecker<uint32_t>(1, kMaxCredit))
            .AddAttribute("OversubscriptionControl",
                          "Scale the pull rate by the ECN marks and the trims inside the fabric "
                          "of the data that arrives (for a fabric whose core is oversubscribed; "
                          "the reference turns it on there when no sender congestion control "
                          "runs).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RcccPullPacer::m_control),
                          MakeBooleanChecker())
            .AddAttribute("TargetCongestion",
                          "Oversubscription control: smoothed ECN fraction above which the rate "
                          "is cut.",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&RcccPullPacer::m_targetCongestion),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("IncreaseStep",
                          "Oversubscription control: additive increase per interval, fraction of "
                          "the rate (doubling per interval in a row without a mark or cut).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RcccPullPacer::m_increase),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("DecreaseFactor",
                          "Oversubscription control: gain of the cut, rate x= 1 - (g - "
                          "TargetCongestion) x DecreaseFactor.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RcccPullPacer::m_decrease),
                          MakeDoubleChecker<double>(0.0, 10.0))
            .AddAttribute("EcnWeight",
                          "Oversubscription control: weight of an interval's ECN fraction in its "
                          "EWMA g.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&RcccPullPacer::m_ecnWeight),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("MinRate",
                          "Oversubscription control: least rate factor, in (0, 1] (the reference "
                          "sets 0.9 / the oversubscription ratio on an oversubscribed fabric).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&RcccPullPacer::m_minRate),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ControlRtt",
                          "Oversubscription control: the interval is 1.5 x this, drawn in "
                          "[0.75, 1.25] of it; 0: the largest BaseRtt of the node's queue pairs "
                          "(the reference: the network's unloaded RTT).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RcccPullPacer::m_controlRtt),
                          MakeTimeChecker(Time(0), Seconds(1)))
            .AddTraceSource("PullSent",
                            "A PULL left: receiving queue pair, credit added, credit granted "
                            "in all, slow pull.",
                            MakeTraceSourceAccessor(&RcccPullPacer::m_pullTrace),
                            "ns3::RcccPullPacer::PullTracedCallback")
            .AddTraceSource("RateFactor",
                            "The oversubscription control's factor of the pull rate.",
                            MakeTraceSourceAccessor(&RcccPullPacer::m_rateFactor),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

RcccPullPacer::RcccPullPacer()
    : m_creditBytes(16384),
      m_rateFraction(0.99),
      m_emptyPull(1024),
      m_control(false),
      m_targetCongestion(0.3),
      m_increase(0.01),
      m_decrease(0.5),
      m_ecnWeight(0.5),
      m_minRate(0.01),
      m_controlRtt(0),
      m_rateFactor(1.0)
{
    NS_LOG_FUNCTION(this);
    m_jitter = CreateObject<UniformRandomVariable>();
}

RcccPullPacer::~RcccPullPacer()
{
    NS_LOG_FUNCTION(this);
}

void
RcccPullPacer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_turn.Cancel();
    m_controlEvent.Cancel();
    m_stack = nullptr;
    m_jitter = nullptr;
    Object::DoDispose();
}

std::string
RcccPullPacer::Validate() const
{
    std::ostringstream os;
    if (!(m_rateFraction > 0))
    {
        os << "RcccPullPacer: PullRateFraction (" << m_rateFraction << ") must be in (0, 2]";
    }
    else if (!(m_minRate > 0))
    {
        os << "RcccPullPacer: MinRate (" << m_minRate << ") must be in (0, 1]";
    }
    return os.str();
}

void
RcccPullPacer::Setup(Ptr<RdmaStack> stack)
{
    NS_LOG_FUNCTION(this << stack);
    const std::string error = Validate();
    NS_ABORT_MSG_IF(!error.empty(), error);
    NS_ABORT_MSG_IF(m_core, "RcccPullPacer: already set up");
    m_stack = PeekPointer(stack);
    // Every port of a multi-plane NIC receives: the pacer grants for all of them.
    m_rate = DataRate(stack->GetLineRate().GetBitRate() * stack->GetNPlanes());
    RcccPacerParameters p;
    p.creditBytes = m_creditBytes;
    p.rateBps = static_cast<double>(m_rate.GetBitRate());
    p.rateFraction = m_rateFraction;
    p.emptyPullBytes = m_emptyPull;
    m_core = std::make_unique<RcccPacerCore>(p);
    RcccOversubscriptionParameters o;
    o.targetCongestion = m_targetCongestion;
    o.increase = m_increase;
    o.decrease = m_decrease;
    o.ecnWeight = m_ecnWeight;
    o.minRate = m_minRate;
    m_os = std::make_unique<RcccOversubscriptionCore>(o);
}

int64_t
RcccPullPacer::SlowLimitOf(RdmaQueuePair* qp) const
{
    return static_cast<int64_t>(qp->GetCreditLimit());
}

void
RcccPullPacer::OnPullTarget(RdmaQueuePair* qp, uint64_t target)
{
    NS_LOG_FUNCTION(this << qp->GetQpn() << target);
    if (m_core->OnPullTarget(qp->GetQpn(), static_cast<int64_t>(target), SlowLimitOf(qp)))
    {
        Wake();
    }
}

void
RcccPullPacer::Requeue(RdmaQueuePair* qp)
{
    NS_LOG_FUNCTION(this << qp->GetQpn());
    ++m_stats.requeues;
    if (m_core->Requeue(qp->GetQpn(), SlowLimitOf(qp)))
    {
        Wake();
    }
}

void
RcccPullPacer::Wake()
{
    // A turn may still be due from before the pacer found nobody to pull: it comes then, so
    // that the pull rate holds across an idle moment.
    const double now = static_cast<double>(Simulator::Now().GetNanoSeconds());
    m_dueNs = std::max(m_dueNs, now);
    if (m_turn.IsExpired())
    {
        m_turn = Simulator::Schedule(NanoSeconds(std::llround(m_dueNs)) - Simulator::Now(),
                                     &RcccPullPacer::Turn,
                                     this);
    }
}

void
RcccPullPacer::Turn()
{
    RcccPacerCore::Pull pull;
    if (!m_core->Next(pull))
    {
        return; // nobody to pull: idle until a sender asks
    }
    ++m_stats.pulls;
    m_stats.slowPulls += pull.slow ? 1 : 0;
    m_stats.emptyPulls += pull.granted == 0 ? 1 : 0;
    m_stats.bytesGranted += pull.granted;
    m_pullTrace(pull.sink,
                static_cast<uint32_t>(pull.granted),
                static_cast<uint64_t>(pull.cumulative),
                pull.slow);
    Ptr<RdmaQueuePair> qp = m_stack->GetQueuePair(pull.sink);
    if (qp)
    {
        qp->SendPull(static_cast<uint64_t>(pull.cumulative), pull.slow);
    }
    const double now = static_cast<double>(Simulator::Now().GetNanoSeconds());
    m_dueNs = std::max(m_dueNs, now) + m_core->GapNs(pull.granted);
    m_turn = Simulator::Schedule(NanoSeconds(std::llround(m_dueNs)) - Simulator::Now(),
                                 &RcccPullPacer::Turn,
                                 this);
}

void
RcccPullPacer::OnPacket(bool ce, bool trimmed, bool lastHop)
{
    if (!m_control)
    {
        return;
    }
    m_os->OnPacket(ce, trimmed, lastHop);
    StartControl();
}

void
RcccPullPacer::StartControl()
{
    if (!m_controlEvent.IsExpired())
    {
        return;
    }
    m_rtt = m_controlRtt;
    if (!m_rtt.IsStrictlyPositive())
    {
        for (uint32_t q = 1; q <= m_stack->GetNQueuePairs(); ++q)
        {
            m_rtt = Max(m_rtt, m_stack->GetQueuePair(q)->GetBaseRtt());
        }
    }
    m_controlEvent = Simulator::Schedule(NextInterval(), &RcccPullPacer::Control, this);
}

Time
RcccPullPacer::NextInterval()
{
    // Drawn around the target feedback delay, so that receivers do not act in step.
    return NanoSeconds(std::max<int64_t>(
        1,
        std::llround((0.75 + m_jitter->GetValue() / 2) * 1.5 * m_rtt.GetNanoSeconds())));
}

void
RcccPullPacer::Control()
{
    const bool quiet = m_os->GetPending() == 0;
    const double before = m_core->GetRateFactor();
    const double rate = m_os->Update();
    m_core->SetRateFactor(rate);
    if (rate != before)
    {
        ++m_stats.rateChanges;
        m_rateFactor = rate;
    }
    if (quiet && rate >= 1.0)
    {
        return; // rests until the next packet
    }
    m_controlEvent = Simulator::Schedule(NextInterval(), &RcccPullPacer::Control, this);
}

DataRate
RcccPullPacer::GetPullRate() const
{
    const double factor = m_core ? m_core->GetRateFactor() : 1.0;
    return DataRate(
        static_cast<uint64_t>(static_cast<double>(m_rate.GetBitRate()) * m_rateFraction * factor));
}

double
RcccPullPacer::GetRateFactor() const
{
    return m_core ? m_core->GetRateFactor() : 1.0;
}

const RcccPullPacerStats&
RcccPullPacer::GetStats() const
{
    return m_stats;
}

uint64_t
RcccPullPacer::GetGranted(uint32_t qpn) const
{
    return m_core ? static_cast<uint64_t>(m_core->GetGranted(qpn)) : 0;
}

const RcccPacerCore&
RcccPullPacer::GetCore() const
{
    NS_ABORT_MSG_IF(!m_core, "RcccPullPacer::GetCore() before Setup()");
    return *m_core;
}

int64_t
RcccPullPacer::AssignStreams(int64_t stream)
{
    m_jitter->SetStream(stream);
    return 1;
}

} // namespace ns3
