/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CLOS_FABRIC_H
#define REPS_CLOS_FABRIC_H

#include "clos-routes.h"

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
 * fabric, usually built by ClosFabricHelper: names every host, switch and link, computes the
 * equal-cost forwarding tables of the switches from the wiring (ClosRoutes), schedules link
 * failures and rate changes, and collects per-link and per-queue counters.
 *
 * Construction, in this order (each step checks its arguments against the fabric and aborts
 * with the message of the matching Validate method):
 * 1. SetShape() with the counts, the host addresses and the nominal rates (ValidateShape());
 * 2. AddNode() for every node, with its role, in the order of the fabric index: hosts, leaves,
 *    spines (2-tier) or aggregation switches pod by pod (3-tier), cores (ValidateNewNode());
 *    a switch node must carry a FabricSwitch and a TrafficControlLayer by its first link;
 * 3. AddLink() for every link, with its tier, its two devices (side 0 first) and which of the
 *    parallel links it is (ValidateNewLink()); the root queue disc of a switch port must be
 *    installed before, since the link makes the device a port of the FabricSwitch;
 * 4. Finish(), which checks that every node and link of the shape is there (ValidateWiring()),
 *    gives the switches the host addressing and computes their tables.
 *
 * Hosts are numbered 0 .. GetNHosts() - 1, leaf by leaf (host h is on leaf h / HostsPerLeaf);
 * host h has address base + 1 + h. Leaves are numbered globally (in a 3-tier fabric, leaf l
 * of pod p is leaf p * LeavesPerPod + l), and so are aggregation switches.
 *
 * A link has two sides: side 0 is the end nearer to the hosts (the host of a host link, the
 * leaf of a leaf uplink, the aggregation switch of an aggregation uplink), side 1 the other.
 * Direction 0 of a link carries packets from side 0 to side 1 (up), direction 1 down.
 *
 * Planes: a multi-plane fabric (ClosFabricHelper Planes) is P identical, disjoint fabrics that
 * share the hosts. Each plane is a ClosFabric with its own switches, links, host addresses
 * and routes (GetPlane()); this object is plane 0 and the others are added with AddPlane()
 * once finished. Seen from plane 0, links are numbered across all planes (plane 0's first,
 * then plane 1's, ...), so every link method, GetLinks(), FindLink(), GetSwitches(),
 * GetNodeName() and the LinkState and RouteState traces cover every plane, while the counts
 * of the shape (GetNLeaves(), GetNSpines(), ...) and GetLeaf(), GetSpine(), ... describe one
 * plane. The switches of plane p > 0 are named with the prefix "p<p>." (p1.leaf0, p1.spine2);
 * plane 0 keeps the names of a single-plane fabric.
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

    /// The shape of a fabric: what SetShape() takes.
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
        Ipv4Address addressBase;   //!< Host h has address addressBase + 1 + h.
        DataRate hostRate;         //!< Nominal rate of the host links.
        DataRate leafUplinkRate;   //!< Nominal rate of the leaf-spine or leaf-agg links.
        DataRate aggUplinkRate;    //!< Nominal rate of the agg-core links.
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

    /**
     * Check a shape: tiers 2 or 3, no zero count, the counts of the other kind of fabric
     * zero (spines in 3-tier; aggregation switches and cores in 2-tier), one pod in 2-tier,
     * cores a multiple of aggregation switches per pod, positive rates.
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
     * \param index a fabric index (0 .. number of nodes of the shape - 1)
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
     * \return its fabric index
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
     * device a port of its FabricSwitch.
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
     * \return an empty string when Finish() accepts the fabric, else what is missing
     */
    std::string ValidateWiring() const;
    /**
     * End the construction (aborts with the message of ValidateWiring()): gives every switch
     * the host addressing and computes the forwarding tables.
     */
    void Finish();
    /// \return whether Finish() has run
    bool IsFinished() const;

    /**
     * Add a finished plane to this fabric (plane 0): same shape and the same hosts, its own
     * switches, links, host addresses and routes. Its links are numbered after those of the
     * planes added before.
     * \param plane the plane (a finished ClosFabric, not itself multi-plane)
     */
    void AddPlane(Ptr<ClosFabric> plane);
    /// \return the number of planes (1 for a single-plane fabric)
    uint32_t GetNPlanes() const;
    /**
     * \param plane a plane (0 .. GetNPlanes() - 1)
     * \return that plane (this object for plane 0)
     */
    Ptr<ClosFabric> GetPlane(uint32_t plane) const;
    /// \return the plane this object is (0 unless it was added to another with AddPlane())
    uint32_t GetPlaneIndex() const;
    /**
     * \param link a link (numbered across the planes)
     * \return its plane
     */
    uint32_t GetPlaneOfLink(uint32_t link) const;
    /**
     * \param plane a plane
     * \return the number of its first link (links of one plane are contiguous)
     */
    uint32_t GetPlaneFirstLink(uint32_t plane) const;
    /**
     * \param node a switch of the fabric
     * \return its plane (0 for a host)
     */
    uint32_t GetPlaneOfNode(Ptr<Node> node) const;
    /**
     * \param host a host number
     * \param plane a plane
     * \return the host's link to its leaf in that plane
     */
    uint32_t GetHostLink(uint32_t host, uint32_t plane) const;
    /**
     * \param host a host number
     * \param plane a plane
     * \return the host's address in that plane
     */
    Ipv4Address GetHostAddress(uint32_t host, uint32_t plane) const;

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
    /// \return the number of switches (of every plane)
    uint32_t GetNSwitches() const;
    /// \return the number of links (host links included, of every plane)
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
     * \param address an address (of any plane)
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
    /// \return every switch (leaves, then spines or aggregation switches, then cores; plane by
    ///         plane)
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
     * The routed path between two hosts: the first equal-cost choice at every hop, the path
     * GetBaseRtt() measures.
     * \param src a host
     * \param dst another host
     * \return its links from src to dst (empty if dst is unreachable or is src)
     */
    std::vector<uint32_t> GetRoutedPath(uint32_t src, uint32_t dst) const;
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
     * Recompute the forwarding tables of every switch from the links routing believes up.
     * \return the number of (switch, destination host) pairs left without a route
     */
    uint64_t RecomputeRoutes();
    /// \return the routing tables and the state of every link as routing sees it
    const ClosRoutes& GetRoutes() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * The plane that owns a link, and the link's number there.
     * \param [in,out] link a link numbered across the planes; the plane's own number on return
     * \return the plane (this object when the link is its own or out of range)
     */
    ClosFabric* LinkOwner(uint32_t& link) const;
    /**
     * \param node a node
     * \return the plane whose nodes include it (this object if none does)
     */
    ClosFabric* NodeOwner(Ptr<Node> node) const;
    /**
     * \param a a node of this plane
     * \param b another node of this plane
     * \param k which of the parallel links
     * \return the k-th link of this plane between a and b (its own number), or NO_LINK
     */
    uint32_t FindOwnLink(Ptr<Node> a, Ptr<Node> b, uint32_t k) const;

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
    };

    /**
     * Index of a node of the fabric.
     * \param node the node
     * \param what the parameter name, for the message
     * \return the index (aborts when the node is not in the fabric)
     */
    uint32_t IndexOf(Ptr<Node> node, const char* what) const;
    /**
     * The node of a fabric index, aborting when it has not been added.
     * \param index a fabric index
     * \param caller the method, for the message
     * \return the node
     */
    Ptr<Node> NodeAt(uint32_t index, const char* caller) const;
    /**
     * Check that the ends of a link fit the tier and the wiring rules of the shape.
     * \param tier the tier
     * \param a the fabric index at side 0
     * \param b the fabric index at side 1
     * \param k which of the parallel links
     * \return an empty string when they do, else why not
     */
    std::string ValidateLinkEnds(Tier tier, uint32_t a, uint32_t b, uint32_t k) const;
    /**
     * The switch of a switch node, found on the node the first time.
     * \param index a fabric index of a switch
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
    /**
     * \param node a fabric node index
     * \return the port number at that node of a link
     * \param link the link
     */
    uint32_t PortOf(uint32_t node, uint32_t link) const;

    // Shape.
    Shape m_shape;     //!< The shape.
    uint32_t m_nNodes; //!< Number of nodes of the shape.
    bool m_finished;   //!< Whether Finish() has run.

    // Nodes: fabric index = host number for hosts, then switches.
    std::vector<Ptr<Node>> m_nodes;            //!< Hosts, then switches.
    std::vector<Role> m_roles;                 //!< Role of each fabric node.
    std::vector<Ptr<FabricSwitch>> m_switches; //!< Switch of each fabric node (null: host).
    std::unordered_map<uint32_t, uint32_t> m_nodeIdToIndex; //!< ns-3 node id -> fabric index.
    uint32_t m_firstLeaf;                                   //!< Fabric index of leaf 0.
    uint32_t m_firstSpine;                                  //!< Fabric index of spine/agg 0.
    uint32_t m_firstCore;                                   //!< Fabric index of core 0.

    std::vector<Link> m_links;                      //!< Links.
    std::vector<std::vector<uint32_t>> m_portLinks; //!< Switch port -> link, per fabric node.
    ClosRoutes m_routes; //!< Wiring as routing sees it, routed state, tables.

    std::vector<Ptr<ClosFabric>> m_extraPlanes; //!< Planes 1 .. P - 1 (plane 0 only).
    uint32_t m_planeIndex;                      //!< This plane's index.
    ClosFabric* m_plane0;  //!< Plane 0, for a plane > 0 (its traces), else null.
    uint32_t m_linkOffset; //!< Number of this plane's first link, seen from plane 0.

    Time m_convergenceDelay; //!< RoutingConvergenceDelay attribute.
    bool m_recomputePending; //!< Whether a recomputation is scheduled for now.
    TracedCallback<uint32_t, bool> m_linkStateTrace;  //!< LinkState trace source.
    TracedCallback<uint32_t, bool> m_routeStateTrace; //!< RouteState trace source.
};

} // namespace ns3

#endif /* REPS_CLOS_FABRIC_H */
