/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CLOS_FABRIC_H
#define REPS_CLOS_FABRIC_H

#include "clos-plane.h"
#include "scale-up-domain.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * A Clos fabric of one or more identical planes (ClosPlane) that share the hosts, usually
 * built by ClosFabricHelper: names every host, switch and link of every plane, fails or
 * degrades any link, and reads the per-link and per-queue counters of any link.
 *
 * A fabric owns its planes: AddPlane() takes a finished ClosPlane; the first defines the
 * shape, and every later one must have the same counts and the same host nodes, with its own
 * switches, links, host addresses and routes (ValidateNewPlane() says what does not fit).
 * Planes are numbered 0, 1, ... in the order they are added, and a plane learns its number
 * (ClosPlane::SetPlaneIndex()), which names its switches: those of plane p > 0 carry the
 * prefix "p<p>." (p1.leaf0, p1.spine2), plane 0's keep the names of a single-plane fabric.
 *
 * Links are numbered across the planes: plane 0's links first (its own numbers), then plane
 * 1's, and so on (GetPlaneFirstLink() is the number of a plane's first link, GetPlaneOfLink()
 * and GetLocalLink() give a link's plane and its number there). Every link method, GetLinks(),
 * FindLink(), GetSwitches(), GetNodeName() and the LinkState and RouteState traces take or give
 * these numbers and cover every plane, while the counts of the shape (GetNLeaves(),
 * GetNSpines(), ...), the nominal rates, GetLeaf(), GetSpine(), ..., GetHostLink(host),
 * GetHostAddress(host), GetBaseRtt(), GetNEqualCostPaths() and GetRoutes() describe plane 0
 * (GetPlane(p) gives any plane itself).
 *
 * Hosts are numbered 0 .. GetNHosts() - 1, leaf by leaf (host h is on leaf h / HostsPerLeaf);
 * in a plane whose host addresses start at base, host h has address base + 1 + h. Leaves are
 * numbered across the pods (in a 3-tier fabric, leaf l of pod p is leaf p * LeavesPerPod + l),
 * and so are aggregation switches. A link's side 0 is the end nearer to the hosts, side 1 the
 * other; direction 0 carries packets from side 0 to side 1 (up), direction 1 down.
 *
 * Routing works inside each plane (ClosPlane): a failed link stays in its plane's tables until
 * that plane's RoutingConvergenceDelay has passed (by default forever: a blackhole).
 *
 * Servers: when the hosts are GPUs of servers with G > 1 GPUs each (host h is GPU h % G of
 * server h / G), the fabric also has a ScaleUpDomain (SetScaleUp(), GetScaleUp()): a scale-up
 * switch per server linked to every GPU of it. Traffic between two GPUs of one server takes
 * that domain and no plane; GetBaseRtt() and GetRoutedPath() describe it for such a pair.
 * The scale-up switches and links are not among the fabric's switches and links
 * (GetSwitches(), GetNLinks()): GetScaleUp() names them and reads their counters. With rails
 * (ClosPlane::Shape::rails), GPU g of every server of a group sits on leaf g of the group.
 */
class ClosFabric : public Object
{
  public:
    /// Role of a node (ClosPlane::Role).
    using Role = ClosPlane::Role;
    static constexpr Role HOST = ClosPlane::HOST;   //!< A host.
    static constexpr Role LEAF = ClosPlane::LEAF;   //!< A leaf (top-of-rack) switch.
    static constexpr Role SPINE = ClosPlane::SPINE; //!< A spine of a 2-tier fabric.
    static constexpr Role AGG = ClosPlane::AGG;     //!< An aggregation switch (3-tier).
    static constexpr Role CORE = ClosPlane::CORE;   //!< A core switch (3-tier).

    /// Tier of a link (ClosPlane::Tier).
    using Tier = ClosPlane::Tier;
    static constexpr Tier HOST_LEAF = ClosPlane::HOST_LEAF;   //!< Host to leaf.
    static constexpr Tier LEAF_SPINE = ClosPlane::LEAF_SPINE; //!< Leaf to spine (2-tier).
    static constexpr Tier LEAF_AGG = ClosPlane::LEAF_AGG;     //!< Leaf to agg (3-tier).
    static constexpr Tier AGG_CORE = ClosPlane::AGG_CORE;     //!< Agg to core (3-tier).

    /// Returned by FindLink() when two nodes are not linked.
    static constexpr uint32_t NO_LINK = ClosPlane::NO_LINK;

    /// Counters of one direction of a link (ClosPlane::LinkCounters).
    using LinkCounters = ClosPlane::LinkCounters;
    /// Statistics of the egress queue of one switch port (ClosPlane::QueueStats).
    using QueueStats = ClosPlane::QueueStats;
    /// The shape of a plane (ClosPlane::Shape).
    using Shape = ClosPlane::Shape;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosFabric();
    ~ClosFabric() override;

    /**
     * TracedCallback signature of the LinkState and RouteState trace sources.
     * \param [in] link the link (numbered across the planes)
     * \param [in] up whether it is up
     */
    typedef void (*LinkStateTracedCallback)(uint32_t link, bool up);

    /**
     * Check a plane to add: finished, not in this fabric yet, and, unless it is the first,
     * with the counts of the first plane's shape (tiers, hosts per leaf, pods, leaves per pod,
     * aggregation switches per pod, spines, cores, parallel links), the same host nodes and
     * host addresses that no other plane uses.
     * \param plane a plane
     * \return an empty string when AddPlane() accepts it, else why not
     */
    std::string ValidateNewPlane(Ptr<ClosPlane> plane) const;
    /**
     * Add a plane (aborts with the message of ValidateNewPlane()): it becomes plane
     * GetNPlanes() (ClosPlane::SetPlaneIndex()), its links are numbered after those of the
     * planes added before, and its LinkState and RouteState traces reach this fabric's.
     * \param plane the plane
     */
    void AddPlane(Ptr<ClosPlane> plane);
    /// \return the number of planes
    uint32_t GetNPlanes() const;
    /**
     * \param plane a plane (0 .. GetNPlanes() - 1)
     * \return that plane
     */
    Ptr<ClosPlane> GetPlane(uint32_t plane) const;
    /**
     * \param link a link (numbered across the planes)
     * \return its plane
     */
    uint32_t GetPlaneOfLink(uint32_t link) const;
    /**
     * \param link a link (numbered across the planes)
     * \return its number in its plane (GetPlaneFirstLink(GetPlaneOfLink(link)) + that number
     *         is link)
     */
    uint32_t GetLocalLink(uint32_t link) const;
    /**
     * \param plane a plane
     * \return the number of its first link (links of one plane are contiguous)
     */
    uint32_t GetPlaneFirstLink(uint32_t plane) const;
    /**
     * \param node a node of the fabric
     * \return its plane (0 for a host)
     */
    uint32_t GetPlaneOfNode(Ptr<Node> node) const;
    /**
     * \param host a host number
     * \param plane a plane
     * \return the host's link to its leaf in that plane (numbered across the planes)
     */
    uint32_t GetHostLink(uint32_t host, uint32_t plane) const;
    /**
     * \param host a host number
     * \param plane a plane
     * \return the host's address in that plane
     */
    Ipv4Address GetHostAddress(uint32_t host, uint32_t plane) const;

    /**
     * Give the fabric the scale-up domain of its servers (after the planes; aborts unless the
     * domain is finished and has as many hosts as the fabric).
     * \param domain the domain
     */
    void SetScaleUp(Ptr<ScaleUpDomain> domain);
    /// \return the scale-up domain of the servers (null when every server has one GPU)
    Ptr<ScaleUpDomain> GetScaleUp() const;
    /// \return the number of GPUs (hosts) per server (1 without a scale-up domain)
    uint32_t GetGpusPerServer() const;
    /// \return the number of servers (the hosts when every server has one GPU)
    uint32_t GetNServers() const;
    /**
     * \param host a host
     * \return its server
     */
    uint32_t GetServerOfHost(uint32_t host) const;
    /**
     * \param a a host
     * \param b another host
     * \return whether they are two GPUs of one server (their traffic takes the scale-up domain)
     */
    bool IsSameServer(uint32_t a, uint32_t b) const;
    /**
     * In a rail-only fabric (a 2-tier plane without spines), a GPU reaches a GPU of another
     * server on another rail through the GPU of its own server on the destination's rail.
     * \param src a host
     * \param dst another host
     * \return that relay, or GetNHosts() when src reaches dst without one
     */
    uint32_t GetRelay(uint32_t src, uint32_t dst) const;

    /// \return the shape of plane 0
    const Shape& GetShape() const;
    /// \return 2 or 3
    uint32_t GetNTiers() const;
    /// \return the number of hosts
    uint32_t GetNHosts() const;
    /// \return the number of leaves (of one plane)
    uint32_t GetNLeaves() const;
    /// \return the number of hosts per leaf
    uint32_t GetNHostsPerLeaf() const;
    /// \return the number of spines of one plane (0 in a 3-tier fabric)
    uint32_t GetNSpines() const;
    /// \return the number of pods (1 in a 2-tier fabric)
    uint32_t GetNPods() const;
    /// \return the number of leaves per pod
    uint32_t GetNLeavesPerPod() const;
    /// \return the number of aggregation switches per pod (0 in a 2-tier fabric)
    uint32_t GetNAggsPerPod() const;
    /// \return the number of core switches of one plane (0 in a 2-tier fabric)
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
     * \return its IPv4 address in plane 0
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
     * \param leaf a leaf number
     * \return the leaf of plane 0
     */
    Ptr<Node> GetLeaf(uint32_t leaf) const;
    /**
     * \param spine a spine number
     * \return the spine of plane 0
     */
    Ptr<Node> GetSpine(uint32_t spine) const;
    /**
     * \param pod a pod
     * \param agg an aggregation switch of the pod (0 .. AggsPerPod - 1)
     * \return the aggregation switch of plane 0
     */
    Ptr<Node> GetAgg(uint32_t pod, uint32_t agg) const;
    /**
     * \param core a core number
     * \return the core switch of plane 0
     */
    Ptr<Node> GetCore(uint32_t core) const;
    /**
     * \param node a node of the fabric
     * \return its role
     */
    Role GetRole(Ptr<Node> node) const;
    /**
     * \param node a node of the fabric
     * \return a name such as host12, leaf3, spine0, agg1.2 (pod 1), core7, p1.leaf3
     */
    std::string GetNodeName(Ptr<Node> node) const;

    /**
     * \param host a host number
     * \return the link between the host and its leaf in plane 0
     */
    uint32_t GetHostLink(uint32_t host) const;
    /**
     * \param leaf a leaf number
     * \param spine a spine number
     * \param k which of the parallel links
     * \return the link of plane 0
     */
    uint32_t GetLeafSpineLink(uint32_t leaf, uint32_t spine, uint32_t k = 0) const;
    /**
     * \param leaf a leaf number
     * \param agg an aggregation switch of the leaf's pod (0 .. AggsPerPod - 1)
     * \param k which of the parallel links
     * \return the link of plane 0
     */
    uint32_t GetLeafAggLink(uint32_t leaf, uint32_t agg, uint32_t k = 0) const;
    /**
     * \param pod a pod
     * \param agg an aggregation switch of the pod
     * \param core a core the aggregation switch is linked to
     * \param k which of the parallel links
     * \return the link of plane 0
     */
    uint32_t GetAggCoreLink(uint32_t pod, uint32_t agg, uint32_t core, uint32_t k = 0) const;
    /**
     * \param a a node
     * \param b another node
     * \param k which of the parallel links
     * \return the k-th link between a and b (in the plane of their switch), or NO_LINK
     */
    uint32_t FindLink(Ptr<Node> a, Ptr<Node> b, uint32_t k = 0) const;
    /**
     * \param tier a tier
     * \return its links, plane by plane, in the order they were built
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
     * \return a name such as leaf3-spine1, p1.leaf3-p1.spine1 or leaf3-spine1#2 for a
     *         parallel link
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
     * The base round-trip time between two hosts over plane 0's routed path
     * (ClosPlane::GetBaseRtt()), or over the scale-up domain for two GPUs of one server
     * (ScaleUpDomain::GetBaseRtt()), or, through a relay (GetRelay()), the sum of both.
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
     * The routed path between two hosts in plane 0 (ClosPlane::GetRoutedPath()), the path
     * GetBaseRtt() measures.
     * \param src a host
     * \param dst another host
     * \return its links from src to dst (empty if dst is unreachable or is src, and for two
     *         GPUs of one server, whose path is the scale-up domain's two links; through a
     *         relay, the relay's links to dst)
     */
    std::vector<uint32_t> GetRoutedPath(uint32_t src, uint32_t dst) const;
    /**
     * \param src a host
     * \param dst another host
     * \return the number of distinct equal-cost paths from src to dst in plane 0
     *         (ClosPlane::GetNEqualCostPaths())
     */
    uint64_t GetNEqualCostPaths(uint32_t src, uint32_t dst) const;
    /**
     * \return the sum over the planes of their bisection bandwidth at the current link rates
     *         (ClosPlane::GetBisectionBandwidth())
     */
    DataRate GetBisectionBandwidth() const;
    /**
     * \param tier LEAF_SPINE / LEAF_AGG (host capacity of a leaf over its up-link capacity)
     *        or AGG_CORE (down-link over up-link capacity of an aggregation switch)
     * \return the oversubscription ratio of that tier at plane 0's nominal rates
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
     * Take a link down (both directions) at a given time, and optionally up again
     * (ClosPlane::FailLink() on its plane).
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
     * Recompute the forwarding tables of every switch of every plane from the links routing
     * believes up.
     * \return the number of (switch, destination host) pairs left without a route, summed
     *         over the planes
     */
    uint64_t RecomputeRoutes();
    /**
     * \param plane a plane
     * \return its routing tables and the state of every link as its routing sees it (the
     *         plane's own link numbers)
     */
    const ClosRoutes& GetRoutes(uint32_t plane = 0) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * The plane of a link and the link's number there.
     * \param link a link numbered across the planes
     * \param caller the method, for the message when the link does not exist (aborts)
     * \return the plane's index and the link's number in the plane
     */
    std::pair<uint32_t, uint32_t> Locate(uint32_t link, const char* caller) const;
    /**
     * \param link a link numbered across the planes
     * \param caller the method, for the message when the link does not exist (aborts)
     * \return its plane and its number there
     */
    std::pair<const ClosPlane*, uint32_t> LocalLink(uint32_t link, const char* caller) const;
    /**
     * \param link a link numbered across the planes
     * \param caller the method, for the message when the link does not exist (aborts)
     * \return its plane, to change the link, and its number there
     */
    std::pair<ClosPlane*, uint32_t> LocalLink(uint32_t link, const char* caller);
    /**
     * \param node a node
     * \return the index of the first plane that holds it (plane 0 for a host), or
     *         GetNPlanes() when none does
     */
    uint32_t PlaneIndexOfNode(Ptr<Node> node) const;
    /**
     * \param node a node of the fabric
     * \param caller the method, for the message when it is not (aborts)
     * \return the plane that holds it
     */
    const ClosPlane& PlaneOfNode(Ptr<Node> node, const char* caller) const;
    /**
     * Plane 0, which describes the shape.
     * \param caller the method, for the message when there is no plane yet (aborts)
     * \return plane 0
     */
    const ClosPlane& First(const char* caller) const;
    /**
     * A link of a plane changed state: fire LinkState with the fabric's number.
     * \param firstLink the number of the plane's first link in the fabric
     * \param link the plane's own number
     * \param up its state
     */
    void NotifyLinkState(uint32_t firstLink, uint32_t link, bool up);
    /**
     * Routing of a plane took up or dropped a link: fire RouteState with the fabric's number.
     * \param firstLink the number of the plane's first link in the fabric
     * \param link the plane's own number
     * \param up its state
     */
    void NotifyRouteState(uint32_t firstLink, uint32_t link, bool up);

    std::vector<Ptr<ClosPlane>> m_planes;             //!< The planes, in order.
    Ptr<ScaleUpDomain> m_scaleUp;                     //!< The servers' scale-up, or null.
    std::vector<uint32_t> m_firstLinks;               //!< Number of each plane's first link.
    TracedCallback<uint32_t, bool> m_linkStateTrace;  //!< LinkState trace source.
    TracedCallback<uint32_t, bool> m_routeStateTrace; //!< RouteState trace source.
};

} // namespace ns3

#endif /* REPS_CLOS_FABRIC_H */
