/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-port.h"

#include "ecn-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPort");

NS_OBJECT_ENSURE_REGISTERED(PfcPort);

TypeId
PfcPort::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcPort")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<PfcPort>()
            .AddAttribute("Priority",
                          "The lossless priority (0 to 7): the priority of the data band of the "
                          "device's queue disc and of a host's RDMA data, which a PAUSE frame "
                          "for it stops.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&PfcPort::m_priority),
                          MakeUintegerChecker<uint8_t>(0, PfcHeader::N_PRIORITIES - 1))
            .AddTraceSource("PauseSent",
                            "A PFC frame started on the link (quanta 0: XON).",
                            MakeTraceSourceAccessor(&PfcPort::m_pauseSentTrace),
                            "ns3::PfcPort::PauseTracedCallback")
            .AddTraceSource("PauseReceived",
                            "A PFC frame arrived from the other end (quanta 0: XON).",
                            MakeTraceSourceAccessor(&PfcPort::m_pauseReceivedTrace),
                            "ns3::PfcPort::PauseTracedCallback")
            .AddTraceSource("Resumed",
                            "A stopped priority may send again (XON or end of the pause time).",
                            MakeTraceSourceAccessor(&PfcPort::m_resumedTrace),
                            "ns3::PfcPort::ResumedTracedCallback");
    return tid;
}

PfcPort::PfcPort()
    : m_priority(3)
{
    NS_LOG_FUNCTION(this);
}

PfcPort::~PfcPort()
{
    NS_LOG_FUNCTION(this);
}

void
PfcPort::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (EventId& e : m_expiry)
    {
        e.Cancel();
    }
    m_stateCallbacks.clear();
    m_device = nullptr;
    m_peer = nullptr;
    m_rateAccessor = nullptr;
    Object::DoDispose();
}

void
PfcPort::NotifyNewAggregate()
{
    NS_LOG_FUNCTION(this);
    if (!m_device)
    {
        m_device = GetObject<PointToPointNetDevice>();
        if (m_device)
        {
            // The rate is read once per frame: through the accessor rather than by name, which
            // costs a TypeId lookup each time.
            TypeId::AttributeInformation info;
            NS_ABORT_MSG_UNLESS(
                m_device->GetInstanceTypeId().LookupAttributeByName("DataRate", &info),
                "PfcPort: the device has no DataRate attribute");
            m_rateAccessor = info.accessor;
            m_device->TraceConnectWithoutContext("PhyTxBegin",
                                                 MakeCallback(&PfcPort::TxBegin, this));
        }
    }
    Object::NotifyNewAggregate();
}

Ptr<PointToPointNetDevice>
PfcPort::GetDevice() const
{
    return m_device;
}

DataRate
PfcPort::GetRate() const
{
    NS_ABORT_MSG_IF(!m_device, "PfcPort: aggregate the port to a PointToPointNetDevice first");
    DataRateValue rate;
    m_rateAccessor->Get(PeekPointer(m_device), rate);
    return rate.Get();
}

Time
PfcPort::GetDelay() const
{
    NS_ABORT_MSG_IF(!m_device, "PfcPort: aggregate the port to a PointToPointNetDevice first");
    Ptr<Channel> channel = m_device->GetChannel();
    TimeValue delay(Time(0));
    if (channel)
    {
        channel->GetAttributeFailSafe("Delay", delay);
    }
    return delay.Get();
}

Ptr<PfcPort>
PfcPort::GetPeer()
{
    if (!m_peer && m_device && m_device->GetChannel())
    {
        Ptr<Channel> channel = m_device->GetChannel();
        for (std::size_t i = 0; i < channel->GetNDevices(); i++)
        {
            Ptr<NetDevice> other = channel->GetDevice(i);
            if (other != m_device)
            {
                m_peer = other->GetObject<PfcPort>();
            }
        }
    }
    return m_peer;
}

void
PfcPort::TxBegin(Ptr<const Packet> packet)
{
    // The end of the frame is computed only when a PAUSE frame needs it (TxFreeAt).
    m_txBeginAt = Simulator::Now();
    m_txBytes = packet->GetSize();
    m_txRate = GetRate();
    m_lastWasPause = false;
}

Time
PfcPort::TxFreeAt() const
{
    return m_lastWasPause ? m_pauseFreeAt : m_txBeginAt + m_txRate.CalculateBytesTxTime(m_txBytes);
}

void
PfcPort::SendPause(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +priority << quanta);
    NS_ABORT_MSG_IF(priority >= PfcHeader::N_PRIORITIES,
                    "PfcPort: priority " << +priority << " must be 0 to 7");
    PfcHeader header;
    header.SetSource(Mac48Address::ConvertFrom(m_device->GetAddress()));
    header.SetQuanta(priority, quanta);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(header);
    // MAC control frames go ahead of queued data, but not through the frame on the wire.
    Time now = Simulator::Now();
    Time freeAt = TxFreeAt();
    Time start = freeAt > now ? freeAt : now;
    m_pauseFreeAt = start + GetRate().CalculateBytesTxTime(PfcHeader::SIZE);
    m_lastWasPause = true;
    if (start == now)
    {
        StartPause(frame, priority, quanta);
    }
    else
    {
        Simulator::Schedule(start - now, &PfcPort::StartPause, this, frame, priority, quanta);
    }
}

void
PfcPort::StartPause(Ptr<Packet> frame, uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +priority << quanta);
    if (quanta == 0)
    {
        m_counters.resumesSent++;
    }
    else
    {
        m_counters.pausesSent++;
    }
    m_pauseSentTrace(priority, quanta);
    Ptr<PfcPort> peer = GetPeer();
    if (!peer)
    {
        return; // the other end does not speak PFC: the frame is ignored, as by a MAC without it
    }
    Time arrival = GetRate().CalculateBytesTxTime(PfcHeader::SIZE) + GetDelay();
    Simulator::ScheduleWithContext(peer->m_device->GetNode()->GetId(),
                                   arrival,
                                   &PfcPort::ReceivePause,
                                   peer,
                                   frame);
}

void
PfcPort::ReceivePause(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    PfcHeader header;
    if (frame->GetSize() < PfcHeader::SIZE || frame->PeekHeader(header) != PfcHeader::SIZE ||
        !header.IsValid())
    {
        return;
    }
    Time now = Simulator::Now();
    for (uint8_t p = 0; p < PfcHeader::N_PRIORITIES; p++)
    {
        if (!header.IsEnabled(p))
        {
            continue;
        }
        uint16_t quanta = header.GetQuanta(p);
        m_pauseReceivedTrace(p, quanta);
        if (quanta == 0)
        {
            m_counters.resumesReceived++;
            Resume(p);
            continue;
        }
        m_counters.pausesReceived++;
        m_expiry[p].Cancel();
        m_expiry[p] = Simulator::Schedule(PfcHeader::QuantaToTime(quanta, GetRate()),
                                          &PfcPort::Resume,
                                          this,
                                          p);
        if (!m_paused[p])
        {
            m_paused[p] = true;
            m_pausedSince[p] = now;
            if (p == m_priority)
            {
                m_counters.pauses++;
                NotifyDataState(true);
            }
        }
    }
}

void
PfcPort::Resume(uint8_t priority)
{
    NS_LOG_FUNCTION(this << +priority);
    m_expiry[priority].Cancel();
    if (!m_paused[priority])
    {
        return;
    }
    m_paused[priority] = false;
    Time paused = Simulator::Now() - m_pausedSince[priority];
    m_pausedTotal[priority] += paused;
    m_resumedTrace(priority, paused);
    if (priority == m_priority)
    {
        NotifyDataState(false);
    }
}

void
PfcPort::NotifyDataState(bool paused)
{
    Ptr<TrafficControlLayer> tc = m_device->GetNode()->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> qd = tc ? tc->GetRootQueueDiscOnDevice(m_device) : nullptr;
    if (Ptr<EcnQueueDisc> ecn = DynamicCast<EcnQueueDisc>(qd))
    {
        ecn->SetDataBandPaused(paused);
    }
    for (const StateCallback& cb : m_stateCallbacks)
    {
        cb(paused);
    }
}

bool
PfcPort::IsPaused(uint8_t priority) const
{
    return priority < PfcHeader::N_PRIORITIES && m_paused[priority];
}

bool
PfcPort::IsDataPaused() const
{
    return m_paused[m_priority];
}

uint8_t
PfcPort::GetPriority() const
{
    return m_priority;
}

Time
PfcPort::GetPausedTime(uint8_t priority) const
{
    NS_ABORT_MSG_IF(priority >= PfcHeader::N_PRIORITIES,
                    "PfcPort: priority " << +priority << " must be 0 to 7");
    Time total = m_pausedTotal[priority];
    if (m_paused[priority])
    {
        total += Simulator::Now() - m_pausedSince[priority];
    }
    return total;
}

const PfcPort::Counters&
PfcPort::GetCounters() const
{
    return m_counters;
}

void
PfcPort::AddStateCallback(StateCallback cb)
{
    m_stateCallbacks.push_back(cb);
}

} // namespace ns3
