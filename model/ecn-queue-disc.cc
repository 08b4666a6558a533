/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecn-queue-disc.h"

#include "reps-ns3-compat.h"
#include "roce-bth-header.h"
#include "roce-credit-request-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/enum.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcnQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(EcnQueueDisc);

TypeId
EcnQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcnQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Reps")
            .AddConstructor<EcnQueueDisc>()
            .AddAttribute("MaxSize",
                          "Capacity of the data band, in packets or bytes (a hard limit).",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("Kmin",
                          "Length of the data band (same unit as MaxSize) at and below which "
                          "nothing is marked.",
                          QueueSizeValue(QueueSize("20p")),
                          MakeQueueSizeAccessor(&EcnQueueDisc::m_kmin),
                          MakeQueueSizeChecker())
            .AddAttribute("Kmax",
                          "Length of the data band (same unit as MaxSize) at and above which "
                          "every ECT packet is marked; must be larger than Kmin.",
                          QueueSizeValue(QueueSize("80p")),
                          MakeQueueSizeAccessor(&EcnQueueDisc::m_kmax),
                          MakeQueueSizeChecker())
            .AddAttribute("MaxProbability",
                          "Marking probability just below Kmax (0 to 1); the probability rises "
                          "linearly from 0 at Kmin to this value at Kmax, and is 1 from Kmax on.",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&EcnQueueDisc::m_maxProbability),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("DropNonEct",
                          "Drop (instead of mark) a non-ECT packet chosen for marking, as RED "
                          "with UseEcn does.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EcnQueueDisc::m_dropNonEct),
                          MakeBooleanChecker())
            .AddAttribute("Trimming",
                          "When the data band is full, trim a RoCEv2 data packet to its headers "
                          "and queue it in the priority band instead of dropping it.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&EcnQueueDisc::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute(
                "TrimMode",
                "How Trimming cuts a packet: Header (to its IPv4, UDP and BTH headers "
                "and the ICRC) or Uec (to TrimSize bytes, with the DSCP rewritten to "
                "TrimmedDscp, as Ultra Ethernet specifies). Both set the BTH's "
                "trimmed bit, so that the receiver handles both alike.",
                EnumValue(EcnQueueDisc::TRIM_HEADER),
                REPS_MAKE_ENUM_ACCESSOR(EcnQueueDisc::TrimMode, &EcnQueueDisc::m_trimMode),
                MakeEnumChecker(EcnQueueDisc::TRIM_HEADER, "Header", EcnQueueDisc::TRIM_UEC, "Uec"))
            .AddAttribute("TrimSize",
                          "TrimMode Uec: bytes kept of a trimmed packet, IPv4 header included "
                          "(44 to 9000: at least the IPv4, UDP and BTH headers and the ICRC).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&EcnQueueDisc::m_trimSize),
                          MakeUintegerChecker<uint32_t>(44, 9000))
            .AddAttribute("TrimmedDscp",
                          "TrimMode Uec: the DSCP of trimmed packets (0 to 63).",
                          UintegerValue(46),
                          MakeUintegerAccessor(&EcnQueueDisc::m_trimmedDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("ControlPriority",
                          "Serve RoCEv2 control packets (ACKs, NACKs, CNPs: a BTH opcode that is "
                          "not a data opcode) from the strict-priority band ahead of data, as "
                          "UEC switches and the REPS evaluation do; false queues them with data.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EcnQueueDisc::m_controlPriority),
                          MakeBooleanChecker())
            .AddAttribute("MarkOn",
                          "When ECN marking is decided: Dequeue (as a data packet leaves, from "
                          "the data band's length then; the REPS evaluation's switches) or "
                          "Enqueue (as it arrives, from the length it finds).",
                          EnumValue(EcnQueueDisc::MARK_ON_DEQUEUE),
                          REPS_MAKE_ENUM_ACCESSOR(EcnQueueDisc::MarkOn, &EcnQueueDisc::m_markOn),
                          MakeEnumChecker(EcnQueueDisc::MARK_ON_DEQUEUE,
                                          "Dequeue",
                                          EcnQueueDisc::MARK_ON_ENQUEUE,
                                          "Enqueue"))
            .AddAttribute("LastHopEcn",
                          "Whether a leaf's queue toward a host (the last hop of the packets it "
                          "sends) marks ECN; false leaves congestion at the receiver to trimming "
                          "and last-hop NACKs, while the queues inside the fabric, which ignore "
                          "this, still mark.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EcnQueueDisc::m_lastHopEcn),
                          MakeBooleanChecker())
            .AddAttribute("PriorityBandMaxSize",
                          "Capacity of the strict-priority band that holds control packets and "
                          "trimmed headers.",
                          QueueSizeValue(QueueSize("1000p")),
                          MakeQueueSizeAccessor(&EcnQueueDisc::m_prioBandSize),
                          MakeQueueSizeChecker())
            .AddTraceSource("Trim",
                            "A packet was trimmed to its headers and queued in the priority band.",
                            MakeTraceSourceAccessor(&EcnQueueDisc::m_trimTrace),
                            "ns3::EcnQueueDisc::TrimTracedCallback");
    return tid;
}

EcnQueueDisc::EcnQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES, QueueSizeUnit::PACKETS),
      m_maxProbability(1.0),
      m_dropNonEct(true),
      m_trimming(false),
      m_trimMode(TRIM_HEADER),
      m_trimSize(64),
      m_trimmedDscp(46),
      m_controlPriority(true),
      m_markOn(MARK_ON_DEQUEUE),
      m_lastHop(false),
      m_lastHopEcn(true),
      m_dataPaused(false),
      m_byteSeconds(0),
      m_packetSeconds(0)
{
    NS_LOG_FUNCTION(this);
    m_uv = CreateObject<UniformRandomVariable>();
}

EcnQueueDisc::~EcnQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
EcnQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_uv = nullptr;
    m_trimmed = nullptr;
    m_prio = nullptr;
    m_data = nullptr;
    QueueDisc::DoDispose();
}

int64_t
EcnQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uv->SetStream(stream);
    return 1;
}

const EcnQueueDisc::Counters&
EcnQueueDisc::GetCounters() const
{
    return m_counters;
}

double
EcnQueueDisc::GetMarkProbability(uint32_t length) const
{
    uint32_t kmin = m_kmin.GetValue();
    uint32_t kmax = m_kmax.GetValue();
    if (length <= kmin)
    {
        return 0.0;
    }
    if (length >= kmax)
    {
        return 1.0;
    }
    return m_maxProbability * static_cast<double>(length - kmin) / static_cast<double>(kmax - kmin);
}

bool
EcnQueueDisc::DrawMark(uint32_t length)
{
    if (m_lastHop && !m_lastHopEcn)
    {
        return false;
    }
    double p = GetMarkProbability(length);
    return p > 0.0 && (p >= 1.0 || m_uv->GetValue() < p);
}

uint32_t
EcnQueueDisc::DataLength() const
{
    return GetMaxSize().GetUnit() == QueueSizeUnit::PACKETS ? m_data->GetNPackets()
                                                            : m_data->GetNBytes();
}

bool
EcnQueueDisc::IsControlPacket(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ipItem = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (!ipItem || ipItem->GetHeader().GetProtocol() != 17 ||
        ipItem->GetHeader().GetFragmentOffset() != 0)
    {
        return false;
    }
    // UDP header (8 bytes), then the BTH: its opcode is byte 0, the trimmed bit is in byte 4.
    constexpr uint32_t needed = 8 + 5;
    Ptr<const Packet> p = item->GetPacket();
    if (p->GetSize() < needed)
    {
        return false;
    }
    uint8_t bytes[needed];
    p->CopyData(bytes, needed);
    uint16_t dstPort = static_cast<uint16_t>((bytes[2] << 8) | bytes[3]);
    if (dstPort != RoceBthHeader::UDP_PORT)
    {
        return false;
    }
    return !RoceBthHeader::IsDataOpCode(bytes[8]) ||
           (bytes[8 + 4] & RoceBthHeader::TRIMMED_BIT) != 0;
}

void
EcnQueueDisc::Integrate()
{
    Time now = Simulator::Now();
    double dt = static_cast<double>((now - m_lastChange).GetNanoSeconds());
    if (dt > 0)
    {
        m_byteSeconds += dt * (m_prio->GetNBytes() + m_data->GetNBytes());
        m_packetSeconds += dt * (m_prio->GetNPackets() + m_data->GetNPackets());
    }
    m_lastChange = now;
}

void
EcnQueueDisc::UpdateMax()
{
    uint32_t packets = m_prio->GetNPackets() + m_data->GetNPackets();
    uint32_t bytes = m_prio->GetNBytes() + m_data->GetNBytes();
    if (packets > m_counters.maxPackets)
    {
        m_counters.maxPackets = packets;
    }
    if (bytes > m_counters.maxBytes)
    {
        m_counters.maxBytes = bytes;
    }
}

double
EcnQueueDisc::TimeAverage(double integral, uint32_t length) const
{
    double now = static_cast<double>(Simulator::Now().GetNanoSeconds());
    if (now <= 0)
    {
        return 0.0;
    }
    double pending = (now - static_cast<double>(m_lastChange.GetNanoSeconds())) * length;
    return (integral + pending) / now;
}

double
EcnQueueDisc::GetAverageBytes() const
{
    return m_data ? TimeAverage(m_byteSeconds, m_prio->GetNBytes() + m_data->GetNBytes()) : 0.0;
}

double
EcnQueueDisc::GetAveragePackets() const
{
    return m_data ? TimeAverage(m_packetSeconds, m_prio->GetNPackets() + m_data->GetNPackets())
                  : 0.0;
}

Ptr<QueueDiscItem>
EcnQueueDisc::Trim(Ptr<QueueDiscItem> item) const
{
    NS_LOG_FUNCTION(this << item);
    Ptr<Ipv4QueueDiscItem> ipItem = DynamicCast<Ipv4QueueDiscItem>(item);
    if (!ipItem || ipItem->GetHeader().GetProtocol() != 17)
    {
        return nullptr;
    }
    constexpr uint32_t base = 8 + RoceBthHeader::SIZE;
    Ptr<const Packet> original = item->GetPacket();
    if (original->GetSize() < base + RoceBthHeader::ICRC_SIZE)
    {
        return nullptr;
    }
    // A credit request of receiver credits (the BTH's C bit) is a header too: the receiver's
    // pull pacer reads it from the trimmed packet.
    uint8_t front[base];
    original->CopyData(front, base);
    const bool hasRequest =
        (front[8 + 4] & RoceBthHeader::CREDIT_REQUEST_BIT) != 0 &&
        original->GetSize() >= base + RoceCreditRequestHeader::SIZE + RoceBthHeader::ICRC_SIZE;
    const uint32_t headers = base + (hasRequest ? RoceCreditRequestHeader::SIZE : 0);
    // Copy() keeps the packet tags (flow monitor, priority) of the original.
    Ptr<Packet> p = original->Copy();
    p->RemoveAtEnd(p->GetSize() - headers - RoceBthHeader::ICRC_SIZE);
    // UEC: the first TrimSize bytes of the IPv4 packet (the payload cut after the headers;
    // what is left of it stands for the data and the ICRC).
    uint32_t keep = headers + RoceBthHeader::ICRC_SIZE;
    if (m_trimMode == TRIM_UEC)
    {
        constexpr uint32_t ipHeader = 20;
        keep = std::max(keep, std::min(original->GetSize(), m_trimSize - ipHeader));
    }
    Ptr<Packet> tail = keep > headers + RoceBthHeader::ICRC_SIZE
                           ? original->CreateFragment(base, keep - base)
                           : nullptr;
    UdpHeader udp;
    p->RemoveHeader(udp);
    if (udp.GetDestinationPort() != RoceBthHeader::UDP_PORT)
    {
        return nullptr;
    }
    RoceBthHeader bth;
    if (p->RemoveHeader(bth) != RoceBthHeader::SIZE || !bth.IsData() || bth.IsTrimmed())
    {
        return nullptr;
    }
    // What is left is the credit request, if any, and ICRC_SIZE bytes standing for the ICRC
    // trailer of the trimmed packet.
    if (tail)
    {
        p = tail;
    }
    bth.SetTrimmed(true);
    bth.SetTrimmedAtLastHop(m_lastHop);
    p->AddHeader(bth);
    UdpHeader trimmedUdp; // a fresh header, so that the length field is recomputed
    trimmedUdp.SetSourcePort(udp.GetSourcePort());
    trimmedUdp.SetDestinationPort(udp.GetDestinationPort());
    Ipv4Header ip = ipItem->GetHeader();
    if (Node::ChecksumEnabled())
    {
        trimmedUdp.EnableChecksums();
        trimmedUdp.InitializeChecksum(ip.GetSource(), ip.GetDestination(), 17);
    }
    p->AddHeader(trimmedUdp);
    ip.SetPayloadSize(p->GetSize());
    if (m_trimMode == TRIM_UEC)
    {
        ip.SetDscp(static_cast<Ipv4Header::DscpType>(m_trimmedDscp));
    }
    Ptr<Ipv4QueueDiscItem> trimmed =
        Create<Ipv4QueueDiscItem>(p, item->GetAddress(), item->GetProtocol(), ip);
    trimmed->SetTxQueueIndex(item->GetTxQueueIndex());
    return trimmed;
}

bool
EcnQueueDisc::IsTrimming() const
{
    return m_trimming;
}

void
EcnQueueDisc::SetLastHop(bool lastHop)
{
    NS_LOG_FUNCTION(this << lastHop);
    m_lastHop = lastHop;
}

bool
EcnQueueDisc::IsLastHop() const
{
    return m_lastHop;
}

std::string
EcnQueueDisc::ValidateSizes(QueueSize maxSize,
                            QueueSize priorityBandMaxSize,
                            QueueSize kmin,
                            QueueSize kmax)
{
    // The attributes' checkers accept any queue size.
    std::ostringstream os;
    if (maxSize.GetValue() == 0)
    {
        os << "EcnQueueDisc: MaxSize (" << maxSize
           << ") must be positive (an empty data band drops every packet)";
    }
    else if (priorityBandMaxSize.GetValue() == 0)
    {
        os << "EcnQueueDisc: PriorityBandMaxSize (" << priorityBandMaxSize
           << ") must be positive (control packets and trimmed headers would all be dropped)";
    }
    else if (kmin.GetUnit() != maxSize.GetUnit() || kmax.GetUnit() != maxSize.GetUnit())
    {
        os << "EcnQueueDisc: Kmin (" << kmin << ") and Kmax (" << kmax
           << ") must use the unit of MaxSize (" << maxSize << ")";
    }
    else if (kmin.GetValue() >= kmax.GetValue())
    {
        os << "EcnQueueDisc: Kmin (" << kmin << ") must be smaller than Kmax (" << kmax << ")";
    }
    return os.str();
}

std::string
EcnQueueDisc::Validate() const
{
    return ValidateSizes(GetMaxSize(), m_prioBandSize, m_kmin, m_kmax);
}

namespace
{

/**
 * The value the objects a factory creates get for a queue-size attribute.
 * \param factory the factory
 * \param name an attribute of its type
 * \return the value given to the factory, else the attribute's initial value
 */
QueueSize
FactoryQueueSize(const ObjectFactory& factory, const std::string& name)
{
    TypeId::AttributeInformation info;
    bool found = factory.GetTypeId().LookupAttributeByName(name, &info);
    NS_ASSERT_MSG(found, factory.GetTypeId().GetName() << " has no attribute " << name);
    QueueSizeValue value;
    bool given = false;
    // ObjectFactory has no accessor for the values it holds; its text form, documented as
    // "<TypeId-name>[<attribute-name>=<attribute-value>|...]", lists each attribute once.
    std::ostringstream os;
    os << factory;
    const std::string text = os.str();
    const std::string::size_type open = text.find('[');
    const std::string::size_type close = text.rfind(']');
    if (open != std::string::npos && close != std::string::npos && close > open)
    {
        std::istringstream list(text.substr(open + 1, close - open - 1));
        std::string item;
        while (std::getline(list, item, '|'))
        {
            const std::string::size_type eq = item.find('=');
            if (eq != std::string::npos && item.substr(0, eq) == name &&
                value.DeserializeFromString(item.substr(eq + 1), info.checker))
            {
                given = true;
            }
        }
    }
    if (!given)
    {
        Ptr<const QueueSizeValue> initial = DynamicCast<const QueueSizeValue>(info.initialValue);
        NS_ASSERT_MSG(initial, name << " is not a queue size");
        value.Set(initial->Get());
    }
    return value.Get();
}

} // namespace

std::string
EcnQueueDisc::Validate(const ObjectFactory& factory)
{
    const TypeId tid = factory.GetTypeId();
    if (tid != GetTypeId() && !tid.IsChildOf(GetTypeId()))
    {
        return "EcnQueueDisc: the factory creates " + tid.GetName() + ", not an ns3::EcnQueueDisc";
    }
    return ValidateSizes(FactoryQueueSize(factory, "MaxSize"),
                         FactoryQueueSize(factory, "PriorityBandMaxSize"),
                         FactoryQueueSize(factory, "Kmin"),
                         FactoryQueueSize(factory, "Kmax"));
}

Ptr<QueueDiscItem>
EcnQueueDisc::PrepareEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    if (!m_trimming || !m_data || !(m_data->GetCurrentSize() + item > GetMaxSize()))
    {
        return item;
    }
    Ptr<QueueDiscItem> trimmed = Trim(item);
    if (!trimmed)
    {
        return item;
    }
    m_trimmed = trimmed;
    return trimmed;
}

bool
EcnQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    bool trimmed = m_trimmed && item == m_trimmed;
    if (trimmed || (m_controlPriority && IsControlPacket(item)))
    {
        m_trimmed = nullptr;
        if (m_prio->GetCurrentSize() + item > m_prioBandSize)
        {
            m_counters.overflowDrops++;
            DropBeforeEnqueue(item, PRIORITY_BAND_DROP);
            return false;
        }
        Integrate();
        m_prio->Enqueue(item);
        m_counters.enqueuedPackets++;
        m_counters.enqueuedBytes += item->GetSize();
        UpdateMax();
        if (trimmed)
        {
            m_counters.trims++;
            m_trimTrace(item);
        }
        else
        {
            m_counters.controlPackets++;
        }
        return true;
    }

    if (m_data->GetCurrentSize() + item > GetMaxSize())
    {
        m_counters.overflowDrops++;
        DropBeforeEnqueue(item, OVERFLOW_DROP);
        return false;
    }

    if (m_markOn == MARK_ON_ENQUEUE && DrawMark(DataLength()))
    {
        if (Mark(item, ECN_MARK))
        {
            m_counters.marks++;
        }
        else if (m_dropNonEct)
        {
            m_counters.earlyDrops++;
            DropBeforeEnqueue(item, EARLY_DROP);
            return false;
        }
    }

    Integrate();
    bool ok = m_data->Enqueue(item);
    NS_ASSERT_MSG(ok, "the data band refused a packet that fits in MaxSize");
    m_counters.enqueuedPackets++;
    m_counters.enqueuedBytes += item->GetSize();
    UpdateMax();
    return ok;
}

Ptr<QueueDiscItem>
EcnQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    while (true)
    {
        bool fromData = !m_prio->Peek();
        if (fromData && m_dataPaused)
        {
            return nullptr;
        }
        Ptr<QueueDiscItem> item = fromData ? m_data->Dequeue() : m_prio->Dequeue();
        if (!item)
        {
            return nullptr;
        }
        // The interval that ends now still held the item just taken out: add its share.
        Time now = Simulator::Now();
        double dt = static_cast<double>((now - m_lastChange).GetNanoSeconds());
        Integrate();
        m_byteSeconds += dt * item->GetSize();
        m_packetSeconds += dt;
        if (fromData && m_markOn == MARK_ON_DEQUEUE && DrawMark(DataLength()))
        {
            if (Mark(item, ECN_MARK))
            {
                m_counters.marks++;
            }
            else if (m_dropNonEct)
            {
                m_counters.earlyDrops++;
                DropAfterDequeue(item, EARLY_DROP);
                continue;
            }
        }
        return item;
    }
}

Ptr<const QueueDiscItem>
EcnQueueDisc::DoPeek()
{
    NS_LOG_FUNCTION(this);
    Ptr<const QueueDiscItem> item = m_prio->Peek();
    if (item || m_dataPaused)
    {
        return item;
    }
    return m_data->Peek();
}

void
EcnQueueDisc::SetDataBandPaused(bool paused)
{
    NS_LOG_FUNCTION(this << paused);
    bool resumed = m_dataPaused && !paused;
    m_dataPaused = paused;
    if (resumed && m_data && m_data->GetNPackets() > 0)
    {
        Run();
    }
}

bool
EcnQueueDisc::IsDataBandPaused() const
{
    return m_dataPaused;
}

bool
EcnQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "EcnQueueDisc: cannot have classes");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0, "EcnQueueDisc: needs no packet filter");
    std::string error = Validate();
    NS_ABORT_MSG_IF(!error.empty(), error);
    if (GetNInternalQueues() == 0)
    {
        // Band 0: trimmed packets (strict priority). Band 1: data.
        AddInternalQueue(CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>(
            "MaxSize",
            QueueSizeValue(m_prioBandSize)));
        AddInternalQueue(
            CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>("MaxSize",
                                                                     QueueSizeValue(GetMaxSize())));
    }
    NS_ABORT_MSG_IF(GetNInternalQueues() != 2, "EcnQueueDisc: needs 2 internal queues");
    m_prio = GetInternalQueue(0);
    m_data = GetInternalQueue(1);
    return true;
}

void
EcnQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    m_lastChange = Simulator::Now();
}

} // namespace ns3
