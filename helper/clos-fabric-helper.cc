/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clos-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/attribute-check.h"
#include "ns3/boolean.h"
#include "ns3/ecn-queue-disc.h"
#include "ns3/enum.h"
#include "ns3/fabric-link-error-model.h"
#include "ns3/glb-port-selector.h"
#include "ns3/graph-routes.h"
#include "ns3/hash.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/pfc-port.h"
#include "ns3/pfc-switch.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue.h"
#include "ns3/rdma-helper.h"
#include "ns3/red-queue-disc.h"
#include "ns3/reps-ns3-compat.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/scale-up-domain.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
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
            .AddAttribute("HashSeed",
                          "Seed of the per-switch flow-hash salts (each switch's salt is a hash "
                          "of the seed and the switch's position in the fabric); 0, the "
                          "default: the ns-3 run number (RngRun), so that another run draws "
                          "other hash salts.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ClosFabricHelper::m_hashSeed),
                          MakeUintegerChecker<uint32_t>())
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
                          "systemId; spines and cores are spread round-robin. At most the "
                          "number of leaves (2-tier) or pods (3-tier); the links between "
                          "ranks (leaf-spine or agg-core) need a positive delay.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ClosFabricHelper::m_systems),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Planes",
                          "Number of identical, disjoint network planes (1 .. 8): every host "
                          "has one NIC port per plane, and host h's address in plane p is "
                          "HostAddressBase + p * (size of the HostAddressMask network) + 1 + h.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ClosFabricHelper::m_planes),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("GpusPerServer",
                          "GPUs per server (1 .. 64), each a host with its own NIC: host h is "
                          "GPU h % GpusPerServer of server h / GpusPerServer. With more than one, "
                          "a scale-up switch per server links its GPUs (ScaleUpRate, "
                          "ScaleUpDelay) and carries the traffic between them.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ClosFabricHelper::m_gpus),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("ScaleUpRate",
                          "Rate of the links between a server's GPUs and its scale-up switch "
                          "(NVLink-like; GpusPerServer > 1).",
                          DataRateValue(DataRate("3600Gbps")),
                          MakeDataRateAccessor(&ClosFabricHelper::m_scaleUpRate),
                          MakeDataRateChecker())
            .AddAttribute("ScaleUpDelay",
                          "Propagation delay of the links between a server's GPUs and its "
                          "scale-up switch (GpusPerServer > 1).",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&ClosFabricHelper::m_scaleUpDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute(
                "Wiring",
                "How the GPUs of the servers meet the leaves: Clos (a server's GPUs on "
                "one leaf, hosts filling the leaves in order), RailOptimised (GPU g "
                "of every server of a group of HostsPerLeaf servers on rail leaf g of "
                "the group's GpusPerServer leaves) or RailOnly (2 tiers, one rail leaf "
                "per GPU index with GPU g of every server, no spines: traffic between "
                "rails crosses the sender's scale-up domain to the GPU on the "
                "receiver's rail, which forwards it).",
                EnumValue(ClosFabricHelper::CLOS),
                REPS_MAKE_ENUM_ACCESSOR(ClosFabricHelper::Wiring, &ClosFabricHelper::m_wiring),
                MakeEnumChecker(ClosFabricHelper::CLOS,
                                "Clos",
                                ClosFabricHelper::RAIL_OPTIMISED,
                                "RailOptimised",
                                ClosFabricHelper::RAIL_ONLY,
                                "RailOnly"))
            .AddAttribute("Pfc",
                          "Lossless fabric: PFC (IEEE 802.1Qbb) on every link (a PfcPort on "
                          "every device, a PfcSwitch on every switch, configured with "
                          "SetPfcAttribute()); needs ns3::EcnQueueDisc switch queues.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ClosFabricHelper::m_pfc),
                          MakeBooleanChecker());
    return tid;
}

ClosFabricHelper::ClosFabricHelper()
    : m_fatTreeK(0),
      m_oversubscription(0),
      m_gpus(1),
      m_wiring(CLOS),
      m_pfc(false)
{
    NS_LOG_FUNCTION(this);
    m_switchQdFactory.SetTypeId(EcnQueueDisc::GetTypeId());
    m_pfcSwitchFactory.SetTypeId("ns3::PfcSwitch");
    m_pfcPortFactory.SetTypeId("ns3::PfcPort");
    m_portSelector.SetTypeId("ns3::HashPortSelector");
    m_planeFactory.SetTypeId(ClosPlane::GetTypeId());
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

void
ClosFabricHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    Ptr<AttributeValue> valid;
    std::string error = AttributeCheck::Check("SetAttribute", GetTypeId(), name, value, valid);
    if (!error.empty())
    {
        // The first refusal is the one Validate() reports.
        if (m_attributeError.empty())
        {
            m_attributeError = error;
        }
        return;
    }
    ObjectBase::SetAttribute(name, *valid);
}

std::string
ClosFabricHelper::Validate() const
{
    if (!m_attributeError.empty())
    {
        return m_attributeError;
    }
    if (m_fatTreeK != 0 && (m_fatTreeK < 2 || m_fatTreeK % 2 != 0))
    {
        std::ostringstream os;
        os << "FatTree k (" << m_fatTreeK << ") must be even and >= 2";
        return os.str();
    }
    for (const std::string& error : {ValidateShape(),
                                     ValidateAddressing(),
                                     ValidateQueueDiscs(),
                                     ValidateSystems(),
                                     ValidateServers(),
                                     m_portSelectorError,
                                     m_planeError})
    {
        if (!error.empty())
        {
            return error;
        }
    }
    if (m_oversubscription != 0 && m_oversubscription < 1.0)
    {
        return "Oversubscription must be >= 1";
    }
    if (m_hostQueueSize.GetValue() == 0)
    {
        return "HostQueueSize must be positive (an empty NIC queue drops every packet)";
    }
    // What the helper does not check itself (rates), in the fabric's own words.
    std::string error = ClosPlane::ValidateShape(MakeShape());
    return error.empty() ? "" : "the shape of the fabric: " + error;
}

std::string
ClosFabricHelper::ValidateShape() const
{
    // The first zero count, with the attribute's name.
    std::vector<std::pair<const char*, uint32_t>> counts = {{"HostsPerLeaf", m_hostsPerLeaf},
                                                            {"ParallelLinks", m_parallel}};
    if (m_tiers == 2)
    {
        counts.insert(counts.end(), {{"Leaves", m_leaves}});
        if (m_wiring != RAIL_ONLY)
        {
            counts.insert(counts.end(), {{"Spines", m_spines}});
        }
    }
    else
    {
        counts.insert(counts.end(),
                      {{"Pods", m_pods},
                       {"LeavesPerPod", m_leavesPerPod},
                       {"AggsPerPod", m_aggsPerPod},
                       {"Cores", m_cores}});
    }
    for (const auto& [name, value] : counts)
    {
        if (value == 0)
        {
            return std::string(name) + " must be >= 1";
        }
    }
    std::ostringstream os;
    if (m_tiers == 3 && m_cores % m_aggsPerPod != 0)
    {
        os << "Cores (" << m_cores << ") must be a multiple of AggsPerPod (" << m_aggsPerPod << ")";
        return os.str();
    }
    uint32_t uplinks = (m_tiers == 2 ? Spines() : m_aggsPerPod) * m_parallel;
    if (m_leafRadix != 0 && m_hostsPerLeaf > m_leafRadix)
    {
        os << "HostsPerLeaf (" << m_hostsPerLeaf << ") must be at most LeafRadix (" << m_leafRadix
           << ")";
    }
    else if (m_leafRadix != 0 && m_hostsPerLeaf + uplinks > m_leafRadix)
    {
        os << "HostsPerLeaf (" << m_hostsPerLeaf << ") plus the up-links of a leaf (" << uplinks
           << ") must be at most LeafRadix (" << m_leafRadix << ")";
    }
    return os.str();
}

std::string
ClosFabricHelper::ValidateSystems() const
{
    if (m_systems <= 1)
    {
        return "";
    }
    // A rank holds whole groups (a leaf with its hosts, or a pod): no more ranks than groups.
    const bool twoTier = m_tiers == 2;
    const uint32_t groups = twoTier ? m_leaves : m_pods;
    std::ostringstream os;
    if (m_systems > groups)
    {
        os << "Systems (" << m_systems << ") must be at most the number of "
           << (twoTier ? "leaves" : "pods") << " (" << groups << "): a rank holds whole "
           << (twoTier ? "leaves with their hosts" : "pods");
        return os.str();
    }
    // The cut links are the MPI engine's lookahead, which must be positive.
    const Time cutDelay = twoTier ? m_leafUpDelay : m_aggUpDelay;
    if (!cutDelay.IsStrictlyPositive())
    {
        os << (twoTier ? "LeafUplinkDelay" : "AggUplinkDelay")
           << " must be > 0 with Systems > 1 (the links between ranks give the MPI engine its "
              "lookahead)";
    }
    return os.str();
}

std::string
ClosFabricHelper::ValidateServers() const
{
    std::ostringstream os;
    const uint32_t leaves = m_tiers == 2 ? m_leaves : m_leavesPerPod;
    const char* leavesName = m_tiers == 2 ? "Leaves" : "LeavesPerPod";
    if (m_gpus == 0 || m_gpus > 64)
    {
        os << "GpusPerServer (" << m_gpus << ") must be in [1, 64]";
    }
    else if (m_wiring != CLOS && m_gpus < 2)
    {
        os << "Wiring " << (m_wiring == RAIL_ONLY ? "RailOnly" : "RailOptimised")
           << " needs GpusPerServer >= 2 (one rail per GPU of a server), not " << m_gpus;
    }
    else if (m_wiring == RAIL_ONLY && m_tiers != 2)
    {
        os << "Wiring RailOnly needs Tiers = 2 (rail leaves and no spines), not " << m_tiers;
    }
    else if (m_wiring == RAIL_ONLY && m_leaves != m_gpus)
    {
        os << "Leaves (" << m_leaves << ") must equal GpusPerServer (" << m_gpus
           << ") with Wiring RailOnly: one rail leaf per GPU index, holding that GPU of every "
              "server";
    }
    else if (m_wiring == RAIL_ONLY && m_planes != 1)
    {
        os << "Wiring RailOnly needs Planes = 1, not " << m_planes;
    }
    else if (m_wiring == RAIL_OPTIMISED && leaves % m_gpus != 0)
    {
        os << leavesName << " (" << leaves << ") must be a multiple of GpusPerServer (" << m_gpus
           << ") with Wiring RailOptimised: a group of servers spans one rail leaf per GPU";
    }
    else if (m_wiring == CLOS && m_hostsPerLeaf % m_gpus != 0)
    {
        os << "HostsPerLeaf (" << m_hostsPerLeaf << ") must be a multiple of GpusPerServer ("
           << m_gpus << ") with Wiring Clos: the GPUs of a server share a leaf";
    }
    else if (m_gpus > 1 && m_pfc)
    {
        os << "Pfc needs GpusPerServer = 1 (the scale-up switches are not lossless), not "
           << m_gpus;
    }
    else if (m_gpus > 1 && m_systems > 1)
    {
        os << "Systems > 1 needs GpusPerServer = 1 (a server's scale-up links do not cross MPI "
              "ranks), not "
           << m_gpus;
    }
    else if (m_gpus > 1 && m_scaleUpRate.GetBitRate() == 0)
    {
        os << "ScaleUpRate must be positive";
    }
    return os.str();
}

std::string
ClosFabricHelper::ValidateAddressing() const
{
    std::ostringstream os;
    uint32_t leaves = m_tiers == 2 ? m_leaves : m_pods * m_leavesPerPod;
    uint64_t hosts = static_cast<uint64_t>(leaves) * m_hostsPerLeaf;
    uint32_t prefix = m_mask.GetPrefixLength();
    uint64_t space = prefix == 0 ? (uint64_t(1) << 32) : (uint64_t(1) << (32 - prefix));
    if (m_planes < 1 || m_planes > 8)
    {
        os << "Planes (" << m_planes << ") must be in [1, 8]";
    }
    else if (m_planes > 1 && (m_base.Get() + m_planes * space > (uint64_t(1) << 32)))
    {
        os << "HostAddressBase (" << m_base << ") and HostAddressMask (/" << prefix
           << ") leave no room for the networks of " << m_planes
           << " planes (plane p uses HostAddressBase + p * " << space << ")";
    }
    else if (hosts + 2 > space)
    {
        os << "HostAddressMask (/" << prefix << ") leaves room for " << space - 2
           << " hosts, the shape has " << hosts;
    }
    else if ((m_base.Get() & ~m_mask.Get()) != 0)
    {
        os << "HostAddressBase (" << m_base << ") must be the network address of "
           << "HostAddressMask (/" << prefix << ")";
    }
    return os.str();
}

namespace
{

/**
 * \param type a TypeId name
 * \param [out] tid its TypeId
 * \return whether it names a QueueDisc
 */
bool
LookupQueueDisc(const std::string& type, TypeId* tid)
{
    return TypeId::LookupByNameFailSafe(type, tid) &&
           tid->IsChildOf(TypeId::LookupByName("ns3::QueueDisc"));
}

} // namespace

std::string
ClosFabricHelper::ConfigureQueueDisc(const std::string& method,
                                     const std::string& type,
                                     const AttributeList& attributes,
                                     ObjectFactory& factory)
{
    TypeId tid;
    if (!LookupQueueDisc(type, &tid))
    {
        return method + ": \"" + type + "\" is not a QueueDisc TypeId";
    }
    ObjectFactory configured;
    configured.SetTypeId(tid);
    for (const auto& [name, value] : attributes)
    {
        std::string error = SetCheckedAttribute(method, configured, name, *value);
        if (!error.empty())
        {
            return error;
        }
    }
    factory = configured;
    return "";
}

std::string
ClosFabricHelper::ValidateQueueDiscs() const
{
    for (const std::string& error : {m_switchQdError, m_hostQdError, m_pfcError})
    {
        if (!error.empty())
        {
            return error;
        }
    }
    if (m_pfc && m_planes > 1)
    {
        return "Pfc needs Planes = 1 (the NIC's PAUSE handling has one port), not " +
               std::to_string(m_planes);
    }
    if (m_pfc && m_systems > 1)
    {
        return "Pfc needs Systems = 1 (PFC frames do not cross MPI ranks), not " +
               std::to_string(m_systems);
    }
    const TypeId tid = m_switchQdFactory.GetTypeId();
    const bool ecn = tid == EcnQueueDisc::GetTypeId() || tid.IsChildOf(EcnQueueDisc::GetTypeId());
    if (m_pfc && !ecn)
    {
        return "Pfc needs ns3::EcnQueueDisc switch queues (PFC stops their data band), not " +
               tid.GetName();
    }
    // The queue disc's own rules, before any is built (it would abort when it starts).
    std::string error = ecn ? EcnQueueDisc::Validate(m_switchQdFactory) : "";
    return error.empty() ? "" : "SetSwitchQueueDisc: " + error;
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

ClosPlane::Shape
ClosFabricHelper::MakeShape() const
{
    ClosPlane::Shape shape;
    shape.tiers = m_tiers;
    shape.hostsPerLeaf = m_hostsPerLeaf;
    shape.parallelLinks = m_parallel;
    shape.rails = m_wiring == CLOS ? 1 : m_gpus;
    shape.addressBase = m_base;
    if (m_tiers == 2)
    {
        shape.leavesPerPod = m_leaves;
        shape.spines = Spines();
    }
    else
    {
        shape.pods = m_pods;
        shape.leavesPerPod = m_leavesPerPod;
        shape.aggsPerPod = m_aggsPerPod;
        shape.cores = m_cores;
    }
    shape.hostRate = m_hostRate;
    shape.leafUplinkRate = m_leafUpRate;
    shape.aggUplinkRate = m_aggUpRate;
    if (m_oversubscription >= 1.0 && (m_tiers == 3 || Spines() > 0))
    {
        double uplinks = (m_tiers == 2 ? m_spines : m_aggsPerPod) * m_parallel;
        shape.leafUplinkRate = DataRate(static_cast<uint64_t>(std::llround(
            m_hostRate.GetBitRate() * m_hostsPerLeaf / (uplinks * m_oversubscription))));
        if (m_tiers == 3)
        {
            double down = static_cast<double>(m_leavesPerPod) * m_parallel *
                          shape.leafUplinkRate.GetBitRate();
            double coresPerAgg = m_cores / m_aggsPerPod;
            shape.aggUplinkRate = DataRate(static_cast<uint64_t>(
                std::llround(down / (coresPerAgg * m_parallel * m_oversubscription))));
        }
    }
    return shape;
}

void
ClosFabricHelper::AddNodes(Ptr<ClosPlane> f, Ptr<ClosPlane> plane0) const
{
    // MPI groups: a leaf (2-tier) or a pod (3-tier) with its hosts, in contiguous blocks;
    // spines and cores round-robin.
    const uint32_t leavesPerGroup = m_tiers == 2 ? 1 : m_leavesPerPod;
    const uint32_t groups = f->GetNLeaves() / leavesPerGroup;
    auto systemOfGroup = [&](uint32_t g) {
        return static_cast<uint32_t>(static_cast<uint64_t>(g) * m_systems / groups);
    };
    const uint32_t nHosts = f->GetNHosts();
    const uint32_t firstMiddle = nHosts + f->GetNLeaves();
    const uint32_t firstCore =
        firstMiddle + (m_tiers == 2 ? f->GetNSpines() : f->GetNPods() * f->GetNAggsPerPod());
    for (uint32_t i = 0; i < nHosts + f->GetNSwitches(); i++)
    {
        uint32_t system = 0;
        if (i < firstMiddle)
        {
            uint32_t leaf = i < nHosts ? f->GetLeafOfHost(i) : i - nHosts;
            system = systemOfGroup(leaf / leavesPerGroup);
        }
        else if (i < firstCore)
        {
            uint32_t m = i - firstMiddle;
            system = m_tiers == 2 ? m % m_systems : systemOfGroup(m / m_aggsPerPod);
        }
        else
        {
            system = (i - firstCore) % m_systems;
        }
        f->AddNode(plane0 && i < nHosts ? plane0->GetHost(i) : CreateObject<Node>(system),
                   f->GetRoleOfIndex(i));
    }
}

std::string
ClosFabricHelper::ConfigurePortSelector(const std::string& type, const AttributeList& attributes)
{
    NS_LOG_FUNCTION(this << type);
    std::string error =
        RdmaHelper::ValidateTypeId(type, PortSelector::GetTypeId(), "SetPortSelector");
    if (!error.empty())
    {
        return error;
    }
    TypeId tid = TypeId::LookupByName(type);
    ObjectFactory configured;
    configured.SetTypeId(tid);
    for (const auto& [name, value] : attributes)
    {
        error = SetCheckedAttribute("SetPortSelector", configured, name, *value);
        if (!error.empty())
        {
            return error;
        }
    }
    m_portSelector = configured;
    return "";
}

std::string
ClosFabricHelper::SetCheckedAttribute(const std::string& method,
                                      ObjectFactory& factory,
                                      const std::string& name,
                                      const AttributeValue& value)
{
    return AttributeCheck::SetOn(method, factory, name, value);
}

void
ClosFabricHelper::SetPortSelectorAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    std::string error =
        SetCheckedAttribute("SetPortSelectorAttribute", m_portSelector, name, value);
    // The first refusal is the one Validate() reports.
    if (m_portSelectorError.empty())
    {
        m_portSelectorError = error;
    }
}

void
ClosFabricHelper::SetPlaneAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    std::string error = SetCheckedAttribute("SetPlaneAttribute", m_planeFactory, name, value);
    // The first refusal is the one Validate() reports.
    if (m_planeError.empty())
    {
        m_planeError = error;
    }
}

TypeId
ClosFabricHelper::GetPortSelectorType() const
{
    return m_portSelector.GetTypeId();
}

uint32_t
ClosFabricHelper::HashSeed() const
{
    return m_hashSeed != 0 ? m_hashSeed : static_cast<uint32_t>(RngSeedManager::GetRun());
}

void
ClosFabricHelper::InstallSwitches(Ptr<ClosPlane> f, uint32_t plane) const
{
    const uint32_t nodesPerPlane = f->GetNHosts() + f->GetNSwitches();
    // A traffic-control layer (for the queue discs) and the forwarding logic.
    NodeContainer switches = f->GetSwitches();
    for (uint32_t i = 0; i < switches.GetN(); i++)
    {
        Ptr<Node> node = switches.Get(i);
        node->AggregateObject(CreateObject<TrafficControlLayer>());
        Ptr<FabricSwitch> sw = CreateObject<FabricSwitch>();
        sw->SetPortSelector(m_portSelector.Create<PortSelector>());
        sw->SetAttribute(
            "Salt",
            UintegerValue(SwitchSalt(HashSeed(), plane * nodesPerPlane + f->GetNHosts() + i)));
        node->AggregateObject(sw);
    }
    // GLB: where every switch is (leaves choose up-links, the others raise the carried metric).
    std::vector<uint32_t> hostLeaf(f->GetNHosts());
    for (uint32_t h = 0; h < f->GetNHosts(); h++)
    {
        hostLeaf[h] = f->GetLeafOfHost(h);
    }
    for (uint32_t i = 0; i < switches.GetN(); i++)
    {
        Ptr<PortSelector> ps = switches.Get(i)->GetObject<FabricSwitch>()->GetPortSelector();
        if (Ptr<GlbPortSelector> glb = DynamicCast<GlbPortSelector>(ps))
        {
            glb->SetTopology(UINT32_MAX, hostLeaf, f->GetNLeaves());
        }
    }
    for (uint32_t l = 0; l < f->GetNLeaves(); l++)
    {
        Ptr<PortSelector> ps = f->GetLeaf(l)->GetObject<FabricSwitch>()->GetPortSelector();
        if (Ptr<GlbPortSelector> glb = DynamicCast<GlbPortSelector>(ps))
        {
            glb->SetTopology(l, hostLeaf, f->GetNLeaves());
        }
    }
}

void
ClosFabricHelper::InstallHostStacks(Ptr<ClosPlane> f) const
{
    // ns-3's IPv4 stack with static routing only (the fabric is one IP network).
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.SetRoutingHelper(Ipv4StaticRoutingHelper());
    stack.Install(f->GetHosts());
}

PointToPointHelper
ClosFabricHelper::MakeLinkHelper(DataRate rate, Time delay, QueueSize queue) const
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(rate));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetChannelAttribute("Delay", TimeValue(delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(queue));
    return p2p;
}

void
ClosFabricHelper::ConfigureHostDevice(Ptr<NetDevice> device,
                                      Ipv4Address address,
                                      bool defaultRoute) const
{
    Ptr<Node> node = device->GetNode();
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    int32_t ifIndex = ipv4->AddInterface(device);
    ipv4->AddAddress(ifIndex, Ipv4InterfaceAddress(address, m_mask));
    ipv4->SetMetric(ifIndex, 1);
    ipv4->SetUp(ifIndex);
    // The interface's own network route (added by static routing) reaches its plane's hosts.
    if (defaultRoute)
    {
        Ptr<Ipv4StaticRouting> routing = DynamicCast<Ipv4StaticRouting>(ipv4->GetRoutingProtocol());
        NS_ASSERT(routing);
        routing->SetDefaultRoute(Ipv4Address::GetZero(), ifIndex);
    }
    if (m_hostQdFactory.IsTypeIdSet())
    {
        node->GetObject<TrafficControlLayer>()->SetRootQueueDiscOnDevice(
            device,
            m_hostQdFactory.Create<QueueDisc>());
    }
}

namespace
{

/**
 * Give a switch port its root queue disc.
 * \param device the port's device
 * \param factory the queue disc factory
 */
void
InstallSwitchQueueDisc(Ptr<NetDevice> device, const ObjectFactory& factory)
{
    device->GetNode()->GetObject<TrafficControlLayer>()->SetRootQueueDiscOnDevice(
        device,
        factory.Create<QueueDisc>());
}

} // namespace

void
ClosFabricHelper::LinkSwitches(Ptr<ClosPlane> f,
                               ClosPlane::Tier tier,
                               Ptr<Node> a,
                               Ptr<Node> b,
                               uint32_t k,
                               PointToPointHelper& p2p) const
{
    NetDeviceContainer devices = p2p.Install(a, b);
    InstallSwitchQueueDisc(devices.Get(0), m_switchQdFactory);
    InstallSwitchQueueDisc(devices.Get(1), m_switchQdFactory);
    f->AddLink(tier,
               DynamicCast<PointToPointNetDevice>(devices.Get(0)),
               DynamicCast<PointToPointNetDevice>(devices.Get(1)),
               k);
}

void
ClosFabricHelper::AddLinks(Ptr<ClosPlane> f, uint32_t plane) const
{
    const ClosPlane::Shape& shape = f->GetShape();
    // A switch port's device queue only hands one packet to the transmitter: the backlog
    // builds in the queue disc.
    const QueueSize one("1p");
    PointToPointHelper hostP2p = MakeLinkHelper(shape.hostRate, m_hostDelay, m_hostQueueSize);
    PointToPointHelper leafP2p = MakeLinkHelper(shape.leafUplinkRate, m_leafUpDelay, one);
    PointToPointHelper aggP2p = MakeLinkHelper(shape.aggUplinkRate, m_aggUpDelay, one);
    for (uint32_t h = 0; h < f->GetNHosts(); h++)
    {
        NetDeviceContainer d = hostP2p.Install(f->GetHost(h), f->GetLeaf(f->GetLeafOfHost(h)));
        Ptr<PointToPointNetDevice> host = DynamicCast<PointToPointNetDevice>(d.Get(0));
        Ptr<PointToPointNetDevice> leaf = DynamicCast<PointToPointNetDevice>(d.Get(1));
        ConfigureHostDevice(host, f->GetHostAddress(h), plane == 0);
        leaf->GetQueue()->SetMaxSize(one);
        InstallSwitchQueueDisc(leaf, m_switchQdFactory);
        f->AddLink(ClosPlane::HOST_LEAF, host, leaf);
    }
    const uint32_t up = m_tiers == 2 ? f->GetNSpines() : m_aggsPerPod;
    for (uint32_t l = 0; l < f->GetNLeaves(); l++)
    {
        for (uint32_t u = 0; u < up * m_parallel; u++)
        {
            Ptr<Node> upper = m_tiers == 2 ? f->GetSpine(u / m_parallel)
                                           : f->GetAgg(l / m_leavesPerPod, u / m_parallel);
            LinkSwitches(f,
                         m_tiers == 2 ? ClosPlane::LEAF_SPINE : ClosPlane::LEAF_AGG,
                         f->GetLeaf(l),
                         upper,
                         u % m_parallel,
                         leafP2p);
        }
    }
    const uint32_t coresPerAgg = m_tiers == 2 ? 0 : m_cores / m_aggsPerPod;
    for (uint32_t agg = 0; agg < f->GetNPods() * f->GetNAggsPerPod(); agg++)
    {
        const uint32_t pod = agg / m_aggsPerPod;
        const uint32_t a = agg % m_aggsPerPod;
        for (uint32_t c = 0; c < coresPerAgg * m_parallel; c++)
        {
            LinkSwitches(f,
                         ClosPlane::AGG_CORE,
                         f->GetAgg(pod, a),
                         f->GetCore(a * coresPerAgg + c / m_parallel),
                         c % m_parallel,
                         aggP2p);
        }
    }
}

Ptr<ClosFabric>
ClosFabricHelper::Build()
{
    NS_LOG_FUNCTION(this);
    std::string error = Validate();
    if (!error.empty())
    {
        AttributeCheck::Exit("ClosFabricHelper: " + error);
    }
    Ptr<ClosFabric> f = CreateObject<ClosFabric>();
    Ptr<ClosPlane> plane0 = BuildPlane(0, nullptr);
    f->AddPlane(plane0);
    for (uint32_t p = 1; p < m_planes; p++)
    {
        f->AddPlane(BuildPlane(p, plane0));
    }
    if (m_gpus > 1)
    {
        BuildScaleUp(f);
    }
    if (m_pfc)
    {
        InstallPfc(f);
    }
    return f;
}

void
ClosFabricHelper::BuildScaleUp(Ptr<ClosFabric> f) const
{
    NS_LOG_FUNCTION(this);
    const uint32_t hosts = f->GetNHosts();
    const uint32_t servers = hosts / m_gpus;
    Ptr<ScaleUpDomain> domain = CreateObject<ScaleUpDomain>();
    domain->SetShape(servers, m_gpus);
    // Salts after those of every plane's switches.
    const uint32_t firstIndex = m_planes * (hosts + f->GetPlane(0)->GetNSwitches());
    for (uint32_t s = 0; s < servers; s++)
    {
        Ptr<Node> node = CreateObject<Node>();
        node->AggregateObject(CreateObject<TrafficControlLayer>());
        Ptr<FabricSwitch> sw = CreateObject<FabricSwitch>();
        sw->SetAttribute("Salt", UintegerValue(SwitchSalt(m_hashSeed, firstIndex + s)));
        node->AggregateObject(sw);
        domain->AddSwitch(node);
    }
    const QueueSize one("1p");
    PointToPointHelper p2p = MakeLinkHelper(m_scaleUpRate, m_scaleUpDelay, m_hostQueueSize);
    const Ipv4Mask host("255.255.255.255");
    std::vector<int32_t> interfaces(hosts);
    for (uint32_t h = 0; h < hosts; h++)
    {
        NetDeviceContainer d = p2p.Install(f->GetHost(h), domain->GetSwitch(h / m_gpus));
        Ptr<PointToPointNetDevice> gpu = DynamicCast<PointToPointNetDevice>(d.Get(0));
        Ptr<PointToPointNetDevice> port = DynamicCast<PointToPointNetDevice>(d.Get(1));
        // The GPU's own plane-0 address on its scale-up device: its peers know it by one name.
        Ptr<Ipv4> ipv4 = f->GetHost(h)->GetObject<Ipv4>();
        interfaces[h] = ipv4->AddInterface(gpu);
        ipv4->AddAddress(interfaces[h], Ipv4InterfaceAddress(f->GetHostAddress(h), host));
        ipv4->SetMetric(interfaces[h], 1);
        ipv4->SetUp(interfaces[h]);
        if (m_hostQdFactory.IsTypeIdSet())
        {
            f->GetHost(h)->GetObject<TrafficControlLayer>()->SetRootQueueDiscOnDevice(
                gpu,
                m_hostQdFactory.Create<QueueDisc>());
        }
        port->GetQueue()->SetMaxSize(one);
        InstallSwitchQueueDisc(port, m_switchQdFactory);
        domain->AddLink(h, gpu, port);
    }
    // Host routes win over the planes' network routes: a GPU reaches its server's other GPUs
    // over the scale-up device.
    for (uint32_t h = 0; h < hosts; h++)
    {
        Ptr<Ipv4StaticRouting> routing =
            DynamicCast<Ipv4StaticRouting>(f->GetHost(h)->GetObject<Ipv4>()->GetRoutingProtocol());
        NS_ASSERT(routing);
        const uint32_t first = h / m_gpus * m_gpus;
        for (uint32_t peer = first; peer < first + m_gpus; peer++)
        {
            if (peer != h)
            {
                routing->AddHostRouteTo(f->GetHostAddress(peer), interfaces[h]);
            }
        }
    }
    domain->Finish(PlaneAddressBase(0));
    if (m_wiring == RAIL_ONLY)
    {
        RouteRailOnly(f, domain, interfaces);
    }
    f->SetScaleUp(domain);
}

void
ClosFabricHelper::RouteRailOnly(Ptr<ClosFabric> f,
                                Ptr<ScaleUpDomain> domain,
                                const std::vector<int32_t>& interfaces) const
{
    NS_LOG_FUNCTION(this);
    // The graph of the whole wiring: hosts (each a relay), rail leaves, scale-up switches. A
    // host's port 0 is its rail NIC, port 1 its scale-up device; a leaf's ports are the
    // plane's, a scale-up switch's port of GPU g is g.
    Ptr<ClosPlane> plane = f->GetPlane(0);
    const ClosRoutes& clos = plane->GetRoutes();
    const uint32_t hosts = f->GetNHosts();
    const uint32_t firstScaleUp = hosts + plane->GetNSwitches();
    GraphRoutes graph(hosts, plane->GetNSwitches() + domain->GetNServers());
    for (uint32_t l = 0; l < clos.GetNLinks(); l++)
    {
        const ClosRoutes::Link& link = clos.GetLink(l);
        graph.AddLink(link.node[0], 0, link.node[1], link.port[1]);
    }
    for (uint32_t h = 0; h < hosts; h++)
    {
        graph.AddLink(h, 1, firstScaleUp + h / m_gpus, h % m_gpus);
        graph.SetRelay(h, true);
    }
    graph.Compute();
    // Cross-rail traffic crosses the sender's scale-up domain first (of a GPU's equal-cost
    // ports it takes the scale-up device whenever that is one): a host route to every such
    // destination over the scale-up device, through the GPU of the server on its rail.
    for (uint32_t h = 0; h < hosts; h++)
    {
        Ptr<Ipv4StaticRouting> routing =
            DynamicCast<Ipv4StaticRouting>(f->GetHost(h)->GetObject<Ipv4>()->GetRoutingProtocol());
        const uint32_t server = h / m_gpus;
        for (uint32_t d = 0; d < hosts; d++)
        {
            const std::vector<uint32_t>& ports = graph.GetPorts(h, d);
            if (d / m_gpus == server || std::find(ports.begin(), ports.end(), 1) == ports.end())
            {
                continue;
            }
            const std::vector<uint32_t>& toRelay = graph.GetPorts(firstScaleUp + server, d);
            NS_ASSERT(!toRelay.empty());
            const uint32_t relay = server * m_gpus + toRelay.front();
            routing->AddHostRouteTo(f->GetHostAddress(d), f->GetHostAddress(relay), interfaces[h]);
        }
    }
    for (uint32_t s = 0; s < domain->GetNServers(); s++)
    {
        std::vector<std::vector<uint32_t>> ports(hosts);
        for (uint32_t d = 0; d < hosts; d++)
        {
            ports[d] = graph.GetPorts(firstScaleUp + s, d);
        }
        domain->SetRoutes(s, ports);
    }
}

uint32_t
ClosFabricHelper::Spines() const
{
    return m_wiring == RAIL_ONLY ? 0 : m_spines;
}

Ipv4Address
ClosFabricHelper::PlaneAddressBase(uint32_t plane) const
{
    const uint32_t prefix = m_mask.GetPrefixLength();
    const uint64_t space = prefix == 0 ? (uint64_t(1) << 32) : (uint64_t(1) << (32 - prefix));
    return Ipv4Address(static_cast<uint32_t>(m_base.Get() + plane * space));
}

Ptr<ClosPlane>
ClosFabricHelper::BuildPlane(uint32_t plane, Ptr<ClosPlane> plane0) const
{
    NS_LOG_FUNCTION(this << plane);
    Ptr<ClosPlane> f = m_planeFactory.Create<ClosPlane>();
    f->SetPlaneIndex(plane);
    ClosPlane::Shape shape = MakeShape();
    shape.addressBase = PlaneAddressBase(plane);
    f->SetShape(shape);
    AddNodes(f, plane0);
    InstallSwitches(f, plane);
    if (!plane0)
    {
        InstallHostStacks(f);
    }
    AddLinks(f, plane);
    f->Finish();
    return f;
}

void
ClosFabricHelper::SetPfcAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    for (ObjectFactory* factory : {&m_pfcSwitchFactory, &m_pfcPortFactory})
    {
        TypeId::AttributeInformation info;
        if (factory->GetTypeId().LookupAttributeByName(name, &info))
        {
            std::string error = SetCheckedAttribute("SetPfcAttribute", *factory, name, value);
            // The first refusal is the one Validate() reports.
            if (m_pfcError.empty())
            {
                m_pfcError = error;
            }
            return;
        }
    }
    if (m_pfcError.empty())
    {
        m_pfcError = "SetPfcAttribute: no attribute " + name + " in ns3::PfcSwitch or ns3::PfcPort";
    }
}

void
ClosFabricHelper::InstallPfc(Ptr<ClosFabric> f) const
{
    // A PfcPort on both ends of every link, then a PfcSwitch on every switch.
    NodeContainer nodes(f->GetHosts(), f->GetSwitches());
    for (uint32_t i = 0; i < nodes.GetN(); i++)
    {
        Ptr<Node> node = nodes.Get(i);
        for (uint32_t d = 0; d < node->GetNDevices(); d++)
        {
            Ptr<PointToPointNetDevice> device =
                DynamicCast<PointToPointNetDevice>(node->GetDevice(d));
            if (device)
            {
                device->AggregateObject(m_pfcPortFactory.Create<PfcPort>());
            }
        }
    }
    NodeContainer switches = f->GetSwitches();
    for (uint32_t i = 0; i < switches.GetN(); i++)
    {
        Ptr<Node> node = switches.Get(i);
        Ptr<PfcSwitch> pfc = m_pfcSwitchFactory.Create<PfcSwitch>();
        node->AggregateObject(pfc);
        pfc->Setup(node->GetObject<FabricSwitch>());
    }
}

int64_t
ClosFabricHelper::AssignStreams(Ptr<ClosFabric> fabric, int64_t stream)
{
    int64_t current = stream;
    // The scale-up switches after those of the planes, so that a fabric without servers keeps
    // its streams.
    NodeContainer switches = fabric->GetSwitches();
    if (Ptr<ScaleUpDomain> scaleUp = fabric->GetScaleUp())
    {
        switches.Add(scaleUp->GetSwitches());
    }
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
