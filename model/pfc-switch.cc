/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-switch.h"

#include "ecn-queue-disc.h"
#include "fabric-switch.h"
#include "pfc-header.h"
#include "pfc-port.h"
#include "reps-ns3-compat.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/tag.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcSwitch");

NS_OBJECT_ENSURE_REGISTERED(PfcSwitch);

/**
 * \ingroup reps
 * The ingress port a packet held by a PFC switch is counted against, and its bytes; replaced
 * by every switch that forwards the packet.
 */
class PfcIngressTag : public Tag
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PfcIngressTag")
                                .SetParent<Tag>()
                                .SetGroupName("Reps")
                                .AddConstructor<PfcIngressTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 12;
    }

    void Serialize(TagBuffer i) const override
    {
        i.WriteU32(node);
        i.WriteU32(port);
        i.WriteU32(bytes);
    }

    void Deserialize(TagBuffer i) override
    {
        node = i.ReadU32();
        port = i.ReadU32();
        bytes = i.ReadU32();
    }

    void Print(std::ostream& os) const override
    {
        os << "node=" << node << " port=" << port << " bytes=" << bytes;
    }

    uint32_t node{0};  //!< The switch node.
    uint32_t port{0};  //!< Its ingress port.
    uint32_t bytes{0}; //!< Bytes counted (0: not counted).
};

NS_OBJECT_ENSURE_REGISTERED(PfcIngressTag);

TypeId
PfcSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcSwitch")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<PfcSwitch>()
            .AddAttribute(
                "ThresholdMode",
                "How the XOFF threshold of a port is set: Dynamic (Alpha x the free "
                "shared buffer) or Static (StaticThreshold).",
                EnumValue(PfcSwitch::DYNAMIC),
                REPS_MAKE_ENUM_ACCESSOR(PfcSwitch::ThresholdMode, &PfcSwitch::m_mode),
                MakeEnumChecker(PfcSwitch::DYNAMIC, "Dynamic", PfcSwitch::STATIC, "Static"))
            .AddAttribute("SharedBufferSize",
                          "Shared buffer of the switch in bytes (1 KiB to 1 GiB), besides the "
                          "headroom of every port.",
                          UintegerValue(32 * 1024 * 1024),
                          MakeUintegerAccessor(&PfcSwitch::m_sharedBuffer),
                          MakeUintegerChecker<uint64_t>(1024, 1024ULL * 1024 * 1024))
            .AddAttribute("StaticThreshold",
                          "XOFF threshold of every port in bytes (1 KiB to 1 GiB), with "
                          "ThresholdMode Static.",
                          UintegerValue(512 * 1024),
                          MakeUintegerAccessor(&PfcSwitch::m_staticThreshold),
                          MakeUintegerChecker<uint64_t>(1024, 1024ULL * 1024 * 1024))
            .AddAttribute("Alpha",
                          "With ThresholdMode Dynamic, a port's XOFF threshold is Alpha x "
                          "(SharedBufferSize - bytes held); 1/128 to 64.",
                          DoubleValue(1.0 / 8),
                          MakeDoubleAccessor(&PfcSwitch::m_alpha),
                          MakeDoubleChecker<double>(1.0 / 128, 64))
            .AddAttribute("XonOffset",
                          "XON is sent when the count of a paused port falls this many bytes "
                          "below the XOFF threshold, or to zero (0 to 1 GiB).",
                          UintegerValue(2 * 9002),
                          MakeUintegerAccessor(&PfcSwitch::m_xonOffset),
                          MakeUintegerChecker<uint64_t>(0, 1024ULL * 1024 * 1024))
            .AddAttribute("PauseQuanta",
                          "Pause time of a PAUSE frame, in quanta of 512 bit times (1 to 65535); "
                          "the PAUSE is refreshed every half of it while the port is congested.",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&PfcSwitch::m_quanta),
                          MakeUintegerChecker<uint16_t>(1, 65535));
    return tid;
}

PfcSwitch::PfcSwitch()
    : m_mode(DYNAMIC),
      m_sharedBuffer(32 * 1024 * 1024),
      m_staticThreshold(512 * 1024),
      m_alpha(1.0 / 8),
      m_xonOffset(2 * 9002),
      m_quanta(65535),
      m_priority(3),
      m_held(0),
      m_maxHeld(0),
      m_nXoff(0),
      m_nodeId(0)
{
    NS_LOG_FUNCTION(this);
}

PfcSwitch::~PfcSwitch()
{
    NS_LOG_FUNCTION(this);
}

void
PfcSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (Ingress& in : m_ports)
    {
        in.refresh.Cancel();
        in.port = nullptr;
    }
    m_ports.clear();
    Object::DoDispose();
}

uint64_t
PfcSwitch::ComputeHeadroom(DataRate rate, Time delay, uint32_t mtu)
{
    // Bytes in flight over one propagation delay, rounded up.
    const uint64_t bitsInFlight =
        (static_cast<uint64_t>(rate.GetBitRate()) * static_cast<uint64_t>(delay.GetPicoSeconds()) +
         999999999999ULL) /
        1000000000000ULL;
    const uint64_t bytesInFlight = (bitsInFlight + 7) / 8;
    return 2 * bytesInFlight + 3 * (static_cast<uint64_t>(mtu) + 2) + PfcHeader::SIZE;
}

void
PfcSwitch::Setup(Ptr<FabricSwitch> sw)
{
    NS_LOG_FUNCTION(this << sw);
    NS_ABORT_MSG_IF(!sw, "PfcSwitch: Setup needs a FabricSwitch");
    NS_ABORT_MSG_IF(!m_ports.empty(), "PfcSwitch: Setup may be called once");
    Ptr<Node> node = sw->GetObject<Node>();
    m_nodeId = node ? node->GetId() : 0;
    uint64_t headroomTotal = 0;
    std::vector<Ptr<EcnQueueDisc>> queues;
    for (uint32_t p = 0; p < sw->GetNPorts(); p++)
    {
        Ptr<NetDevice> device = sw->GetPortDevice(p);
        Ingress in;
        in.port = device->GetObject<PfcPort>();
        NS_ABORT_MSG_IF(!in.port,
                        "PfcSwitch: port " << p << " of node " << m_nodeId
                                           << " has no PfcPort aggregated to its device");
        Ptr<EcnQueueDisc> qd = DynamicCast<EcnQueueDisc>(sw->GetPortQueueDisc(p));
        NS_ABORT_MSG_IF(!qd,
                        "PfcSwitch: port " << p << " of node " << m_nodeId
                                           << " needs an ns3::EcnQueueDisc (PFC stops its data "
                                              "band)");
        m_priority = in.port->GetPriority();
        in.headroom = ComputeHeadroom(in.port->GetRate(), in.port->GetDelay(), device->GetMtu());
        headroomTotal += in.headroom;
        qd->TraceConnectWithoutContext("Dequeue", MakeCallback(&PfcSwitch::Released, this));
        qd->TraceConnectWithoutContext("DropBeforeEnqueue",
                                       MakeCallback(&PfcSwitch::Dropped, this));
        queues.push_back(qd);
        m_ports.push_back(in);
    }
    // A lossless switch bounds its queues by its buffer, not by a per-port size.
    const uint64_t buffer = m_sharedBuffer + headroomTotal;
    for (const Ptr<EcnQueueDisc>& qd : queues)
    {
        QueueSize size = qd->GetMaxSize();
        // Every packet queued carries at least its 20-byte IPv4 header.
        uint64_t limit = size.GetUnit() == QueueSizeUnit::BYTES ? buffer : buffer / 20 + 1;
        limit = std::min<uint64_t>(limit, UINT32_MAX);
        if (limit > size.GetValue())
        {
            qd->SetMaxSize(QueueSize(size.GetUnit(), static_cast<uint32_t>(limit)));
        }
    }
}

uint64_t
PfcSwitch::GetXoffThreshold() const
{
    if (m_mode == STATIC)
    {
        return m_staticThreshold;
    }
    uint64_t free = m_sharedBuffer > m_held ? m_sharedBuffer - m_held : 0;
    return static_cast<uint64_t>(m_alpha * static_cast<double>(free));
}

uint64_t
PfcSwitch::GetBufferSize() const
{
    uint64_t total = m_sharedBuffer;
    for (const Ingress& in : m_ports)
    {
        total += in.headroom;
    }
    return total;
}

uint64_t
PfcSwitch::GetHeldBytes() const
{
    return m_held;
}

uint64_t
PfcSwitch::GetMaxHeldBytes() const
{
    return m_maxHeld;
}

uint32_t
PfcSwitch::GetNPorts() const
{
    return m_ports.size();
}

const PfcSwitch::Ingress&
PfcSwitch::GetIngress(uint32_t port) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "PfcSwitch: port " << port << " must be below " << m_ports.size());
    return m_ports[port];
}

void
PfcSwitch::NotifyForward(uint32_t inPort, Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << inPort << item);
    NS_ASSERT(inPort < m_ports.size());
    PfcIngressTag tag;
    tag.node = m_nodeId;
    tag.port = inPort;
    tag.bytes = EcnQueueDisc::IsControlPacket(item) ? 0 : item->GetSize();
    // The tag of the previous switch, if any, is replaced: a packet is counted where it is.
    item->GetPacket()->ReplacePacketTag(tag);
    if (tag.bytes == 0)
    {
        return;
    }
    Ingress& in = m_ports[inPort];
    in.bytes += tag.bytes;
    in.maxBytes = std::max(in.maxBytes, in.bytes);
    m_held += tag.bytes;
    m_maxHeld = std::max(m_maxHeld, m_held);
    Check(inPort);
}

void
PfcSwitch::Dropped(Ptr<const QueueDiscItem> item, const char* reason)
{
    Released(item);
}

void
PfcSwitch::Released(Ptr<const QueueDiscItem> item)
{
    PfcIngressTag tag;
    if (!item->GetPacket()->PeekPacketTag(tag) || tag.node != m_nodeId || tag.bytes == 0 ||
        tag.port >= m_ports.size())
    {
        return;
    }
    Ingress& in = m_ports[tag.port];
    NS_ASSERT(in.bytes >= tag.bytes && m_held >= tag.bytes);
    in.bytes -= tag.bytes;
    m_held -= tag.bytes;
    Check(tag.port);
    if (m_mode == DYNAMIC && m_nXoff > 0)
    {
        // The threshold of every port rose with the freed buffer.
        for (uint32_t p = 0; p < m_ports.size() && m_nXoff > 0; p++)
        {
            if (m_ports[p].xoff)
            {
                Check(p);
            }
        }
    }
}

void
PfcSwitch::Check(uint32_t port)
{
    Ingress& in = m_ports[port];
    uint64_t threshold = GetXoffThreshold();
    if (!in.xoff && in.bytes > threshold)
    {
        NS_LOG_LOGIC("XOFF port " << port << " bytes " << in.bytes << " threshold " << threshold);
        in.xoff = true;
        m_nXoff++;
        in.port->SendPause(m_priority, m_quanta);
        in.refresh = Simulator::Schedule(RefreshInterval(in), &PfcSwitch::Refresh, this, port);
    }
    else if (in.xoff && (in.bytes == 0 || in.bytes + m_xonOffset <= threshold))
    {
        NS_LOG_LOGIC("XON port " << port << " bytes " << in.bytes << " threshold " << threshold);
        in.xoff = false;
        m_nXoff--;
        in.refresh.Cancel();
        in.port->SendPause(m_priority, 0);
    }
}

Time
PfcSwitch::RefreshInterval(const Ingress& in) const
{
    // Half the pause time, so that the upstream device never resumes between refreshes.
    Time half = PfcHeader::QuantaToTime(m_quanta, in.port->GetRate()) / 2;
    return std::max(half, NanoSeconds(1));
}

void
PfcSwitch::Refresh(uint32_t port)
{
    Ingress& in = m_ports[port];
    if (!in.xoff)
    {
        return;
    }
    in.port->SendPause(m_priority, m_quanta);
    in.refresh = Simulator::Schedule(RefreshInterval(in), &PfcSwitch::Refresh, this, port);
}

} // namespace ns3
