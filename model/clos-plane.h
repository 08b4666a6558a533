/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CLOS_PLANE_H
#define REPS_CLOS_PLANE_H

#include "clos-routes.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricLinkErrorModel;
class FabricSwitch;

/**
 * \ingroup reps
 * One plane of a Clos fabric: a 2-tier (leaf-spine) or 3-tier (pods of leaves and aggregation
 * switches, plus cores) Clos network of its own switches and links over hosts it may share
 * with other planes. It names its hosts, switches and links, computes the equal-cost
 * forwarding tables of its switches from the wiring (ClosRoutes), schedules link failures and
 * rate changes, and collects per-link and per-queue counters. A ClosFabric owns one or more
 * planes (ClosFabric::AddPlane()); ClosFabricHelper builds both.
 *
 * Construction, in this order (each step checks its arguments against the plane and aborts
 * with the message of the matching Validate method):
 * 1. SetShape() with the counts, the host addresses and the nominal rates (ValidateShape());
 * 2. AddNode() for every node, with its role, in the order of the node index: hosts, leaves,
 *    spines (2-tier) or aggregation switches pod by pod (3-tier), cores (ValidateNewNode());
 *    a switch node must carry a FabricSwitch and a TrafficControlLayer by its first link;
 * 3. AddLink() for every link, with its tier, its two devices (side 0 first) and which of the
 *    parallel links it is (ValidateNewLink()); the root queue disc of a switch port must be
 *    installed before, since the link makes the device a port of the FabricSwitch;
 * 4. Finish(), which checks that every node and link of the shape is there (ValidateWiring()),
 *    gives the switches the host addressing and computes their tables.
 *
 * Hosts are numbered 0 .. GetNHosts() - 1, leaf by leaf (host h is on leaf h / HostsPerLeaf)
 * unless the shape has rails (Shape::rails = R > 1, a rail-optimised wiring): then host h is
 * GPU h % R of server h / R, servers come in groups of HostsPerLeaf, and GPU g of every server
 * of group k sits on leaf k * R + g (GetLeafOfHost()); host h has address base + 1 + h. Leaves are
 * numbered across the pods (in a 3-tier plane, leaf l of pod p is leaf p * LeavesPerPod + l), and
 * so are aggregation switches. Links are numbered 0 .. GetNLinks() - 1 in the order of AddLink();
 * these are the plane's own numbers (ClosFabric numbers the links of all its planes one after the
 * other).
 *
 * A link has two sides: side 0 is the end nearer to the hosts (the host of a host link, the
 * leaf of a leaf uplink, the aggregation switch of an aggregation uplink), side 1 the other.
 * Direction 0 of a link carries packets from side 0 to side 1 (up), direction 1 down.
 *
 * Names: host12, leaf3, spine0, agg1.2 (aggregation switch 2 of pod 1), core7; the switches of
 * a plane whose index (SetPlaneIndex(), or its place in a ClosFabric) is p > 0 carry the
 * prefix "p<p>." (p1.leaf0, p1.spine2), while hosts, shared by every plane, never do.
 *
 * Routing: a switch forwards toward a destination host over every port whose link leads one
 * hop closer to the host's leaf (breadth-first distances over the links that routing
 * believes up). When a link fails, routing keeps using it until RoutingConvergenceDelay has
 * passed (by default forever: the link is a blackhole), then recomputes every table of the
 * plane without it; when it comes back, the tables are recomputed with it after the same
 * delay.
 */
class ClosPlane : public Object
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

    /// The shape of a plane: what SetShape() takes.
    struct Shape
    {
        uint32_t tiers{2};         //!< 2 or 3.
        uint32_t hostsPerLeaf{0};  //!< Hosts per leaf.
        uint32_t pods{1};          //!< Pods (1 in a 2-tier fabric).
        uint32_t leavesPerPod{0};  //!< Leaves per pod (every leaf in a 2-tier fabric).
        uint32_t aggsPerPod{0};    //!< Aggregation switches per pod (0 in a 2-tier fabric).
        uint32_t spines{0};        //!< Spines (0 in a 3-tier fabric).
        uint32_t cores{0};         //!< Cores (0 in a 2-tier fabric; a multiple of aggsPerPod).
        uint32_t parallelLinks{1}; //!< Parallel links between two linked switches.
        /// Rails (1: none): hosts come in servers of this many GPUs, and GPU g of every server
        /// of a group (as many servers as a leaf has hosts) sits on leaf g of the group's
        /// rails leaves; a multiple of it divides leavesPerPod.
        uint32_t rails{1};
        Ipv4Address addressBase; //!< Host h has address addressBase + 1 + h.
        DataRate hostRate;       //!< Nominal rate of the host links.
        DataRate leafUplinkRate; //!< Nominal rate of the leaf-spine or leaf-agg links.
        DataRate aggUplinkRate;  //!< Nominal rate of the agg-core links.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosPlane();
    ~ClosPlane() override;

    /**
     * TracedCallback signature of the LinkState and RouteState trace sources.
     * \param [in] link the link (the plane's own number)
     * \param [in] up whether it is up
     */
    typedef void (*LinkStateTracedCallback)(uint32_t link, bool up);

    /**
     * Check a shape: tiers 2 or 3, no zero count, the counts of the other kind of fabric
     * zero (spines in 3-tier; aggregation switches and cores in 2-tier), one pod in 2-tier,
     * cores a multiple of aggregation switches per pod, leaves per pod a multiple of the rails,
     * positive rates.
     * \param shape a shape
     * \return an empty string when it is valid, else a message naming the field
     */
    static std::string ValidateShape(const Shape& shape);
    /**
     * Set the shape (before any AddNode(); aborts with the message of ValidateShape()).
     * \param shape the shape
     */
    void SetShape(const Shape& shape);
    /// \return the shape
    const Shape& GetShape() const;

    /**
     * Set the index of this plane, which names its switches (ClosFabric::AddPlane() sets it
     * too, to the plane's place in the fabric).
     * \param index the index (0 for a plane whose switches keep the names without prefix)
     */
    void SetPlaneIndex(uint32_t index);
    /// \return the index of this plane (0 unless set)
    uint32_t GetPlaneIndex() const;

    /**
     * \param index a node index (0 .. number of nodes of the shape - 1)
     * \return the role the shape gives the node of that index
     */
    Role GetRoleOfIndex(uint32_t index) const;
    /**
     * Check the next node to add.
     * \param node a node
     * \param role its role
     * \return an empty string when AddNode() accepts it, else why not
     */
    std::string ValidateNewNode(Ptr<Node> node, Role role) const;
    /**
     * Add the next node (aborts with the message of ValidateNewNode()).
     * \param node the node
     * \param role its role, which must be GetRoleOfIndex() of its index
     * \return its node index
     */
    uint32_t AddNode(Ptr<Node> node, Role role);
    /**
     * Check a link to add.
     * \param tier its tier
     * \param side0 the device at side 0 (on the node nearer to the hosts)
     * \param side1 the device at side 1, on the same channel
     * \param k which of the parallel links (0 for a host link; links between two switches
     *        are added k = 0, 1, ... in order)
     * \return an empty string when AddLink() accepts it, else why not
     */
    std::string ValidateNewLink(Tier tier,
                                Ptr<PointToPointNetDevice> side0,
                                Ptr<PointToPointNetDevice> side1,
                                uint32_t k) const;
    /**
     * Add a link (aborts with the message of ValidateNewLink()): gives both devices a
     * FabricLinkErrorModel (the link's counters and failures) and makes every switch-side
     * device a port of its FabricSwitch. On a host link, the leaf port's EcnQueueDisc (its root
     * queue disc, installed before) is told it is the last hop (EcnQueueDisc::SetLastHop()).
     * \param tier its tier
     * \param side0 the device at side 0
     * \param side1 the device at side 1
     * \param k which of the parallel links
     * \return the link number (0, 1, ... in the order of the calls)
     */
    uint32_t AddLink(Tier tier,
                     Ptr<PointToPointNetDevice> side0,
                     Ptr<PointToPointNetDevice> side1,
                     uint32_t k = 0);
    /**
     * Check that every node and link of the shape has been added.
     * \return an empty string when Finish() accepts the plane, else what is missing
     */
    std::string ValidateWiring() const;
    /**
     * End the construction (aborts with the message of ValidateWiring()): gives every switch
     * the host addressing and computes the forwarding tables.
     */
    void Finish();
    /// \return whether Finish() has run
    bool IsFinished() const;

    /// \return 2 or 3
    uint32_t GetNTiers() const;
    /// \return the number of hosts
    uint32_t GetNHosts() const;
    /// \return the number of leaves
    uint32_t GetNLeaves() const;
    /// \return the number of hosts per leaf
    uint32_t GetNHostsPerLeaf() const;
    /// \return the number of rails (1: hosts fill the leaves in order)
    uint32_t GetNRails() const;
    /// \return the number of spines (0 in a 3-tier plane)
    uint32_t GetNSpines() const;
    /// \return the number of pods (1 in a 2-tier plane)
    uint32_t GetNPods() const;
    /// \return the number of leaves per pod
    uint32_t GetNLeavesPerPod() const;
    /// \return the number of aggregation switches per pod (0 in a 2-tier plane)
    uint32_t GetNAggsPerPod() const;
    /// \return the number of core switches (0 in a 2-tier plane)
    uint32_t GetNCores() const;
    /// \return the number of parallel links between two linked switches
    uint32_t GetNParallelLinks() const;
    /// \return the number of switches of the shape
    uint32_t GetNSwitches() const;
    /// \return the number of links added (host links included)
    uint32_t GetNLinks() const;

    /**
     * \param host a host number
     * \return the host node
     */
    Ptr<Node> GetHost(uint32_t host) const;
    /**
     * \param host a host number
     * \return its IPv4 address in this plane
     */
    Ipv4Address GetHostAddress(uint32_t host) const;
    /**
     * \param address an address
     * \return the number of the host that has it in this plane, or GetNHosts() if none
     */
    uint32_t GetHostIndex(Ipv4Address address) const;
    /**
     * \param host a host number
     * \return the number of its leaf
     */
    uint32_t GetLeafOfHost(uint32_t host) const;
    /**
     * \param host a host number
     * \return its pod (0 in a 2-tier plane)
     */
    uint32_t GetPodOfHost(uint32_t host) const;
    /// \return every host, in host-number order
    NodeContainer GetHosts() const;
    /// \return every switch (leaves, then spines or aggregation switches, then cores)
    NodeContainer GetSwitches() const;
    /**
     * \param node a node (or null)
     * \return whether it has been added to this plane (a host, or one of its switches)
     */
    bool HasNode(Ptr<Node> node) const;

    /**
     * \param leaf a leaf number
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
     * \param node a node of the plane
     * \return its role
     */
    Role GetRole(Ptr<Node> node) const;
    /**
     * \param node a node of the plane
     * \return a name such as host12, leaf3, spine0, agg1.2 (pod 1), core7, p1.leaf3
     */
    std::string GetNodeName(Ptr<Node> node) const;

    /**
     * \param host a host number
     * \return the link between the host and its leaf
     */
    uint32_t GetHostLink(uint32_t host) const;
    /**
     * \param leaf a leaf number
     * \param spine a spine number
     * \param k which of the parallel links
     * \return the link
     */
    uint32_t GetLeafSpineLink(uint32_t leaf, uint32_t spine, uint32_t k = 0) const;
    /**
     * \param leaf a leaf number
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
     * \param a a node of the plane
     * \param b another node of the plane
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
     * The base round-trip time between two hosts over the routed path of this plane (first
     * equal-cost choice at every hop): propagation both ways plus, on every link, the
     * serialization of one data packet one way and of one ACK the other way,
     * store-and-forward.
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
     * The routed path between two hosts in this plane: the first equal-cost choice at every
     * hop, the path GetBaseRtt() measures.
     * \param src a host
     * \param dst another host
     * \return its links (this plane's numbers) from src to dst (empty if dst is unreachable
     *         or is src)
     */
    std::vector<uint32_t> GetRoutedPath(uint32_t src, uint32_t dst) const;
    /**
     * Whether every host still reaches every other over the switches' equal-cost next hops
     * when some link directions carry nothing.
     * \param failed the link directions that lose every packet: (link of this plane,
     *        direction), direction 0 from side 0 to side 1
     * \return whether no pair of hosts is left without a path
     */
    bool KeepsEveryPairConnected(const std::set<std::pair<uint32_t, uint32_t>>& failed) const;
    /**
     * \param src a host
     * \param dst another host
     * \return the number of distinct equal-cost paths the switches' tables give from src to
     *         dst in this plane (parallel links count as distinct paths)
     */
    uint64_t GetNEqualCostPaths(uint32_t src, uint32_t dst) const;
    /**
     * \return half the total up-link capacity of the narrowest tier at the current link
     *         rates, which is the bisection bandwidth of a symmetric Clos plane
     */
    DataRate GetBisectionBandwidth() const;
    /**
     * \param tier LEAF_SPINE / LEAF_AGG (host capacity of a leaf over its up-link capacity)
     *        or AGG_CORE (down-link over up-link capacity of an aggregation switch)
     * \return the oversubscription ratio of that tier at the nominal rates
     */
    double GetOversubscription(Tier tier) const;
    /// \return the RoutingConvergenceDelay attribute (Time::Max(): never)
    Time GetRoutingConvergenceDelay() const;

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
     * Recompute the forwarding tables of every switch of the plane from the links routing
     * believes up.
     * \return the number of (switch, destination host) pairs left without a route
     */
    uint64_t RecomputeRoutes();
    /// \return the routing tables and the state of every link as routing sees it
    const ClosRoutes& GetRoutes() const;

  protected:
    void DoDispose() override;

  private:
    /// One link.
    struct Link
    {
        Tier tier;                             //!< Tier.
        uint32_t node[2];                      //!< Node index at each side.
        Ptr<PointToPointNetDevice> device[2];  //!< Device at each side.
        Ptr<FabricLinkErrorModel> receiver[2]; //!< Receive error model at each side.
        uint32_t port[2];                      //!< Switch port at each side (or UINT32_MAX).
        uint32_t parallelIndex;                //!< Which of the parallel links.
        bool up;                               //!< Physical state.
    };

    /**
     * Index of a node of the plane.
     * \param node the node
     * \param what the parameter name, for the message
     * \return the index (aborts when the node is not in the plane)
     */
    uint32_t IndexOf(Ptr<Node> node, const char* what) const;
    /**
     * The node of a node index, aborting when it has not been added.
     * \param index a node index
     * \param caller the method, for the message
     * \return the node
     */
    Ptr<Node> NodeAt(uint32_t index, const char* caller) const;
    /**
     * Check that the ends of a link fit the tier and the wiring rules of the shape.
     * \param tier the tier
     * \param a the node index at side 0
     * \param b the node index at side 1
     * \param k which of the parallel links
     * \return an empty string when they do, else why not
     */
    std::string ValidateLinkEnds(Tier tier, uint32_t a, uint32_t b, uint32_t k) const;
    /**
     * The switch of a switch node, found on the node the first time.
     * \param index the node index of a switch
     * \return its FabricSwitch (null if the node has none)
     */
    Ptr<FabricSwitch> SwitchAt(uint32_t index);
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

    // Shape.
    Shape m_shape;         //!< The shape.
    uint32_t m_nNodes;     //!< Number of nodes of the shape.
    bool m_finished;       //!< Whether Finish() has run.
    uint32_t m_planeIndex; //!< This plane's index (names of its switches).

    // Nodes: node index = host number for hosts, then switches.
    std::vector<Ptr<Node>> m_nodes;                         //!< Hosts, then switches.
    std::vector<Role> m_roles;                              //!< Role of each node.
    std::vector<Ptr<FabricSwitch>> m_switches;              //!< Switch of each node (null: host).
    std::unordered_map<uint32_t, uint32_t> m_nodeIdToIndex; //!< ns-3 node id -> node index.
    uint32_t m_firstLeaf;                                   //!< Node index of leaf 0.
    uint32_t m_firstSpine;                                  //!< Node index of spine/agg 0.
    uint32_t m_firstCore;                                   //!< Node index of core 0.

    std::vector<Link> m_links;                      //!< Links.
    std::vector<std::vector<uint32_t>> m_portLinks; //!< Switch port -> link, per node.
    ClosRoutes m_routes; //!< Wiring as routing sees it, routed state, tables.

    Time m_convergenceDelay; //!< RoutingConvergenceDelay attribute.
    bool m_recomputePending; //!< Whether a recomputation is scheduled for now.
    TracedCallback<uint32_t, bool> m_linkStateTrace;  //!< LinkState trace source.
    TracedCallback<uint32_t, bool> m_routeStateTrace; //!< RouteState trace source.
};

} // namespace ns3

#endif /* REPS_CLOS_PLANE_H */
