/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RDMA_HELPER_H
#define REPS_RDMA_HELPER_H

#include "ns3/attribute-check.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-stack.h"

#include <string>
#include <utility>

namespace ns3
{

/**
 * \ingroup reps
 * Installs the RDMA stack on hosts and connects queue pairs between them, with the path
 * selector and congestion control chosen by TypeId (like PointToPointHelper's factories).
 *
 * \code
 *   RdmaHelper rdma;
 *   rdma.SetPathSelector("ns3::EcmpPathSelector");
 *   rdma.SetCongestionControl("ns3::RdmaWindowCongestionControl");
 *   rdma.SetQueuePairAttribute("BaseRtt", TimeValue(MicroSeconds(8)));
 *   rdma.Install(hosts);                       // after InternetStackHelper and addresses
 *   auto [qp, peer] = rdma.CreateQueuePair(hosts.Get(0), hosts.Get(1));
 *   qp->PostSend(1 << 20, MakeCallback(&OnDone));
 * \endcode
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    /**
     * Choose the path selector of the queue pairs created from now on (one object per queue
     * pair). A TypeId that is unknown or not a PathSelector, an attribute it does not have or
     * a value out of an attribute's range is refused: Validate() says which, and Install()
     * and CreateQueuePair() stop the program with that message.
     * \param type its TypeId name, e.g. "ns3::EcmpPathSelector"
     * \param args name/value pairs of its attributes
     */
    template <typename... Ts>
    void SetPathSelector(const std::string& type, Ts&&... args);

    /**
     * Choose the congestion control of the queue pairs created from now on. Refused as
     * SetPathSelector() refuses (the TypeId must be an RdmaCongestionControl).
     * \param type its TypeId name, e.g. "ns3::DcqcnCongestionControl"
     * \param args name/value pairs of its attributes
     */
    template <typename... Ts>
    void SetCongestionControl(const std::string& type, Ts&&... args);

    /**
     * Set an attribute of the queue pairs created from now on (ns3::RdmaQueuePair); an
     * attribute the queue pair does not have or a value out of its range is refused as
     * SetPathSelector() refuses one.
     * \param name the attribute
     * \param value its value
     */
    void SetQueuePairAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set an attribute of the path selectors created from now on (after SetPathSelector(),
     * which starts from the type's defaults again); refused as SetPathSelector() refuses
     * one.
     * \param name the attribute
     * \param value its value
     */
    void SetPathSelectorAttribute(const std::string& name, const AttributeValue& value);

    /**
     * The unloaded round-trip time between two hosts, given their RDMA addresses (e.g. from
     * ClosFabric::GetBaseRtt()).
     */
    typedef Callback<Time, Ipv4Address, Ipv4Address> BaseRttCallback;

    /**
     * Give each queue pair created from now on the base RTT of its own path, instead of the
     * BaseRtt attribute set with SetQueuePairAttribute(): the base RTT sets the queue pair's
     * initial window, default RTO and the path selector's timing (REPS's failure threshold
     * and exploration length, the flowlet gap). A null callback restores the attribute.
     * \param cb the RTT of a pair of hosts
     */
    void SetBaseRttCallback(BaseRttCallback cb);

    /**
     * Check that a TypeId name exists and derives from a base.
     * \param type the TypeId name
     * \param base the base it must derive from
     * \param what what it is for, for the message (e.g. "SetCongestionControl")
     * \return an empty string when valid, else what is wrong
     */
    static std::string ValidateTypeId(const std::string& type,
                                      TypeId base,
                                      const std::string& what);

    /**
     * Check the configuration: the first TypeId, attribute or value that SetPathSelector(),
     * SetCongestionControl(), SetQueuePairAttribute() or SetPathSelectorAttribute() refused.
     * \return an empty string when everything was taken, else a message naming the method,
     *         the type, the attribute and what is allowed
     */
    std::string Validate() const;

    /**
     * Install the RDMA stack on each node (which must have the internet stack, an IPv4 address
     * on interface 1 and a PointToPointNetDevice there).
     * \param nodes the hosts
     */
    void Install(NodeContainer nodes) const;
    /// \param node a host
    void Install(Ptr<Node> node) const;

    /**
     * Create and connect a pair of queue pairs, one on each node (both need the stack).
     * \param src the node of the first queue pair (usually the sender)
     * \param dst the node of the second
     * \return the queue pair on src and the one on dst
     */
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> CreateQueuePair(Ptr<Node> src, Ptr<Node> dst);

    /**
     * Create and connect a pair of queue pairs between the hosts that own two addresses (the
     * address of a stack's NIC, as RdmaStack::GetAddress() gives it).
     * \param src the address of the first host
     * \param dst the address of the second host
     * \return the queue pair on the first host and the one on the second
     */
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> CreateQueuePair(Ipv4Address src,
                                                                      Ipv4Address dst);

    /**
     * Assign fixed random variable streams to the path selectors and congestion controllers
     * of the queue pairs existing on the nodes (call after creating them).
     * \param nodes the hosts
     * \param stream first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(NodeContainer nodes, int64_t stream) const;

  private:
    /**
     * Configure a factory from a TypeId and attributes, each checked; the first refusal is
     * kept for Validate().
     * \param method the calling method, for the message
     * \param base the type the TypeId must derive from
     * \param type the TypeId name
     * \param attributes its attributes
     * \param [out] factory set when the type and every attribute are valid
     */
    void Configure(const std::string& method,
                   TypeId base,
                   const std::string& type,
                   const AttributeCheck::AttributeList& attributes,
                   ObjectFactory& factory);

    /**
     * Keep the first refusal.
     * \param error a refusal, or "" (ignored)
     */
    void Refuse(const std::string& error);

    /// Stop the program with the message of Validate(), if it has one.
    void ExitIfRefused() const;

    ObjectFactory m_psFactory; //!< Path selectors.
    ObjectFactory m_ccFactory; //!< Congestion controllers.
    ObjectFactory m_qpFactory; //!< Attributes of queue pairs.
    BaseRttCallback m_baseRtt; //!< Per-pair base RTT (null: the BaseRtt attribute).
    std::string m_error;       //!< The first refused TypeId, attribute or value.
};

template <typename... Ts>
void
RdmaHelper::SetPathSelector(const std::string& type, Ts&&... args)
{
    AttributeCheck::AttributeList attributes;
    AttributeCheck::Collect(attributes, std::forward<Ts>(args)...);
    Configure("RdmaHelper::SetPathSelector",
              TypeId::LookupByName("ns3::PathSelector"),
              type,
              attributes,
              m_psFactory);
}

template <typename... Ts>
void
RdmaHelper::SetCongestionControl(const std::string& type, Ts&&... args)
{
    AttributeCheck::AttributeList attributes;
    AttributeCheck::Collect(attributes, std::forward<Ts>(args)...);
    Configure("RdmaHelper::SetCongestionControl",
              TypeId::LookupByName("ns3::RdmaCongestionControl"),
              type,
              attributes,
              m_ccFactory);
}

} // namespace ns3

#endif /* REPS_RDMA_HELPER_H */
