/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CLOS_FABRIC_H
#define REPS_CLOS_FABRIC_H

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricLinkErrorModel;
class FabricSwitch;
class PointToPointNetDevice;
class QueueDisc;

/**
 * \ingroup reps
 * A 2-tier (leaf-spine) or 3-tier (pods of leaves and aggregation switches, plus cores) Clos
 * fabric built by ClosFabricHelper: names every host, switch and link, computes the
 * equal-cost forwarding tables of the switches from the wiring, schedules link failures and
 * rate changes, and collects per-link and per-queue counters.
 *
 * Hosts are numbered 0 .. GetNHosts() - 1, leaf by leaf (host h is on leaf h / HostsPerLeaf);
 * host h has address base + 1 + h. Leaves are numbered globally (in a 3-tier fabric, leaf l
 * of pod p is leaf p * LeavesPerPod + l), and so are aggregation switches.
 *
 * A link has two sides: side 0 is the end nearer to the hosts (the host of a host link, the
 * leaf of a leaf uplink, the aggregation switch of an aggregation uplink), side 1 the other.
 * Direction 0 of a link carries packets from side 0 to side 1 (up), direction 1 down.
 *
 * Routing: a switch forwards toward a destination host over every port whose link leads one
 * hop closer to the host's leaf (breadth-first distances over the links that routing
 * believes up). When a link fails, routing keeps using it until RoutingConvergenceDelay has
 * passed (by default forever: the link is a blackhole), then recomputes every table without
 * it; when it comes back, the tables are recomputed with it after the same delay.
 */
class ClosFabric : public Object
{
  public:
    /// Role of a node.
    enum Role
    {
        HOST,  //!< A host.
        LEAF,  //!< A leaf (top-of-rack) switch.
        SPINE, //!< A spine of a 2-tier fabric.
        AGG,   //!< An aggregation switch of a 3-tier fabric.
        CORE,  //!< A core switch of a 3-tier fabric.
    };

    /// Tier of a link.
    enum Tier
    {
        HOST_LEAF,  //!< Host to leaf.
        LEAF_SPINE, //!< Leaf to spine (2-tier).
        LEAF_AGG,   //!< Leaf to aggregation switch (3-tier).
        AGG_CORE,   //!< Aggregation switch to core (3-tier).
    };

    /// Returned by FindLink() when two nodes are not linked.
    static constexpr uint32_t NO_LINK = UINT32_MAX;

    /// Counters of one direction of a link (sizes include the 2-byte PPP header).
    struct LinkCounters
    {
        uint64_t packets{0};        //!< Packets delivered.
        uint64_t bytes{0};          //!< Bytes delivered.
        uint64_t droppedPackets{0}; //!< Packets lost while the link was down.
        uint64_t droppedBytes{0};   //!< Bytes lost while the link was down.
    };

    /// Statistics of the egress queue of one switch port.
    struct QueueStats
    {
        bool hasQueueDisc{false}; //!< Whether the port has a queue disc.
        bool hasDepth{false};     //!< Whether the depth fields are known (EcnQueueDisc).
        uint64_t enqueued{0};     //!< Packets enqueued.
        uint64_t marks{0};        //!< Packets marked CE.
        uint64_t drops{0};        //!< Packets dropped (early and overflow).
        uint64_t trims{0};        //!< Packets trimmed.
        uint32_t maxPackets{0};   //!< Largest length, in packets.
        uint32_t maxBytes{0};     //!< Largest length, in bytes.
        double averagePackets{0}; //!< Time-averaged length, in packets.
        double averageBytes{0};   //!< Time-averaged length, in bytes.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosFabric();
    ~ClosFabric() override;

    /**
     * TracedCallback signature of the LinkState and RouteState trace sources.
     * \param [in] link the link
     * \param [in] up whether it is up
     */
    typedef void (*LinkStateTracedCallback)(uint32_t link, bool up);

    /// \return 2 or 3
    uint32_t GetNTiers() const;
    /// \return the number of hosts
    uint32_t GetNHosts() const;
    /// \return the number of leaves
    uint32_t GetNLeaves() const;
    /// \return the number of hosts per leaf
    uint32_t GetNHostsPerLeaf() const;
    /// \return the number of spines (0 in a 3-tier fabric)
    uint32_t GetNSpines() const;
    /// \return the number of pods (1 in a 2-tier fabric)
    uint32_t GetNPods() const;
    /// \return the number of leaves per pod
    uint32_t GetNLeavesPerPod() const;
    /// \return the number of aggregation switches per pod (0 in a 2-tier fabric)
    uint32_t GetNAggsPerPod() const;
    /// \return the number of core switches (0 in a 2-tier fabric)
    uint32_t GetNCores() const;
    /// \return the number of parallel links between two linked switches
    uint32_t GetNParallelLinks() const;
    /// \return the number of switches
    uint32_t GetNSwitches() const;
    /// \return the number of links (host links included)
    uint32_t GetNLinks() const;

    /**
     * \param host a host number
     * \return the host node
     */
    Ptr<Node> GetHost(uint32_t host) const;
    /**
     * \param host a host number
     * \return its IPv4 address
     */
    Ipv4Address GetHostAddress(uint32_t host) const;
    /**
     * \param address an address
     * \return the number of the host that has it, or GetNHosts() if none
     */
    uint32_t GetHostIndex(Ipv4Address address) const;
    /**
     * \param host a host number
     * \return the number of its leaf
     */
    uint32_t GetLeafOfHost(uint32_t host) const;
    /**
     * \param host a host number
     * \return its pod (0 in a 2-tier fabric)
     */
    uint32_t GetPodOfHost(uint32_t host) const;
    /// \return every host, in host-number order
    NodeContainer GetHosts() const;
    /// \return every switch (leaves, then spines or aggregation switches, then cores)
    NodeContainer GetSwitches() const;

    /**
     * \param leaf a global leaf number
     * \return the leaf
     */
    Ptr<Node> GetLeaf(uint32_t leaf) const;
    /**
     * \param spine a spine number
     * \return the spine
     */
    Ptr<Node> GetSpine(uint32_t spine) const;
    /**
     * \param pod a pod
     * \param agg an aggregation switch of the pod (0 .. AggsPerPod - 1)
     * \return the aggregation switch
     */
    Ptr<Node> GetAgg(uint32_t pod, uint32_t agg) const;
    /**
     * \param core a core number
     * \return the core switch
     */
    Ptr<Node> GetCore(uint32_t core) const;
    /**
     * \param node a node of the fabric
     * \return its role
     */
    Role GetRole(Ptr<Node> node) const;
    /**
     * \param node a node of the fabric
     * \return a name such as host12, leaf3, spine0, agg1.2 (pod 1), core7
     */
    std::string GetNodeName(Ptr<Node> node) const;

    /**
     * \param host a host number
     * \return the link between the host and its leaf
     */
    uint32_t GetHostLink(uint32_t host) const;
    /**
     * \param leaf a global leaf number
     * \param spine a spine number
     * \param k which of the parallel links
     * \return the link
     */
    uint32_t GetLeafSpineLink(uint32_t leaf, uint32_t spine, uint32_t k = 0) const;
    /**
     * \param leaf a global leaf number
     * \param agg an aggregation switch of the leaf's pod (0 .. AggsPerPod - 1)
     * \param k which of the parallel links
     * \return the link
     */
    uint32_t GetLeafAggLink(uint32_t leaf, uint32_t agg, uint32_t k = 0) const;
    /**
     * \param pod a pod
     * \param agg an aggregation switch of the pod
     * \param core a core the aggregation switch is linked to
     * \param k which of the parallel links
     * \return the link
     */
    uint32_t GetAggCoreLink(uint32_t pod, uint32_t agg, uint32_t core, uint32_t k = 0) const;
    /**
     * \param a a node
     * \param b another node
     * \param k which of the parallel links
     * \return the k-th link between a and b, or NO_LINK
     */
    uint32_t FindLink(Ptr<Node> a, Ptr<Node> b, uint32_t k = 0) const;
    /**
     * \param tier a tier
     * \return its links, in the order they were built
     */
    std::vector<uint32_t> GetLinks(Tier tier) const;
    /**
     * \param link a link
     * \return its tier
     */
    Tier GetLinkTier(uint32_t link) const;
    /**
     * \param link a link
     * \param side 0 (toward the hosts) or 1
     * \return the node at that side
     */
    Ptr<Node> GetLinkNode(uint32_t link, uint32_t side) const;
    /**
     * \param link a link
     * \param side 0 (toward the hosts) or 1
     * \return the device at that side
     */
    Ptr<PointToPointNetDevice> GetLinkDevice(uint32_t link, uint32_t side) const;
    /**
     * \param link a link
     * \return a name such as leaf3-spine1 or leaf3-spine1#2 for a parallel link
     */
    std::string GetLinkName(uint32_t link) const;
    /**
     * \param link a link
     * \return whether the link currently carries packets
     */
    bool IsLinkUp(uint32_t link) const;
    /**
     * \param link a link
     * \return whether routing currently uses the link
     */
    bool IsLinkRouted(uint32_t link) const;
    /**
     * \param link a link
     * \return its current rate
     */
    DataRate GetLinkRate(uint32_t link) const;
    /**
     * \param link a link
     * \return its one-way propagation delay
     */
    Time GetLinkDelay(uint32_t link) const;

    /**
     * Check a link number.
     * \param link a link number
     * \return an empty string when the link exists, else a message naming the parameter
     */
    std::string ValidateLink(uint32_t link) const;

    /**
     * \param link a link
     * \param direction 0 (side 0 to side 1) or 1
     * \return the counters of that direction
     */
    LinkCounters GetLinkCounters(uint32_t link, uint32_t direction) const;
    /**
     * \param link a link
     * \param side the side whose egress queue is wanted (a switch side)
     * \return the statistics of the egress queue of that switch port
     */
    QueueStats GetQueueStats(uint32_t link, uint32_t side) const;
    /**
     * \param link a link
     * \param side a side
     * \return the root queue disc of that side's device (null if none)
     */
    Ptr<QueueDisc> GetQueueDisc(uint32_t link, uint32_t side) const;

    /**
     * The base round-trip time between two hosts over the routed path (first equal-cost
     * choice at every hop): propagation both ways plus, on every link, the serialization
     * of one data packet one way and of one ACK the other way, store-and-forward.
     * \param src a host
     * \param dst another host
     * \param packetBytes IPv4 size of the data packet (the PPP header is added)
     * \param ackBytes IPv4 size of the ACK
     * \return the base RTT, or Time::Max() if dst is unreachable
     */
    Time GetBaseRtt(uint32_t src,
                    uint32_t dst,
                    uint32_t packetBytes = 4096,
                    uint32_t ackBytes = 64) const;
    /**
     * \param src a host
     * \param dst another host
     * \return the number of distinct equal-cost paths the switches' tables give from src to
     *         dst (parallel links count as distinct paths)
     */
    uint64_t GetNEqualCostPaths(uint32_t src, uint32_t dst) const;
    /**
     * \return half the total up-link capacity of the narrowest tier at the current link
     *         rates, which is the bisection bandwidth of a symmetric Clos fabric
     */
    DataRate GetBisectionBandwidth() const;
    /**
     * \param tier LEAF_SPINE / LEAF_AGG (host capacity of a leaf over its up-link capacity)
     *        or AGG_CORE (down-link over up-link capacity of an aggregation switch)
     * \return the oversubscription ratio of that tier at the nominal rates
     */
    double GetOversubscription(Tier tier) const;

    /// \param os where to print counts, rates, bisection bandwidth and base RTT
    void PrintSummary(std::ostream& os) const;
    /**
     * Print the load of every switch-to-switch link (and host links if asked).
     * \param os where to print
     * \param duration the interval the counters cover (for utilization)
     * \param hostLinks whether to print host links too
     */
    void PrintLinkLoad(std::ostream& os, Time duration, bool hostLinks = false) const;

    /**
     * Take a link down (both directions) at a given time, and optionally up again.
     * \param link the link
     * \param at when it fails (absolute simulation time, not in the past)
     * \param upAt when it comes back (Time::Max(): never)
     */
    void FailLink(uint32_t link, Time at, Time upAt = Time::Max());
    /**
     * Change the rate of a link (both directions) at a given time.
     * \param link the link
     * \param rate the new rate
     * \param at when (absolute simulation time; now or 0 means immediately)
     */
    void DegradeLink(uint32_t link, DataRate rate, Time at = Seconds(0));
    /**
     * Fail n links of a tier chosen at random from a given ns-3 random stream.
     * \param tier the tier
     * \param n how many (at most the number of links of the tier)
     * \param seed the stream index of the choice (the choice follows the run number too)
     * \param at when they fail
     * \param upAt when they come back (Time::Max(): never)
     * \return the links chosen
     */
    std::vector<uint32_t> FailRandomLinks(Tier tier,
                                          uint32_t n,
                                          uint32_t seed,
                                          Time at = Seconds(0),
                                          Time upAt = Time::Max());
    /**
     * Change the rate of n links of a tier chosen at random from a given ns-3 random stream.
     * \param tier the tier
     * \param n how many (at most the number of links of the tier)
     * \param rate the new rate
     * \param seed the stream index of the choice (the same index chooses the same links)
     * \param at when
     * \return the links chosen
     */
    std::vector<uint32_t> DegradeRandomLinks(Tier tier,
                                             uint32_t n,
                                             DataRate rate,
                                             uint32_t seed,
                                             Time at = Seconds(0));
    /**
     * Recompute the forwarding tables of every switch from the links routing believes up.
     * \return the number of (switch, destination host) pairs left without a route
     */
    uint64_t RecomputeRoutes();

  protected:
    void DoDispose() override;

  private:
    friend class ClosFabricHelper;

    /// One link.
    struct Link
    {
        Tier tier;                             //!< Tier.
        uint32_t node[2];                      //!< Fabric node index at each side.
        Ptr<PointToPointNetDevice> device[2];  //!< Device at each side.
        Ptr<FabricLinkErrorModel> receiver[2]; //!< Receive error model at each side.
        uint32_t port[2];                      //!< Switch port at each side (or UINT32_MAX).
        uint32_t parallelIndex;                //!< Which of the parallel links.
        bool up;                               //!< Physical state.
        bool routed;                           //!< State as routing sees it.
    };

    /**
     * Index of a node of the fabric.
     * \param node the node
     * \param what the parameter name, for the message
     * \return the index (aborts when the node is not in the fabric)
     */
    uint32_t IndexOf(Ptr<Node> node, const char* what) const;
    /**
     * Abort on a bad link number.
     * \param link the link
     * \param caller the method, for the message
     */
    void CheckLink(uint32_t link, const char* caller) const;
    /**
     * Set the physical state of a link.
     * \param link the link
     * \param up the new state
     */
    void SetLinkState(uint32_t link, bool up);
    /**
     * Set the state of a link as routing sees it, and recompute the tables.
     * \param link the link
     * \param up the new state
     */
    void SetRouteState(uint32_t link, bool up);
    /// Recompute the tables once for all the route changes of this instant.
    void RecomputePendingRoutes();
    /**
     * Set the rate of a link.
     * \param link the link
     * \param rate the rate
     */
    void SetLinkRate(uint32_t link, DataRate rate);
    /**
     * Choose links of a tier at random.
     * \param tier the tier
     * \param n how many
     * \param seed the ns-3 stream index of the choice
     * \param caller the method, for the message
     * \return the links
     */
    std::vector<uint32_t> ChooseLinks(Tier tier,
                                      uint32_t n,
                                      uint32_t seed,
                                      const char* caller) const;
    /**
     * \param node a fabric node index
     * \return the port number at that node of a link
     * \param link the link
     */
    uint32_t PortOf(uint32_t node, uint32_t link) const;

    // Shape.
    uint32_t m_tiers;          //!< 2 or 3.
    uint32_t m_hostsPerLeaf;   //!< Hosts per leaf.
    uint32_t m_pods;           //!< Pods (1 for 2-tier).
    uint32_t m_leavesPerPod;   //!< Leaves per pod (all leaves for 2-tier).
    uint32_t m_aggsPerPod;     //!< Aggregation switches per pod.
    uint32_t m_spines;         //!< Spines.
    uint32_t m_cores;          //!< Cores.
    uint32_t m_parallel;       //!< Parallel links.
    Ipv4Address m_base;        //!< Host h has address m_base + 1 + h.
    DataRate m_nominalRate[4]; //!< Configured rate of each tier.

    // Nodes: fabric index = host number for hosts, then switches.
    std::vector<Ptr<Node>> m_nodes;            //!< Hosts, then switches.
    std::vector<Role> m_roles;                 //!< Role of each fabric node.
    std::vector<Ptr<FabricSwitch>> m_switches; //!< Switch of each fabric node (null: host).
    std::unordered_map<uint32_t, uint32_t> m_nodeIdToIndex; //!< ns-3 node id -> fabric index.
    uint32_t m_firstLeaf;                                   //!< Fabric index of leaf 0.
    uint32_t m_firstSpine;                                  //!< Fabric index of spine/agg 0.
    uint32_t m_firstCore;                                   //!< Fabric index of core 0.

    std::vector<Link> m_links;                      //!< Links.
    std::vector<std::vector<uint32_t>> m_adjacency; //!< Links of each fabric node.
    std::vector<std::vector<uint32_t>> m_portLinks; //!< Switch port -> link, per fabric node.

    Time m_convergenceDelay; //!< RoutingConvergenceDelay attribute.
    bool m_recomputePending; //!< Whether a recomputation is scheduled for now.
    TracedCallback<uint32_t, bool> m_linkStateTrace;  //!< LinkState trace source.
    TracedCallback<uint32_t, bool> m_routeStateTrace; //!< RouteState trace source.
};

} // namespace ns3

#endif /* REPS_CLOS_FABRIC_H */
