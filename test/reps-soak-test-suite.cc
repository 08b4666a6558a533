/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "reps-test-compat.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/reps-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \file
 * \ingroup reps-test
 * Fault soak: many seeds of random small Clos fabrics (2 and 3 tiers), random link flaps and
 * degraded links, trimming on and off, every path selector and both loss-recovery modes. Every
 * run must deliver each message exactly once and in full, account for every packet sent
 * (received, or dropped by a switch, a queue or a failed link: nothing left in flight), leave
 * no queue pair with outstanding state and leave no event behind the last flow (a timer that
 * rearms forever would). The same scenarios run under the default window congestion control,
 * under receiver credits alone (RCCC, --cc=rccc) and under NSCC with receiver credits.
 */

namespace
{

/// The path selectors the soak cycles through (every selector of the module).
const std::vector<std::string> kSelectors = {
    "ns3::EcmpPathSelector",
    "ns3::OpsPathSelector",
    "ns3::FlowletPathSelector",
    "ns3::RepsPathSelector",
    "ns3::MpPathSelector",
    "ns3::PlbPathSelector",
    "ns3::BitmapPathSelector",
    "ns3::MprdmaPathSelector",
    "ns3::MrcPathSelector",
};

/**
 * A deterministic generator of the scenario of one seed (SplitMix64: the same numbers on every
 * platform and standard library, unlike std::uniform_int_distribution).
 */
class SoakRandom
{
  public:
    /// \param seed the seed
    explicit SoakRandom(uint64_t seed)
        : m_state(seed * 0x9E3779B97F4A7C15ull + 1)
    {
    }

    /// \return the next 64 random bits
    uint64_t Next()
    {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    /**
     * \param lo smallest value
     * \param hi largest value
     * \return a number in [lo, hi]
     */
    uint32_t Between(uint32_t lo, uint32_t hi)
    {
        return lo + static_cast<uint32_t>(Next() % (uint64_t(hi) - lo + 1));
    }

  private:
    uint64_t m_state; //!< State.
};

/// One message: what was posted, and what the application saw of it.
struct SoakMessage
{
    uint64_t size{0};         //!< Bytes posted.
    uint32_t completed{0};    //!< Sender completions.
    uint32_t received{0};     //!< Receiver deliveries.
    uint64_t receivedSize{0}; //!< Size the receiver was told.
};

/// One queue pair of a run and its messages, in posting order.
struct SoakFlow
{
    uint32_t src{0};                   //!< Sending host.
    uint32_t dst{0};                   //!< Receiving host.
    Ptr<RdmaQueuePair> sender;         //!< Sender side.
    Ptr<RdmaQueuePair> receiver;       //!< Receiver side.
    std::vector<SoakMessage> messages; //!< Messages posted.
    uint32_t nextReceived{0};          //!< Index of the next message the receiver should see.
    uint32_t outOfOrder{0};            //!< Receiver deliveries out of posting order.
    Time lastEvent;                    //!< Time of its last completion or delivery.
};

/// The transports the soak runs its scenarios under.
enum class SoakTransport
{
    WINDOW,       //!< The default window congestion control.
    RCCC,         //!< Receiver credits alone (RcccCongestionControl).
    NSCC_CREDITS, //!< NSCC with receiver credits.
};

/// \param t a transport \return its name in test names and failure messages
std::string
TransportName(SoakTransport t)
{
    switch (t)
    {
    case SoakTransport::RCCC:
        return "RCCC";
    case SoakTransport::NSCC_CREDITS:
        return "NSCC + receiver credits";
    case SoakTransport::WINDOW:
        break;
    }
    return "window CC";
}

/// The scenario of one seed.
struct SoakScenario
{
    uint32_t seed{0};         //!< Seed.
    uint32_t tiers{2};        //!< 2 or 3.
    uint32_t leaves{0};       //!< Leaves (2-tier).
    uint32_t spines{0};       //!< Spines (2-tier).
    uint32_t pods{0};         //!< Pods (3-tier).
    uint32_t leavesPerPod{0}; //!< Leaves per pod (3-tier).
    uint32_t aggsPerPod{0};   //!< Aggregation switches per pod (3-tier).
    uint32_t cores{0};        //!< Cores (3-tier).
    uint32_t hostsPerLeaf{0}; //!< Hosts per leaf.
    uint32_t queuePackets{0}; //!< Switch queue capacity.
    bool trimming{false};     //!< Switches and queue pairs trim.
    bool goBackN{false};      //!< Go-back-N instead of selective repeat.
    bool reconverge{false};   //!< Routes reconverge after 20 us (else: blackholes).
    std::string selector;     //!< Path selector TypeId.
    SoakTransport transport{SoakTransport::WINDOW}; //!< Congestion control and credits.

    /// \return a one-line description, for failure messages
    std::string Describe() const
    {
        std::ostringstream os;
        os << "seed " << seed << ": " << tiers << "-tier ";
        if (tiers == 2)
        {
            os << leaves << " leaves x " << hostsPerLeaf << " hosts, " << spines << " spines";
        }
        else
        {
            os << pods << " pods x " << leavesPerPod << " leaves x " << hostsPerLeaf << " hosts, "
               << aggsPerPod << " aggs/pod, " << cores << " cores";
        }
        os << ", " << queuePackets << "p queues, " << selector << (goBackN ? ", go-back-N" : "")
           << (trimming ? ", trimming" : "") << (reconverge ? ", reconverging" : "") << ", "
           << TransportName(transport);
        return os.str();
    }
};

/**
 * Draws the scenario of a seed. The selector, recovery mode and trimming cycle with the seed,
 * so that any 2 x (number of selectors) consecutive seeds run every selector in both recovery
 * modes, each once with trimming.
 */
SoakScenario
DrawScenario(uint32_t seed, SoakTransport transport)
{
    SoakRandom rng(seed);
    SoakScenario s;
    s.seed = seed;
    s.transport = transport;
    s.selector = kSelectors[seed % kSelectors.size()];
    s.goBackN = (seed / kSelectors.size()) % 2 == 1;
    s.trimming = (seed % kSelectors.size() + seed / kSelectors.size()) % 2 == 1;
    s.tiers = rng.Between(2, 3);
    if (s.tiers == 2)
    {
        s.leaves = rng.Between(1, 4);
        s.spines = rng.Between(1, 4);
    }
    else
    {
        s.pods = rng.Between(2, 3);
        s.leavesPerPod = rng.Between(1, 2);
        s.aggsPerPod = rng.Between(1, 2);
        s.cores = s.aggsPerPod * rng.Between(1, 2);
    }
    const uint32_t nLeaves = s.tiers == 2 ? s.leaves : s.pods * s.leavesPerPod;
    s.hostsPerLeaf = rng.Between(nLeaves == 1 ? 2 : 1, 4);
    s.queuePackets = rng.Between(8, 64);
    s.reconverge = rng.Between(0, 1) == 1;
    return s;
}

/// What the runs went through, summed over seeds (to show that the faults bite).
struct SoakTotals
{
    uint64_t flaps{0};           //!< Link failures injected.
    uint64_t degraded{0};        //!< Link degradations injected.
    uint64_t packets{0};         //!< RoCEv2 packets sent.
    uint64_t drops{0};           //!< Packets dropped (queues, failed links, switches).
    uint64_t trims{0};           //!< Packets trimmed.
    uint64_t retransmissions{0}; //!< Data packets sent again.
    uint64_t timeouts{0};        //!< Retransmission timeouts.
};

/// Runs one seed and checks every property; each violation is one line of the result.
class SoakRun
{
  public:
    /// \param scenario the scenario
    explicit SoakRun(const SoakScenario& scenario)
        : m_s(scenario),
          m_rng(scenario.seed ^ 0x50A4ull)
    {
    }

    /// \return the violations found, empty when the run is clean
    std::vector<std::string> Run();

    /// \return what the run went through
    const SoakTotals& GetTotals() const
    {
        return m_totals;
    }

  private:
    void Build();
    void InjectFaults();
    void CreateFlows();
    void Completed(SoakFlow* flow, uint32_t index, uint64_t id, uint64_t size, Time fct);
    void Received(SoakFlow* flow, uint64_t id, uint64_t size, Time t);
    void MaybeAllDone();
    void Watchdog();
    void CheckDelivery();
    void CheckConservation();
    uint64_t CountDrops() const;

    SoakScenario m_s;                      //!< Scenario.
    SoakRandom m_rng;                      //!< Faults and flows.
    Ptr<ClosFabric> m_fabric;              //!< Fabric.
    RdmaHelper m_rdma;                     //!< Installs the stacks and queue pairs.
    std::vector<SoakFlow> m_flows;         //!< Flows (reserved: callbacks hold pointers).
    uint64_t m_messagesPosted{0};          //!< Messages posted.
    uint64_t m_messagesDone{0};            //!< Messages completed and delivered.
    Time m_lastFault;                      //!< Time of the last fault event (down, up, rate).
    Time m_allDone{Time::Max()};           //!< When the last message completed.
    bool m_watchdogFired{false};           //!< The post-completion check ran.
    bool m_eventsLeft{false};              //!< Events were left at the check.
    EventId m_deadline;                    //!< Stops a run whose flows never finish.
    std::vector<std::string> m_violations; //!< What went wrong.
    SoakTotals m_totals;                   //!< What the run went through.
};

void
SoakRun::Build()
{
    Ptr<ClosFabricHelper> h = CreateObject<ClosFabricHelper>();
    h->SetAttribute("Tiers", UintegerValue(m_s.tiers));
    if (m_s.tiers == 2)
    {
        h->SetAttribute("Leaves", UintegerValue(m_s.leaves));
        h->SetAttribute("Spines", UintegerValue(m_s.spines));
    }
    else
    {
        h->SetAttribute("Pods", UintegerValue(m_s.pods));
        h->SetAttribute("LeavesPerPod", UintegerValue(m_s.leavesPerPod));
        h->SetAttribute("AggsPerPod", UintegerValue(m_s.aggsPerPod));
        h->SetAttribute("Cores", UintegerValue(m_s.cores));
    }
    h->SetAttribute("HostsPerLeaf", UintegerValue(m_s.hostsPerLeaf));
    h->SetAttribute("HostLinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("LeafUplinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetAttribute("AggUplinkRate", DataRateValue(DataRate("100Gbps")));
    h->SetSwitchQueueDisc(
        "ns3::EcnQueueDisc",
        "MaxSize",
        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, m_s.queuePackets)),
        "Kmin",
        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, m_s.queuePackets / 4)),
        "Kmax",
        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, m_s.queuePackets * 3 / 4)),
        "Trimming",
        BooleanValue(m_s.trimming));
    h->SetAttribute("HashSeed", UintegerValue(m_s.seed));
    h->SetPlaneAttribute("RoutingConvergenceDelay",
                         TimeValue(m_s.reconverge ? MicroSeconds(20) : Time::Max()));
    m_fabric = h->Build();

    m_rdma.SetPathSelector(m_s.selector);
    if (m_s.transport == SoakTransport::RCCC)
    {
        m_rdma.SetCongestionControl("ns3::RcccCongestionControl");
        // As the reference runs receiver credits alone on a fabric whose core is
        // oversubscribed (most of these are): with the oversubscription control.
        Config::SetDefault("ns3::RcccPullPacer::OversubscriptionControl", BooleanValue(true));
    }
    else if (m_s.transport == SoakTransport::NSCC_CREDITS)
    {
        m_rdma.SetCongestionControl("ns3::NsccCongestionControl");
        m_rdma.SetQueuePairAttribute("ReceiverCredits", BooleanValue(true));
    }
    m_rdma.SetQueuePairAttribute("GoBackN", BooleanValue(m_s.goBackN));
    m_rdma.SetQueuePairAttribute("Trimming", BooleanValue(m_s.trimming));
    m_rdma.Install(m_fabric->GetHosts());
}

void
SoakRun::InjectFaults()
{
    // Links between switches, and a host link now and then: a failed host link cuts its host
    // off until it comes back, which only delays its flows.
    std::vector<uint32_t> links;
    for (uint32_t l = 0; l < m_fabric->GetNLinks(); ++l)
    {
        if (m_fabric->GetLinkTier(l) != ClosFabric::HOST_LEAF || m_rng.Between(0, 3) == 0)
        {
            links.push_back(l);
        }
    }
    const uint32_t flaps = m_rng.Between(0, 3);
    for (uint32_t i = 0; i < flaps; ++i)
    {
        const uint32_t link = links[m_rng.Between(0, links.size() - 1)];
        const Time at = MicroSeconds(m_rng.Between(0, 150));
        const Time upAt = at + MicroSeconds(m_rng.Between(5, 300));
        if (m_fabric->IsLinkUp(link) && at > m_lastFault)
        {
            // One flap per link at a time, in order, so that no flap ends inside another.
            m_fabric->FailLink(link, at, upAt);
            ++m_totals.flaps;
            m_lastFault = Max(m_lastFault, upAt);
        }
    }
    const uint32_t degraded = m_rng.Between(0, 2);
    for (uint32_t i = 0; i < degraded; ++i)
    {
        const uint32_t link = links[m_rng.Between(0, links.size() - 1)];
        const Time at = MicroSeconds(m_rng.Between(0, 100));
        const uint32_t divisor = m_rng.Between(2, 10);
        m_fabric->DegradeLink(link, DataRate(100000000000ull / divisor), at);
        ++m_totals.degraded;
        m_lastFault = Max(m_lastFault, at);
    }
}

void
SoakRun::CreateFlows()
{
    const uint32_t hosts = m_fabric->GetNHosts();
    const uint32_t nFlows = m_rng.Between(1, 2 * hosts);
    m_flows.resize(nFlows);
    for (uint32_t f = 0; f < nFlows; ++f)
    {
        SoakFlow& flow = m_flows[f];
        flow.src = m_rng.Between(0, hosts - 1);
        flow.dst = (flow.src + m_rng.Between(1, hosts - 1)) % hosts;
        m_rdma.SetQueuePairAttribute("BaseRtt",
                                     TimeValue(m_fabric->GetBaseRtt(flow.src, flow.dst, 4140, 66)));
        auto qps = m_rdma.CreateQueuePair(m_fabric->GetHost(flow.src), m_fabric->GetHost(flow.dst));
        flow.sender = qps.first;
        flow.receiver = qps.second;
        flow.receiver->SetReceiveCallback(MakeCallback(&SoakRun::Received, this).Bind(&flow));
        const uint32_t nMessages = m_rng.Between(1, 3);
        // Posting times in the order of the messages, so that the receiver sees them so.
        std::vector<Time> postAt;
        for (uint32_t m = 0; m < nMessages; ++m)
        {
            postAt.push_back(MicroSeconds(m_rng.Between(0, 100)));
        }
        std::sort(postAt.begin(), postAt.end());
        for (uint32_t m = 0; m < nMessages; ++m)
        {
            SoakMessage msg;
            switch (m_rng.Between(0, 5))
            {
            case 0:
                msg.size = 0;
                break;
            case 1:
                msg.size = m_rng.Between(1, 4096);
                break;
            default:
                msg.size = m_rng.Between(4097, 300000);
            }
            flow.messages.push_back(msg);
            Simulator::Schedule(postAt[m], [this, &flow, m]() {
                flow.sender->PostSend(flow.messages[m].size,
                                      MakeCallback(&SoakRun::Completed, this).Bind(&flow, m));
            });
            ++m_messagesPosted;
        }
    }
    // Explicit streams, so that a seed gives the same run whichever seeds ran before it.
    m_rdma.AssignStreams(m_fabric->GetHosts(), 1000);
    ClosFabricHelper::AssignStreams(m_fabric, 100000);
}

void
SoakRun::Completed(SoakFlow* flow, uint32_t index, uint64_t id, uint64_t size, Time fct)
{
    SoakMessage& m = flow->messages[index];
    ++m.completed;
    if (size != m.size)
    {
        m_violations.push_back("a sender completion reports " + std::to_string(size) +
                               " bytes for a message of " + std::to_string(m.size));
    }
    flow->lastEvent = Simulator::Now();
    MaybeAllDone();
}

void
SoakRun::Received(SoakFlow* flow, uint64_t id, uint64_t size, Time t)
{
    // Messages of one queue pair are delivered in posting order (RC semantics).
    if (flow->nextReceived >= flow->messages.size())
    {
        m_violations.push_back("host " + std::to_string(flow->dst) +
                               " received a message more than were posted");
        return;
    }
    SoakMessage& m = flow->messages[flow->nextReceived++];
    ++m.received;
    m.receivedSize = size;
    flow->lastEvent = Simulator::Now();
    MaybeAllDone();
}

void
SoakRun::MaybeAllDone()
{
    uint64_t done = 0;
    for (const auto& f : m_flows)
    {
        for (const auto& m : f.messages)
        {
            done += (m.completed > 0 && m.received > 0) ? 1 : 0;
        }
    }
    if (done < m_messagesPosted || m_allDone != Time::Max())
    {
        return;
    }
    m_allDone = Simulator::Now();
    Simulator::Remove(m_deadline);
    // Past the last fault and every queue pair's retransmission timeout (a cancelled timer
    // still sits in the event list until its time), nothing may be left: a timer that rearms
    // itself, or a stray event, would still be there.
    Time maxRto;
    Time maxRtt;
    for (const auto& f : m_flows)
    {
        maxRto = Max(maxRto, Max(f.sender->GetRto(), f.receiver->GetRto()));
        maxRtt = Max(maxRtt, f.sender->GetBaseRtt());
    }
    Time at = Max(m_allDone, m_lastFault) + 2 * maxRto + MicroSeconds(50);
    if (m_s.transport != SoakTransport::WINDOW)
    {
        // The receivers' pacers still owe idle senders their slow pulls, and the
        // oversubscription control climbs back to the full rate: ten control intervals (at
        // most 1.25 x 1.5 base RTTs each) are plenty.
        at += 10 * 1.875 * maxRtt;
    }
    Simulator::Schedule(at - Simulator::Now(), &SoakRun::Watchdog, this);
}

void
SoakRun::Watchdog()
{
    m_watchdogFired = true;
    m_eventsLeft = !Simulator::IsFinished();
    Simulator::Stop();
}

void
SoakRun::CheckDelivery()
{
    for (const auto& f : m_flows)
    {
        std::ostringstream where;
        where << "QP " << f.src << " -> " << f.dst;
        uint64_t bytes = 0;
        for (uint32_t i = 0; i < f.messages.size(); ++i)
        {
            const SoakMessage& m = f.messages[i];
            bytes += m.size;
            if (m.completed != 1 || m.received != 1 || m.receivedSize != m.size)
            {
                std::ostringstream os;
                os << where.str() << " message " << i << " of " << m.size << " bytes: completed "
                   << m.completed << " times, received " << m.received << " times ("
                   << m.receivedSize << " bytes); incomplete because: timeouts "
                   << f.sender->GetStats().timeouts << ", retransmissions "
                   << f.sender->GetStats().retransmissions << ", bytes in flight "
                   << f.sender->GetBytesInFlight();
                m_violations.push_back(os.str());
            }
        }
        const RdmaQueuePairStats& rx = f.receiver->GetStats();
        if (rx.bytesReceived != bytes || rx.messagesReceived != f.messages.size())
        {
            m_violations.push_back(where.str() + ": " + std::to_string(rx.bytesReceived) +
                                   " bytes placed of " + std::to_string(bytes));
        }
        if (!f.sender->IsIdle() || f.sender->GetBytesInFlight() != 0 ||
            f.sender->GetStats().messagesCompleted != f.messages.size())
        {
            m_violations.push_back(where.str() + ": outstanding state after completion (" +
                                   std::to_string(f.sender->GetBytesInFlight()) +
                                   " bytes in flight)");
        }
        const RdmaQueuePairStats& tx = f.sender->GetStats();
        if (tx.packetsSent < rx.dataReceived - rx.duplicates || tx.retransmissions > tx.packetsSent)
        {
            m_violations.push_back(where.str() + ": the receiver saw more new packets than sent");
        }
    }
}

uint64_t
SoakRun::CountDrops() const
{
    uint64_t drops = 0;
    for (uint32_t l = 0; l < m_fabric->GetNLinks(); ++l)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            drops += m_fabric->GetLinkCounters(l, side).droppedPackets;
            const ClosFabric::QueueStats q = m_fabric->GetQueueStats(l, side);
            if (q.hasQueueDisc)
            {
                drops += q.drops;
            }
            Ptr<PointToPointNetDevice> dev = m_fabric->GetLinkDevice(l, side);
            drops += dev->GetQueue()->GetTotalDroppedPackets();
            Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
            Ptr<QueueDisc> root = tc ? tc->GetRootQueueDiscOnDevice(dev) : nullptr;
            if (root && !q.hasQueueDisc)
            {
                drops += root->GetStats().nTotalDroppedPackets;
            }
        }
    }
    for (uint32_t n = 0; n < m_fabric->GetSwitches().GetN(); ++n)
    {
        Ptr<FabricSwitch> sw = m_fabric->GetSwitches().Get(n)->GetObject<FabricSwitch>();
        if (sw)
        {
            drops += sw->GetCounters().noRouteDrops + sw->GetCounters().ttlDrops;
        }
    }
    return drops;
}

void
SoakRun::CheckConservation()
{
    uint64_t sent = 0;
    uint64_t received = 0;
    for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
    {
        Ptr<RdmaStack> stack = m_fabric->GetHost(h)->GetObject<RdmaStack>();
        sent += stack->GetStats().packetsSent;
        received += stack->GetStats().packetsReceived;
        if (stack->GetStats().malformed + stack->GetStats().unknownQp != 0)
        {
            m_violations.push_back("host " + std::to_string(h) +
                                   " received malformed packets or packets for no queue pair");
        }
    }
    const uint64_t drops = CountDrops();
    m_totals.packets = sent;
    m_totals.drops = drops;
    for (uint32_t l = 0; l < m_fabric->GetNLinks(); ++l)
    {
        for (uint32_t side = 0; side < 2; ++side)
        {
            m_totals.trims += m_fabric->GetQueueStats(l, side).trims;
        }
    }
    for (const auto& f : m_flows)
    {
        m_totals.retransmissions += f.sender->GetStats().retransmissions;
        m_totals.timeouts += f.sender->GetStats().timeouts;
    }
    if (sent != received + drops)
    {
        std::ostringstream os;
        os << "packets not accounted for: sent " << sent << ", received " << received
           << ", dropped " << drops << " (nothing is in flight once the event list is empty)";
        m_violations.push_back(os.str());
    }
}

std::vector<std::string>
SoakRun::Run()
{
    Build();
    InjectFaults();
    CreateFlows();
    // Every flow of these fabrics ends within a few milliseconds once its links are back.
    m_deadline = Simulator::Schedule(MilliSeconds(50), []() { Simulator::Stop(); });
    Simulator::Run();
    if (m_allDone == Time::Max())
    {
        m_violations.push_back("not every flow finished within 50 ms of simulated time");
    }
    else if (!m_watchdogFired || m_eventsLeft)
    {
        m_violations.push_back("events were left after the last flow ended and every timeout "
                               "passed (a timer rearms itself)");
    }
    CheckDelivery();
    if (m_allDone != Time::Max() && !m_eventsLeft)
    {
        CheckConservation();
    }
    Simulator::Destroy();
    Config::SetDefault("ns3::RcccPullPacer::OversubscriptionControl", BooleanValue(false));
    return m_violations;
}

} // namespace

/**
 * \ingroup reps-test
 * Runs the scenarios of a range of seeds and checks every run.
 */
class RepsSoakTestCase : public TestCase
{
  public:
    /**
     * \param first first seed
     * \param count number of seeds
     */
    RepsSoakTestCase(uint32_t first,
                     uint32_t count,
                     SoakTransport transport = SoakTransport::WINDOW)
        : TestCase("Fault soak, " + TransportName(transport) + ", seeds " + std::to_string(first) +
                   " to " + std::to_string(first + count - 1) +
                   ": every message once, every packet accounted for, nothing left behind"),
          m_first(first),
          m_count(count),
          m_transport(transport)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t oldRun = RngSeedManager::GetRun();
        uint32_t clean = 0;
        SoakTotals sum;
        for (uint32_t seed = m_first; seed < m_first + m_count; ++seed)
        {
            const SoakScenario s = DrawScenario(seed, m_transport);
            RngSeedManager::SetRun(seed);
            SoakRun run(s);
            const std::vector<std::string> violations = run.Run();
            for (const auto& v : violations)
            {
                NS_TEST_EXPECT_MSG_EQ(v, "", s.Describe());
            }
            clean += violations.empty() ? 1 : 0;
            const SoakTotals& t = run.GetTotals();
            sum.flaps += t.flaps;
            sum.degraded += t.degraded;
            sum.packets += t.packets;
            sum.drops += t.drops;
            sum.trims += t.trims;
            sum.retransmissions += t.retransmissions;
            sum.timeouts += t.timeouts;
        }
        RngSeedManager::SetRun(oldRun);
        std::cout << "reps-soak, " << TransportName(m_transport) << ": " << clean << " of "
                  << m_count << " seeds clean (seeds " << m_first << " to " << m_first + m_count - 1
                  << "): " << sum.flaps << " link flaps, " << sum.degraded << " degraded links, "
                  << sum.packets << " packets, " << sum.drops << " dropped, " << sum.trims
                  << " trimmed, " << sum.retransmissions << " retransmissions, " << sum.timeouts
                  << " timeouts" << std::endl;
        // The faults must bite: a soak that never loses a packet checks nothing.
        NS_TEST_EXPECT_MSG_GT(sum.drops, 0, "the faults dropped packets");
        NS_TEST_EXPECT_MSG_GT(sum.timeouts, 0, "the faults caused timeouts");
    }

    uint32_t m_first;          //!< First seed.
    uint32_t m_count;          //!< Seeds.
    SoakTransport m_transport; //!< Congestion control and credits.
};

/**
 * \ingroup reps-test
 * The fault soak: QUICK runs the first 18 seeds (every selector in both recovery modes, with
 * trimming and without) under each transport, EXTENSIVE 50 more each, TAKES_FOREVER 1000 more
 * (window congestion control).
 */
class RepsSoakTestSuite : public TestSuite
{
  public:
    RepsSoakTestSuite()
        : TestSuite("reps-soak", TestSuite::Type::UNIT)
    {
        AddTestCase(new RepsSoakTestCase(1, 18), reps::kQuick);
        AddTestCase(new RepsSoakTestCase(1, 18, SoakTransport::RCCC), reps::kQuick);
        AddTestCase(new RepsSoakTestCase(1, 18, SoakTransport::NSCC_CREDITS), reps::kQuick);
        AddTestCase(new RepsSoakTestCase(19, 50), reps::kExtensive);
        AddTestCase(new RepsSoakTestCase(19, 50, SoakTransport::RCCC), reps::kExtensive);
        AddTestCase(new RepsSoakTestCase(19, 50, SoakTransport::NSCC_CREDITS), reps::kExtensive);
        AddTestCase(new RepsSoakTestCase(69, 1000), reps::kTakesForever);
    }
};

/// The suite's instance.
static RepsSoakTestSuite g_repsSoakTestSuite;
