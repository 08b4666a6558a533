/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_CLOS_FABRIC_HELPER_H
#define REPS_CLOS_FABRIC_HELPER_H

#include "ns3/attribute-check.h"
#include "ns3/attribute.h"
#include "ns3/clos-fabric.h"
#include "ns3/clos-plane.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-switch.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/queue-size.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Builds a ClosFabric of one or more planes (ClosPlane): a 2-tier leaf-spine fabric (Tiers = 2:
 * Leaves x HostsPerLeaf hosts, Spines spines, every leaf linked to every spine by ParallelLinks
 * links) or a 3-tier one (Tiers = 3: Pods pods of LeavesPerPod leaves and AggsPerPod aggregation
 * switches, every leaf linked to every aggregation switch of its pod, and Cores cores split in
 * AggsPerPod groups: aggregation switch i of every pod is linked to every core of group i, the
 * usual fat-tree wiring). SetFatTree(k) selects the classic k-ary fat tree.
 *
 * Hosts get ns-3's internet stack (IPv4, static routing, UDP, TCP) and one
 * PointToPointNetDevice to their leaf; host h gets address HostAddressBase + 1 + h with mask
 * HostAddressMask, and a default route out of its device. Switches get no IP stack: a
 * FabricSwitch forwards, and every switch port has a root queue disc of the type given to
 * SetSwitchQueueDisc() (default ns3::EcnQueueDisc), configured like TrafficControlHelper
 * configures one: the type's own attributes, with its defaults for those not given. Every
 * tunable number of a part lives in that part's attributes: the helper's own attributes are
 * the structure (shape, rates, delays, MTU, addresses, planes, MPI systems, whether PFC is
 * installed, the hash seed), and the switch queues, the PFC objects, the switches' port
 * selectors and the planes (their RoutingConvergenceDelay) are configured through
 * SetSwitchQueueDisc(), SetPfcAttribute(), SetPortSelector() and SetPlaneAttribute() (or
 * Config::SetDefault() on their own types).
 *
 * Planes (1 .. 8): a multi-plane fabric is Planes identical, disjoint copies of that shape
 * (each with its own leaves, spines or aggregation switches and cores, its own links and
 * routing) that share the hosts: every host has one PointToPointNetDevice per plane (IPv4
 * interface 1 + p for plane p) linked to its leaf in that plane. Host h's address in plane p
 * is HostAddressBase + p * S + 1 + h, where S is the size of the HostAddressMask network
 * (10.0.0.0/8 by default: plane 0 is 10.0.0.0/8, plane 1 11.0.0.0/8, ...); plane 0's device
 * carries the host's default route, and each plane's network is reached over its own device.
 * Plane p > 0 switches are named with the prefix "p<p>." (ClosFabric::GetNodeName()); their
 * nodes are created after those of plane 0, so Planes = 1 builds exactly a single-plane
 * fabric. The fabric returned owns the planes (ClosFabric::GetPlane()) and numbers their links
 * one plane after the other.
 *
 * Servers and rails: with GpusPerServer = G > 1 the hosts are GPUs of servers (host h is GPU
 * h % G of server h / G), each GPU with its own NIC (one device per plane, as any host), and
 * every server has a scale-up switch (a ScaleUpDomain, ClosFabric::GetScaleUp()) linked to a
 * further device of each of its GPUs at ScaleUpRate and ScaleUpDelay, the NVLink-like
 * interconnect inside a server. That device is the GPU's last IPv4 interface, with the GPU's
 * plane-0 address (mask /32), and the GPU's static routing has a host route over it to every
 * other GPU of its server: traffic inside a server never touches the planes (RdmaStack sends
 * it at the scale-up rate). Wiring chooses how the GPUs meet the leaves: Clos (a server's
 * GPUs on one leaf, HostsPerLeaf a multiple of G) or RailOptimised (GPU g of every server of a
 * group of HostsPerLeaf servers on rail leaf g of the group's G leaves; Leaves, or LeavesPerPod
 * in 3 tiers, a multiple of G) or RailOnly (2 tiers, Leaves = G rail leaves, leaf g holding
 * GPU g of every server, no spines: a GPU reaches a GPU of another server on another rail
 * through its server's GPU on that rail, which forwards the packets; the routes come from the
 * graph of the wiring, GraphRoutes). GpusPerServer = 1 builds exactly the fabric without
 * servers.
 *
 * The helper builds each plane through the construction API of ClosPlane (SetShape(),
 * AddNode(), AddLink(), Finish()), which checks the wiring, and adds it to a new ClosFabric
 * (ClosFabric::AddPlane()).
 *
 * \code
 *   Ptr<ClosFabricHelper> helper = CreateObject<ClosFabricHelper>();
 *   helper->SetAttribute("Leaves", UintegerValue(16));
 *   helper->SetAttribute("HostsPerLeaf", UintegerValue(8));
 *   helper->SetAttribute("Spines", UintegerValue(8));
 *   Ptr<ClosFabric> fabric = helper->Build();
 *   fabric->PrintSummary(std::cout);
 * \endcode
 */
class ClosFabricHelper : public Object
{
  public:
    /// How the GPUs of the servers meet the leaves (the Wiring attribute).
    enum Wiring
    {
        CLOS,           //!< The GPUs of a server share a leaf; hosts fill the leaves in order.
        RAIL_OPTIMISED, //!< GPU g of every server of a group on rail leaf g of the group.
        RAIL_ONLY,      //!< One rail leaf per GPU index, no spines; peers relay across rails.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClosFabricHelper();
    ~ClosFabricHelper() override;

    /**
     * Set one of the helper's own attributes (Tiers, Leaves, Mtu, ...), checked first: ns-3's
     * ObjectBase::SetAttribute(), which this hides, aborts on a value out of range. A name the
     * helper does not have, or a value its checker refuses, is kept (the first one), and
     * Validate() returns it, naming the attribute and the allowed range; Build() stops with
     * it.
     * \param name the attribute
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Select the classic k-ary fat tree: 3 tiers, k pods of k/2 leaves and k/2 aggregation
     * switches, k/2 hosts per leaf, (k/2)^2 cores (k^3/4 hosts).
     * \param k an even number, at least 2
     */
    void SetFatTree(uint32_t k);

    /**
     * Set the rates of the switch up-links so that every tier has the given
     * oversubscription (host capacity of a leaf over its up-link capacity, and down-link
     * over up-link capacity of an aggregation switch). Computed when Build() runs.
     * \param ratio the ratio, at least 1 (1 = non-blocking)
     */
    void SetOversubscription(double ratio);

    /**
     * Set the type and attributes of the root queue disc of every switch port, as
     * TrafficControlHelper::SetRootQueueDisc() does: the attributes are the queue disc's own,
     * and those not given keep the type's defaults (Config::SetDefault() included). Each call
     * replaces the previous one. A type that is not a QueueDisc, an attribute it does not have
     * or a value the attribute does not accept makes Validate() (and Build()) fail with a
     * message that names it; so do the sizes of an ns3::EcnQueueDisc that
     * EcnQueueDisc::Validate() refuses.
     *
     * \code
     *   helper->SetSwitchQueueDisc("ns3::EcnQueueDisc",
     *                              "MaxSize", QueueSizeValue(QueueSize("200p")),
     *                              "Kmin", QueueSizeValue(QueueSize("20p")),
     *                              "Kmax", QueueSizeValue(QueueSize("100p")),
     *                              "Trimming", BooleanValue(true));
     * \endcode
     * \tparam Ts \deduced name and value pairs
     * \param type the TypeId name of a QueueDisc
     * \param args attribute name and value pairs
     */
    template <typename... Ts>
    void SetSwitchQueueDisc(const std::string& type, Ts&&... args);

    /**
     * Choose how every switch picks among equal-cost ports: the type and attributes of the
     * PortSelector each switch is given (one object per switch), as PointToPointHelper's
     * SetDeviceAttribute() configures its devices; the attributes not given keep the type's
     * defaults. The default is ns3::HashPortSelector. A TypeId that is not a PortSelector, an
     * attribute the type does not have or a value out of its range is refused: Validate()
     * says which (and Build() stops with that message).
     * \tparam Ts \deduced name and value pairs
     * \param type its TypeId name, e.g. "ns3::DlbPortSelector"
     * \param args attribute name and value pairs, e.g. "FlowletTimeout", TimeValue(...)
     */
    template <typename... Ts>
    void SetPortSelector(const std::string& type, Ts&&... args);

    /**
     * Set one more attribute of the port selectors (after SetPortSelector(), which starts from
     * the type's defaults again); refused as SetPortSelector() refuses one.
     * \param name the attribute name
     * \param value its value
     */
    void SetPortSelectorAttribute(const std::string& name, const AttributeValue& value);

    /// \return the TypeId of the port selectors the switches are given
    TypeId GetPortSelectorType() const;

    /**
     * Give every host NIC a root queue disc (by default there is none, and the host device's
     * own DropTail queue of HostQueueSize packets is the NIC queue). Checked as
     * SetSwitchQueueDisc() is.
     * \tparam Ts \deduced name and value pairs
     * \param type the TypeId name of a QueueDisc
     * \param args attribute name and value pairs
     */
    template <typename... Ts>
    void SetHostQueueDisc(const std::string& type, Ts&&... args);

    /**
     * Set an attribute of the PFC objects installed when the Pfc attribute is true: of
     * ns3::PfcSwitch (ThresholdMode, SharedBufferSize, StaticThreshold, Alpha, XonOffset,
     * PauseQuanta) or of ns3::PfcPort (Priority). An attribute neither has, or a value out of
     * its range, makes Validate() (and Build()) fail with a message that names it and the
     * allowed range.
     * \param name the attribute name
     * \param value its value
     */
    void SetPfcAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set an attribute of every plane built (ns3::ClosPlane, e.g. RoutingConvergenceDelay).
     * An attribute ClosPlane does not have, or a value out of its range, makes Validate() (and
     * Build()) fail with a message that names it and the allowed range.
     * \param name the attribute name
     * \param value its value
     */
    void SetPlaneAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Check the configuration.
     * \return an empty string when the shape can be built, else a message that names the
     *         offending parameter and the allowed range
     */
    std::string Validate() const;

    /**
     * Build the fabric. When Validate() refuses the configuration, the program stops with
     * its message ("error: ClosFabricHelper: ...", exit status 1; see AttributeCheck::Exit).
     * \return the fabric
     */
    Ptr<ClosFabric> Build();

    /**
     * Assign fixed random variable streams to the switches and queue discs of a fabric.
     * \param fabric the fabric
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    static int64_t AssignStreams(Ptr<ClosFabric> fabric, int64_t stream);

  private:
    /// Attribute name and value, applied in order.
    using AttributeList = AttributeCheck::AttributeList;

    /**
     * Configure the port selector factory from a type and attributes, each checked.
     * \param type a TypeId name
     * \param attributes its attributes
     * \return an empty string when all were taken, else why not (the first refusal)
     */
    std::string ConfigurePortSelector(const std::string& type, const AttributeList& attributes);

    /**
     * Set one attribute of a factory, checked against its TypeId.
     * \param method the calling method, for the message
     * \param factory the factory (its TypeId set)
     * \param name the attribute name
     * \param value its value
     * \return an empty string when it was taken, else why not
     */
    static std::string SetCheckedAttribute(const std::string& method,
                                           ObjectFactory& factory,
                                           const std::string& name,
                                           const AttributeValue& value);

    /**
     * Configure a queue disc factory: what SetSwitchQueueDisc() and SetHostQueueDisc() do.
     * \param method the calling method, for the message
     * \param type the TypeId name of a QueueDisc
     * \param attributes its attributes
     * \param [out] factory set to the queue disc's factory when type and attributes are valid
     * \return an empty string, or why type or an attribute is refused
     */
    static std::string ConfigureQueueDisc(const std::string& method,
                                          const std::string& type,
                                          const AttributeList& attributes,
                                          ObjectFactory& factory);

    /// \return the message of Validate() about the shape (counts, radix), or ""
    std::string ValidateShape() const;
    /// \return the message of Validate() about the host addresses, or ""
    std::string ValidateAddressing() const;
    /// \return the message of Validate() about the queue discs, or ""
    std::string ValidateQueueDiscs() const;
    /// \return the message of Validate() about the MPI partition (Systems), or ""
    std::string ValidateSystems() const;
    /// \return the message of Validate() about the servers and rails, or ""
    std::string ValidateServers() const;
    /**
     * Build the servers' scale-up domain (GpusPerServer > 1) and give it to the fabric.
     * \param f the fabric, its planes built
     */
    void BuildScaleUp(Ptr<ClosFabric> f) const;
    /**
     * Route a rail-only fabric over the graph of its wiring (GraphRoutes): host routes of
     * every GPU to the GPUs of other servers on other rails, through the GPU of its server on
     * the destination's rail, and the scale-up switches' tables.
     * \param f the fabric, its planes built
     * \param domain its scale-up domain, finished
     * \param interfaces the IPv4 interface of every host's scale-up device
     */
    void RouteRailOnly(Ptr<ClosFabric> f,
                       Ptr<ScaleUpDomain> domain,
                       const std::vector<int32_t>& interfaces) const;
    /// \return the spines to build (none in a rail-only fabric)
    uint32_t Spines() const;

    /// \return the shape of the fabric to build, with the up-link rates of SetOversubscription()
    ClosPlane::Shape MakeShape() const;
    /**
     * \param plane a plane
     * \return the network address of that plane's host addresses
     */
    Ipv4Address PlaneAddressBase(uint32_t plane) const;
    /**
     * Build one plane.
     * \param plane the plane's index
     * \param plane0 plane 0, whose hosts the plane shares (null: build plane 0 and the hosts)
     * \return the finished plane
     */
    Ptr<ClosPlane> BuildPlane(uint32_t plane, Ptr<ClosPlane> plane0) const;
    /**
     * \param f the plane: every node added, with its system id
     * \param plane0 plane 0, whose hosts are added to f (null: new hosts)
     */
    void AddNodes(Ptr<ClosPlane> f, Ptr<ClosPlane> plane0) const;
    /**
     * \param f the plane: a TrafficControlLayer and a FabricSwitch on every switch node
     * \param plane its index (the switches' hash salts differ between planes)
     */
    void InstallSwitches(Ptr<ClosPlane> f, uint32_t plane) const;
    /// \return the seed of the switch salts: HashSeed, or the run number when it is 0
    uint32_t HashSeed() const;
    /// \param f the plane: ns-3's internet stack on every host
    void InstallHostStacks(Ptr<ClosPlane> f) const;
    /// \param f the finished fabric: a PfcPort on every device, a PfcSwitch on every switch
    void InstallPfc(Ptr<ClosFabric> f) const;
    /**
     * \param f the plane: every link added, host links first, then tier by tier
     * \param plane its index (plane 0's host devices carry the default route)
     */
    void AddLinks(Ptr<ClosPlane> f, uint32_t plane) const;
    /**
     * \param rate device rate
     * \param delay channel delay
     * \param queue capacity of the device transmit queues
     * \return a helper for the links of one tier
     */
    PointToPointHelper MakeLinkHelper(DataRate rate, Time delay, QueueSize queue) const;
    /**
     * Give a host its address, default route and (if set) NIC queue disc.
     * \param device the host's device
     * \param address its address
     * \param defaultRoute whether the host's default route goes out of this device
     */
    void ConfigureHostDevice(Ptr<NetDevice> device, Ipv4Address address, bool defaultRoute) const;
    /**
     * Link two switches and add the link to the plane.
     * \param f the plane
     * \param tier the tier
     * \param a the switch at side 0
     * \param b the switch at side 1
     * \param k which of the parallel links
     * \param p2p the helper of the tier
     */
    void LinkSwitches(Ptr<ClosPlane> f,
                      ClosPlane::Tier tier,
                      Ptr<Node> a,
                      Ptr<Node> b,
                      uint32_t k,
                      PointToPointHelper& p2p) const;

    uint32_t m_tiers;                 //!< Tiers attribute.
    uint32_t m_leaves;                //!< Leaves attribute.
    uint32_t m_hostsPerLeaf;          //!< HostsPerLeaf attribute.
    uint32_t m_spines;                //!< Spines attribute.
    uint32_t m_pods;                  //!< Pods attribute.
    uint32_t m_leavesPerPod;          //!< LeavesPerPod attribute.
    uint32_t m_aggsPerPod;            //!< AggsPerPod attribute.
    uint32_t m_cores;                 //!< Cores attribute.
    uint32_t m_parallel;              //!< ParallelLinks attribute.
    uint32_t m_leafRadix;             //!< LeafRadix attribute (0: not checked).
    uint32_t m_fatTreeK;              //!< k of SetFatTree() (0: not used; for Validate()).
    double m_oversubscription;        //!< SetOversubscription() ratio (0: rates as given).
    DataRate m_hostRate;              //!< HostLinkRate attribute.
    Time m_hostDelay;                 //!< HostLinkDelay attribute.
    DataRate m_leafUpRate;            //!< LeafUplinkRate attribute.
    Time m_leafUpDelay;               //!< LeafUplinkDelay attribute.
    DataRate m_aggUpRate;             //!< AggUplinkRate attribute.
    Time m_aggUpDelay;                //!< AggUplinkDelay attribute.
    QueueSize m_hostQueueSize;        //!< HostQueueSize attribute.
    uint32_t m_mtu;                   //!< Mtu attribute.
    uint32_t m_hashSeed;              //!< HashSeed attribute.
    Ipv4Address m_base;               //!< HostAddressBase attribute.
    Ipv4Mask m_mask;                  //!< HostAddressMask attribute.
    uint32_t m_systems;               //!< Systems attribute.
    uint32_t m_planes;                //!< Planes attribute.
    uint32_t m_gpus;                  //!< GpusPerServer attribute.
    DataRate m_scaleUpRate;           //!< ScaleUpRate attribute.
    Time m_scaleUpDelay;              //!< ScaleUpDelay attribute.
    Wiring m_wiring;                  //!< Wiring attribute.
    ObjectFactory m_switchQdFactory;  //!< Root queue disc of every switch port.
    std::string m_switchQdError;      //!< Why SetSwitchQueueDisc() refused its arguments.
    ObjectFactory m_hostQdFactory;    //!< Host NIC queue disc (no TypeId: none).
    std::string m_hostQdError;        //!< Why SetHostQueueDisc() refused its arguments.
    ObjectFactory m_portSelector;     //!< Port selector of every switch.
    std::string m_portSelectorError;  //!< Why SetPortSelector() refused its arguments.
    bool m_pfc;                       //!< Pfc attribute.
    ObjectFactory m_pfcSwitchFactory; //!< PfcSwitch of every switch (SetPfcAttribute()).
    ObjectFactory m_pfcPortFactory;   //!< PfcPort of every device (SetPfcAttribute()).
    std::string m_pfcError;           //!< Why SetPfcAttribute() refused an attribute.
    ObjectFactory m_planeFactory;     //!< Every plane (SetPlaneAttribute()).
    std::string m_planeError;         //!< Why SetPlaneAttribute() refused an attribute.
    std::string m_attributeError;     //!< Why SetAttribute() refused one of the helper's own.
};

template <typename... Ts>
void
ClosFabricHelper::SetSwitchQueueDisc(const std::string& type, Ts&&... args)
{
    AttributeList attributes;
    AttributeCheck::Collect(attributes, std::forward<Ts>(args)...);
    m_switchQdError = ConfigureQueueDisc("SetSwitchQueueDisc", type, attributes, m_switchQdFactory);
}

template <typename... Ts>
void
ClosFabricHelper::SetPortSelector(const std::string& type, Ts&&... args)
{
    AttributeList attributes;
    AttributeCheck::Collect(attributes, std::forward<Ts>(args)...);
    std::string error = ConfigurePortSelector(type, attributes);
    if (m_portSelectorError.empty())
    {
        m_portSelectorError = error;
    }
}

template <typename... Ts>
void
ClosFabricHelper::SetHostQueueDisc(const std::string& type, Ts&&... args)
{
    AttributeList attributes;
    AttributeCheck::Collect(attributes, std::forward<Ts>(args)...);
    m_hostQdError = ConfigureQueueDisc("SetHostQueueDisc", type, attributes, m_hostQdFactory);
}

} // namespace ns3

#endif /* REPS_CLOS_FABRIC_HELPER_H */
