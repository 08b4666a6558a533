/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clos-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/fabric-link-error-model.h"
#include "ns3/hash.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/red-queue-disc.h"
#include "ns3/reps-ns3-compat.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClosFabricHelper");

NS_OBJECT_ENSURE_REGISTERED(ClosFabricHelper);

TypeId
ClosFabricHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClosFabricHelper")
            .SetParent<Object>()
            .SetGroupName("Reps")
            .AddConstructor<ClosFabricHelper>()
            .AddAttribute("Tiers",
                          "2 (leaf-spine) or 3 (pods of leaves and aggregation switches, plus "
                          "cores).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ClosFabricHelper::m_tiers),
                          MakeUintegerChecker<uint32_t>(2, 3))
            .AddAttribute("Leaves",
                          "Number of leaves of a 2-tier fabric.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClosFabricHelper::m_leaves),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostsPerLeaf",
                          "Number of hosts attached to each leaf.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClosFabricHelper::m_hostsPerLeaf),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Spines",
                          "Number of spines of a 2-tier fabric (each linked to every leaf).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClosFabricHelper::m_spines),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pods",
                          "Number of pods of a 3-tier fabric.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ClosFabricHelper::m_pods),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LeavesPerPod",
                          "Number of leaves in each pod of a 3-tier fabric.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ClosFabricHelper::m_leavesPerPod),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AggsPerPod",
                          "Number of aggregation switches in each pod of a 3-tier fabric (each "
                          "linked to every leaf of its pod).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ClosFabricHelper::m_aggsPerPod),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Cores",
                          "Number of core switches of a 3-tier fabric, a multiple of AggsPerPod: "
                          "aggregation switch i of every pod is linked to cores "
                          "[i * Cores / AggsPerPod, (i + 1) * Cores / AggsPerPod).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ClosFabricHelper::m_cores),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ParallelLinks",
                          "Number of parallel links between two linked switches.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ClosFabricHelper::m_parallel),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LeafRadix",
                          "Number of ports of a leaf switch, to check the shape against "
                          "(0: not checked).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosFabricHelper::m_leafRadix),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostLinkRate",
                          "Rate of the host-leaf links.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&ClosFabricHelper::m_hostRate),
                          MakeDataRateChecker())
            .AddAttribute("HostLinkDelay",
                          "Propagation delay of the host-leaf links.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&ClosFabricHelper::m_hostDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("LeafUplinkRate",
                          "Rate of the leaf-spine (2-tier) or leaf-aggregation (3-tier) links.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&ClosFabricHelper::m_leafUpRate),
                          MakeDataRateChecker())
            .AddAttribute("LeafUplinkDelay",
                          "Propagation delay of the leaf-spine or leaf-aggregation links.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&ClosFabricHelper::m_leafUpDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("AggUplinkRate",
                          "Rate of the aggregation-core links (3-tier).",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&ClosFabricHelper::m_aggUpRate),
                          MakeDataRateChecker())
            .AddAttribute("AggUplinkDelay",
                          "Propagation delay of the aggregation-core links (3-tier).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&ClosFabricHelper::m_aggUpDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("HostQueueSize",
                          "Capacity of the transmit queue of a host's device (the NIC queue "
                          "when no host queue disc is set).",
                          QueueSizeValue(QueueSize("1000p")),
                          MakeQueueSizeAccessor(&ClosFabricHelper::m_hostQueueSize),
                          MakeQueueSizeChecker())
            .AddAttribute("Mtu",
                          "MTU of every device (largest IPv4 packet, bytes). The default leaves "
                          "room for a 4096-byte RoCEv2 payload with its headers; ns-3's own "
                          "default of 1500 would fragment such packets.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&ClosFabricHelper::m_mtu),
                          MakeUintegerChecker<uint32_t>(68, 65535))
            .AddAttribute("QueueMaxSize",
                          "Capacity of each switch egress queue (MaxSize of the queue disc), in "
                          "packets or bytes.",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&ClosFabricHelper::m_queueMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnKmin",
                          "ECN marking starts above this queue length (unit of QueueMaxSize).",
                          QueueSizeValue(QueueSize("20p")),
                          MakeQueueSizeAccessor(&ClosFabricHelper::m_kmin),
                          MakeQueueSizeChecker())
            .AddAttribute("EcnKmax",
                          "Every ECT packet is marked from this queue length on (unit of "
                          "QueueMaxSize).",
                          QueueSizeValue(QueueSize("80p")),
                          MakeQueueSizeAccessor(&ClosFabricHelper::m_kmax),
                          MakeQueueSizeChecker())
            .AddAttribute("Trimming",
                          "Switch queues trim RoCEv2 data packets instead of dropping them when "
                          "full (ns3::EcnQueueDisc only).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ClosFabricHelper::m_trimming),
                          MakeBooleanChecker())
            .AddAttribute("HashSeed",
                          "Seed of the per-switch flow-hash salts (each switch's salt is a hash "
                          "of the seed and the switch's position in the fabric).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ClosFabricHelper::m_hashSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ForwardingMode",
                          "How switches choose among equal-cost egress ports.",
                          EnumValue(FabricSwitch::FLOW_HASH),
                          REPS_MAKE_ENUM_ACCESSOR(FabricSwitch::Mode, &ClosFabricHelper::m_mode),
                          MakeEnumChecker(FabricSwitch::FLOW_HASH,
                                          "FlowHash",
                                          FabricSwitch::RANDOM,
                                          "Random",
                                          FabricSwitch::ADAPTIVE,
                                          "Adaptive"))
            .AddAttribute("RoutingConvergenceDelay",
                          "RoutingConvergenceDelay of the fabric built (Time::Max(): never).",
                          TimeValue(Time::Max()),
                          MakeTimeAccessor(&ClosFabricHelper::m_convergenceDelay),
                          MakeTimeChecker(Seconds(0), Time::Max()))
            .AddAttribute("HostAddressBase",
                          "Host h gets address HostAddressBase + 1 + h.",
                          Ipv4AddressValue(Ipv4Address("10.0.0.0")),
                          MakeIpv4AddressAccessor(&ClosFabricHelper::m_base),
                          MakeIpv4AddressChecker())
            .AddAttribute("HostAddressMask",
                          "Network mask of the host addresses (all hosts share one network).",
                          Ipv4MaskValue(Ipv4Mask("255.0.0.0")),
                          MakeIpv4MaskAccessor(&ClosFabricHelper::m_mask),
                          MakeIpv4MaskChecker())
            .AddAttribute("Systems",
                          "Number of MPI systems (ranks) the nodes are spread over: the hosts "
                          "and switches of a pod (3-tier) or leaf group (2-tier) share a "
                          "systemId; spines and cores are spread round-robin.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ClosFabricHelper::m_systems),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

ClosFabricHelper::ClosFabricHelper()
    : m_fatTreeK(0),
      m_oversubscription(0),
      m_mode(FabricSwitch::FLOW_HASH),
      m_switchQdType("ns3::EcnQueueDisc")
{
    NS_LOG_FUNCTION(this);
}

ClosFabricHelper::~ClosFabricHelper()
{
    NS_LOG_FUNCTION(this);
}

void
ClosFabricHelper::SetFatTree(uint32_t k)
{
    NS_LOG_FUNCTION(this << k);
    m_fatTreeK = k;
    m_tiers = 3;
    m_pods = k;
    m_leavesPerPod = k / 2;
    m_aggsPerPod = k / 2;
    m_hostsPerLeaf = k / 2;
    m_cores = (k / 2) * (k / 2);
}

void
ClosFabricHelper::SetOversubscription(double ratio)
{
    NS_LOG_FUNCTION(this << ratio);
    NS_ABORT_MSG_IF(!(ratio >= 1.0),
                    "ClosFabricHelper: Oversubscription (" << ratio << ") must be >= 1");
    m_oversubscription = ratio;
}

std::string
ClosFabricHelper::Validate() const
{
    std::ostringstream os;
    if (m_fatTreeK != 0 && (m_fatTreeK < 2 || m_fatTreeK % 2 != 0))
    {
        os << "FatTree k (" << m_fatTreeK << ") must be even and >= 2";
        return os.str();
    }
    if (m_hostsPerLeaf == 0)
    {
        return "HostsPerLeaf must be >= 1";
    }
    if (m_parallel == 0)
    {
        return "ParallelLinks must be >= 1";
    }
    uint32_t uplinks = 0;
    uint32_t leaves = 0;
    if (m_tiers == 2)
    {
        if (m_leaves == 0)
        {
            return "Leaves must be >= 1";
        }
        if (m_spines == 0)
        {
            return "Spines must be >= 1";
        }
        uplinks = m_spines * m_parallel;
        leaves = m_leaves;
    }
    else
    {
        if (m_pods == 0)
        {
            return "Pods must be >= 1";
        }
        if (m_leavesPerPod == 0)
        {
            return "LeavesPerPod must be >= 1";
        }
        if (m_aggsPerPod == 0)
        {
            return "AggsPerPod must be >= 1";
        }
        if (m_cores == 0)
        {
            return "Cores must be >= 1";
        }
        if (m_cores % m_aggsPerPod != 0)
        {
            os << "Cores (" << m_cores << ") must be a multiple of AggsPerPod (" << m_aggsPerPod
               << ")";
            return os.str();
        }
        uplinks = m_aggsPerPod * m_parallel;
        leaves = m_pods * m_leavesPerPod;
    }
    if (m_leafRadix != 0)
    {
        if (m_hostsPerLeaf > m_leafRadix)
        {
            os << "HostsPerLeaf (" << m_hostsPerLeaf << ") must be at most LeafRadix ("
               << m_leafRadix << ")";
            return os.str();
        }
        if (m_hostsPerLeaf + uplinks > m_leafRadix)
        {
            os << "HostsPerLeaf (" << m_hostsPerLeaf << ") plus the up-links of a leaf (" << uplinks
               << ") must be at most LeafRadix (" << m_leafRadix << ")";
            return os.str();
        }
    }
    uint64_t hosts = static_cast<uint64_t>(leaves) * m_hostsPerLeaf;
    uint32_t prefix = m_mask.GetPrefixLength();
    uint64_t space = prefix == 0 ? (uint64_t(1) << 32) : (uint64_t(1) << (32 - prefix));
    if (hosts + 2 > space)
    {
        os << "HostAddressMask (/" << prefix << ") leaves room for " << space - 2
           << " hosts, the shape has " << hosts;
        return os.str();
    }
    if ((m_base.Get() & ~m_mask.Get()) != 0)
    {
        os << "HostAddressBase (" << m_base << ") must be the network address of "
           << "HostAddressMask (/" << prefix << ")";
        return os.str();
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(m_switchQdType, &tid) ||
        !tid.IsChildOf(TypeId::LookupByName("ns3::QueueDisc")))
    {
        return "SetSwitchQueueDisc: \"" + m_switchQdType + "\" is not a QueueDisc TypeId";
    }
    if (!m_hostQdType.empty() && (!TypeId::LookupByNameFailSafe(m_hostQdType, &tid) ||
                                  !tid.IsChildOf(TypeId::LookupByName("ns3::QueueDisc"))))
    {
        return "SetHostQueueDisc: \"" + m_hostQdType + "\" is not a QueueDisc TypeId";
    }
    if (m_kmin.GetUnit() != m_queueMaxSize.GetUnit() ||
        m_kmax.GetUnit() != m_queueMaxSize.GetUnit())
    {
        return "EcnKmin and EcnKmax must use the unit of QueueMaxSize (packets or bytes)";
    }
    if (m_kmin.GetValue() >= m_kmax.GetValue())
    {
        os << "EcnKmin (" << m_kmin << ") must be smaller than EcnKmax (" << m_kmax << ")";
        return os.str();
    }
    if (m_oversubscription != 0 && m_oversubscription < 1.0)
    {
        return "Oversubscription must be >= 1";
    }
    return "";
}

ObjectFactory
ClosFabricHelper::MakeSwitchQueueDiscFactory() const
{
    ObjectFactory factory;
    factory.SetTypeId(m_switchQdType);
    TypeId tid = TypeId::LookupByName(m_switchQdType);
    if (tid == EcnQueueDisc::GetTypeId())
    {
        factory.Set("MaxSize",
                    QueueSizeValue(m_queueMaxSize),
                    "Kmin",
                    QueueSizeValue(m_kmin),
                    "Kmax",
                    QueueSizeValue(m_kmax),
                    "Trimming",
                    BooleanValue(m_trimming));
    }
    else if (tid == RedQueueDisc::GetTypeId())
    {
        // Instantaneous queue (QW = 1), marking probability 1 / LInterm = 1 at MaxTh, and
        // marking instead of dropping above MaxTh (no gentle ramp, no hard drop).
        factory.Set("MaxSize",
                    QueueSizeValue(m_queueMaxSize),
                    "MinTh",
                    DoubleValue(m_kmin.GetValue()),
                    "MaxTh",
                    DoubleValue(m_kmax.GetValue()),
                    "UseEcn",
                    BooleanValue(true),
                    "QW",
                    DoubleValue(1.0),
                    "LInterm",
                    DoubleValue(1.0),
                    "Gentle",
                    BooleanValue(false),
                    "UseHardDrop",
                    BooleanValue(false));
    }
    else
    {
        TypeId::AttributeInformation info;
        if (tid.LookupAttributeByName("MaxSize", &info))
        {
            factory.Set("MaxSize", QueueSizeValue(m_queueMaxSize));
        }
    }
    for (const auto& [name, value] : m_switchQdAttributes)
    {
        factory.Set(name, *value);
    }
    return factory;
}

namespace
{

/// Salt of a switch: a hash of the seed and the switch's fabric index, never 0.
uint32_t
SwitchSalt(uint32_t seed, uint32_t index)
{
    char buf[8];
    std::memcpy(buf, &seed, 4);
    std::memcpy(buf + 4, &index, 4);
    uint32_t salt = Hash32(buf, sizeof(buf));
    return salt != 0 ? salt : 1;
}

} // namespace

Ptr<ClosFabric>
ClosFabricHelper::Build()
{
    NS_LOG_FUNCTION(this);
    std::string error = Validate();
    NS_ABORT_MSG_IF(!error.empty(), "ClosFabricHelper: " << error);

    Ptr<ClosFabric> f = CreateObject<ClosFabric>();
    f->m_tiers = m_tiers;
    f->m_hostsPerLeaf = m_hostsPerLeaf;
    f->m_parallel = m_parallel;
    f->m_base = m_base;
    f->SetAttribute("RoutingConvergenceDelay", TimeValue(m_convergenceDelay));
    if (m_tiers == 2)
    {
        f->m_pods = 1;
        f->m_leavesPerPod = m_leaves;
        f->m_spines = m_spines;
    }
    else
    {
        f->m_pods = m_pods;
        f->m_leavesPerPod = m_leavesPerPod;
        f->m_aggsPerPod = m_aggsPerPod;
        f->m_cores = m_cores;
    }
    const uint32_t nLeaves = f->GetNLeaves();
    const uint32_t nHosts = f->GetNHosts();
    const uint32_t nMiddle = m_tiers == 2 ? m_spines : m_pods * m_aggsPerPod;
    const uint32_t nCores = m_tiers == 2 ? 0 : m_cores;
    const uint32_t coresPerAgg = m_tiers == 2 ? 0 : m_cores / m_aggsPerPod;

    DataRate leafUp = m_leafUpRate;
    DataRate aggUp = m_aggUpRate;
    if (m_oversubscription >= 1.0)
    {
        double uplinks = (m_tiers == 2 ? m_spines : m_aggsPerPod) * m_parallel;
        leafUp = DataRate(static_cast<uint64_t>(std::llround(
            m_hostRate.GetBitRate() * m_hostsPerLeaf / (uplinks * m_oversubscription))));
        if (m_tiers == 3)
        {
            double down = static_cast<double>(m_leavesPerPod) * m_parallel * leafUp.GetBitRate();
            aggUp = DataRate(static_cast<uint64_t>(
                std::llround(down / (coresPerAgg * m_parallel * m_oversubscription))));
        }
    }
    f->m_nominalRate[ClosFabric::HOST_LEAF] = m_hostRate;
    f->m_nominalRate[ClosFabric::LEAF_SPINE] = leafUp;
    f->m_nominalRate[ClosFabric::LEAF_AGG] = leafUp;
    f->m_nominalRate[ClosFabric::AGG_CORE] = aggUp;

    // MPI groups: a leaf (2-tier) or a pod (3-tier) with its hosts, in contiguous blocks.
    const uint32_t groups = m_tiers == 2 ? nLeaves : m_pods;
    auto systemOfGroup = [&](uint32_t g) {
        return static_cast<uint32_t>(static_cast<uint64_t>(g) * m_systems / groups);
    };

    // Nodes: hosts, leaves, spines or aggregation switches, cores.
    auto addNode = [&](ClosFabric::Role role, uint32_t systemId) {
        Ptr<Node> node = CreateObject<Node>(systemId);
        f->m_nodeIdToIndex[node->GetId()] = f->m_nodes.size();
        f->m_nodes.push_back(node);
        f->m_roles.push_back(role);
        f->m_switches.push_back(nullptr);
    };
    for (uint32_t h = 0; h < nHosts; h++)
    {
        uint32_t leaf = h / m_hostsPerLeaf;
        addNode(ClosFabric::HOST, systemOfGroup(m_tiers == 2 ? leaf : leaf / m_leavesPerPod));
    }
    f->m_firstLeaf = f->m_nodes.size();
    for (uint32_t l = 0; l < nLeaves; l++)
    {
        addNode(ClosFabric::LEAF, systemOfGroup(m_tiers == 2 ? l : l / m_leavesPerPod));
    }
    f->m_firstSpine = f->m_nodes.size();
    for (uint32_t m = 0; m < nMiddle; m++)
    {
        addNode(m_tiers == 2 ? ClosFabric::SPINE : ClosFabric::AGG,
                m_tiers == 2 ? m % m_systems : systemOfGroup(m / m_aggsPerPod));
    }
    f->m_firstCore = f->m_nodes.size();
    for (uint32_t c = 0; c < nCores; c++)
    {
        addNode(ClosFabric::CORE, c % m_systems);
    }
    f->m_adjacency.resize(f->m_nodes.size());
    f->m_portLinks.resize(f->m_nodes.size());

    // Switches: a traffic-control layer (for the queue discs) and the forwarding logic.
    for (uint32_t s = nHosts; s < f->m_nodes.size(); s++)
    {
        Ptr<Node> node = f->m_nodes[s];
        node->AggregateObject(CreateObject<TrafficControlLayer>());
        Ptr<FabricSwitch> sw = CreateObject<FabricSwitch>();
        sw->SetAttribute("Mode", EnumValue(m_mode));
        sw->SetAttribute("Salt", UintegerValue(SwitchSalt(m_hashSeed, s)));
        node->AggregateObject(sw);
        sw->SetHostAddressing(m_base, nHosts);
        f->m_switches[s] = sw;
    }

    // Hosts: ns-3's IPv4 stack with static routing only (the fabric is one IP network).
    NodeContainer hosts = f->GetHosts();
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.SetRoutingHelper(Ipv4StaticRoutingHelper());
    stack.Install(hosts);

    ObjectFactory switchQd = MakeSwitchQueueDiscFactory();
    ObjectFactory hostQd;
    if (!m_hostQdType.empty())
    {
        hostQd.SetTypeId(m_hostQdType);
        for (const auto& [name, value] : m_hostQdAttributes)
        {
            hostQd.Set(name, *value);
        }
    }

    PointToPointHelper hostP2p;
    hostP2p.SetDeviceAttribute("DataRate", DataRateValue(m_hostRate));
    hostP2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    hostP2p.SetChannelAttribute("Delay", TimeValue(m_hostDelay));
    hostP2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(m_hostQueueSize));
    PointToPointHelper leafP2p;
    leafP2p.SetDeviceAttribute("DataRate", DataRateValue(leafUp));
    leafP2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    leafP2p.SetChannelAttribute("Delay", TimeValue(m_leafUpDelay));
    // The queue disc holds the packets; the device queue only hands one to the transmitter.
    leafP2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));
    PointToPointHelper aggP2p;
    aggP2p.SetDeviceAttribute("DataRate", DataRateValue(aggUp));
    aggP2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    aggP2p.SetChannelAttribute("Delay", TimeValue(m_aggUpDelay));
    aggP2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("1p")));

    auto addLink = [&](ClosFabric::Tier tier,
                       uint32_t a,
                       uint32_t b,
                       uint32_t k,
                       PointToPointHelper& p2p) {
        NetDeviceContainer devices = p2p.Install(f->m_nodes[a], f->m_nodes[b]);
        uint32_t id = f->m_links.size();
        ClosFabric::Link link;
        link.tier = tier;
        link.node[0] = a;
        link.node[1] = b;
        link.parallelIndex = k;
        link.up = true;
        link.routed = true;
        for (uint32_t side = 0; side < 2; side++)
        {
            uint32_t n = link.node[side];
            Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(devices.Get(side));
            link.device[side] = dev;
            link.receiver[side] = CreateObject<FabricLinkErrorModel>();
            dev->SetReceiveErrorModel(link.receiver[side]);
            link.port[side] = UINT32_MAX;
            if (f->m_roles[n] == ClosFabric::HOST)
            {
                Ptr<Ipv4> ipv4 = f->m_nodes[n]->GetObject<Ipv4>();
                int32_t ifIndex = ipv4->AddInterface(dev);
                ipv4->AddAddress(ifIndex,
                                 Ipv4InterfaceAddress(Ipv4Address(m_base.Get() + 1 + n), m_mask));
                ipv4->SetMetric(ifIndex, 1);
                ipv4->SetUp(ifIndex);
                Ptr<Ipv4StaticRouting> routing =
                    DynamicCast<Ipv4StaticRouting>(ipv4->GetRoutingProtocol());
                NS_ASSERT(routing);
                routing->SetDefaultRoute(Ipv4Address::GetZero(), ifIndex);
                if (!m_hostQdType.empty())
                {
                    f->m_nodes[n]->GetObject<TrafficControlLayer>()->SetRootQueueDiscOnDevice(
                        dev,
                        hostQd.Create<QueueDisc>());
                }
            }
            else
            {
                if (tier == ClosFabric::HOST_LEAF)
                {
                    dev->GetQueue()->SetMaxSize(QueueSize("1p"));
                }
                f->m_nodes[n]->GetObject<TrafficControlLayer>()->SetRootQueueDiscOnDevice(
                    dev,
                    switchQd.Create<QueueDisc>());
                link.port[side] = f->m_switches[n]->AddPort(dev);
                f->m_portLinks[n].push_back(id);
                NS_ASSERT(f->m_portLinks[n].size() == link.port[side] + 1);
            }
            f->m_adjacency[n].push_back(id);
        }
        f->m_links.push_back(link);
    };

    for (uint32_t h = 0; h < nHosts; h++)
    {
        addLink(ClosFabric::HOST_LEAF, h, f->m_firstLeaf + h / m_hostsPerLeaf, 0, hostP2p);
    }
    if (m_tiers == 2)
    {
        for (uint32_t l = 0; l < nLeaves; l++)
        {
            for (uint32_t s = 0; s < m_spines; s++)
            {
                for (uint32_t k = 0; k < m_parallel; k++)
                {
                    addLink(ClosFabric::LEAF_SPINE,
                            f->m_firstLeaf + l,
                            f->m_firstSpine + s,
                            k,
                            leafP2p);
                }
            }
        }
    }
    else
    {
        for (uint32_t l = 0; l < nLeaves; l++)
        {
            uint32_t pod = l / m_leavesPerPod;
            for (uint32_t a = 0; a < m_aggsPerPod; a++)
            {
                for (uint32_t k = 0; k < m_parallel; k++)
                {
                    addLink(ClosFabric::LEAF_AGG,
                            f->m_firstLeaf + l,
                            f->m_firstSpine + pod * m_aggsPerPod + a,
                            k,
                            leafP2p);
                }
            }
        }
        for (uint32_t pod = 0; pod < m_pods; pod++)
        {
            for (uint32_t a = 0; a < m_aggsPerPod; a++)
            {
                for (uint32_t c = 0; c < coresPerAgg; c++)
                {
                    for (uint32_t k = 0; k < m_parallel; k++)
                    {
                        addLink(ClosFabric::AGG_CORE,
                                f->m_firstSpine + pod * m_aggsPerPod + a,
                                f->m_firstCore + a * coresPerAgg + c,
                                k,
                                aggP2p);
                    }
                }
            }
        }
    }

    f->RecomputeRoutes();
    return f;
}

int64_t
ClosFabricHelper::AssignStreams(Ptr<ClosFabric> fabric, int64_t stream)
{
    int64_t current = stream;
    NodeContainer switches = fabric->GetSwitches();
    for (uint32_t i = 0; i < switches.GetN(); i++)
    {
        Ptr<FabricSwitch> sw = switches.Get(i)->GetObject<FabricSwitch>();
        current += sw->AssignStreams(current);
        for (uint32_t p = 0; p < sw->GetNPorts(); p++)
        {
            Ptr<QueueDisc> qd = sw->GetPortQueueDisc(p);
            if (Ptr<EcnQueueDisc> ecn = DynamicCast<EcnQueueDisc>(qd))
            {
                current += ecn->AssignStreams(current);
            }
            else if (Ptr<RedQueueDisc> red = DynamicCast<RedQueueDisc>(qd))
            {
                current += red->AssignStreams(current);
            }
        }
    }
    return current - stream;
}

} // namespace ns3
