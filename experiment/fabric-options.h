/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FABRIC_OPTIONS_H
#define REPS_FABRIC_OPTIONS_H

#include "option-registry.h"
#include "path-selector-names.h"

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The options of a Clos fabric and of the transport on it, shared by the experiments: the
 * fabric's shape, links and switch queues, the queue pairs' timers and base RTT, the path
 * selectors and their variants, the congestion control. The public fields are the options,
 * their defaults the REPS paper's setup; each is registered once in an OptionRegistry (name,
 * help, field, check), from which come --help, the checks and the report's configuration.
 * ExperimentOptions adds the workload, the faults and the outputs.
 *
 * Most options of the switch queues, the queue pairs, the path selectors and PFC are another
 * name of one model attribute (OptionRegistry::AddAttribute(), e.g. --ecnKmin for
 * ns3::EcnQueueDisc::Kmin): their default, help and range are the attribute's, and their value
 * reaches the model through Config::SetDefault(); they have no field here (GetAlias() reads
 * them). The other options are fields, converted once by Check().
 *
 * Check() converts every value (rates, times, sizes, TypeIds: GetParsed()) and exits with a
 * message naming the option and what is allowed on a bad one.
 */
class FabricOptions
{
  public:
    /// The options converted by Check(), of this class and of those built on it.
    struct Parsed
    {
        std::vector<PathSelectorNames::Choice> selectors; //!< --lb.
        DataRate linkRate;                                //!< --linkRate.
        Time linkDelay;                                   //!< --linkDelay.
        uint64_t flowBytes{0};                            //!< --flowSize.
        uint64_t backgroundBytes{0};                      //!< --backgroundSize.
        uint64_t tcpBackgroundBytes{0};                   //!< --tcpBackgroundSize.
        Time tcpMinRto;                                   //!< --tcpMinRto.
        TypeId tcpVariant;                                //!< --tcpVariant (none: default).
        Time duration;                                    //!< --duration.
        Time computeTime;                                 //!< --computeTime.
        DataRate degradedRate;                            //!< --degradedRate.
        Time failAt;                                      //!< --failAt.
        Time failFor;                                     //!< --failFor.
        Time failGap;                                     //!< --failGap.
        Time rto;                                         //!< --rto when a Time, else 0.
        std::string portSelector;                         //!< TypeId name of --forwarding.
        Time start;                                       //!< --startTime.
        Time stop;                                        //!< --stopTime.
        Time sample;                                      //!< --sampleInterval.
        std::string ccType;                               //!< TypeId name of --cc.
        bool receiverCredits{false}; //!< --credits, or a --cc that needs receiver credits.
    };

    FabricOptions();
    /// The registry points into this object: no copies.
    FabricOptions(const FabricOptions&) = delete;
    /// The registry points into this object: no copies.
    FabricOptions& operator=(const FabricOptions&) = delete;
    virtual ~FabricOptions() = default;

    /**
     * Register every option with the command line.
     * \param cmd the command line.
     */
    void AddOptions(CommandLine& cmd);

    /// Convert and check every option; print what is wrong and exit(1) on a bad one.
    void Check();

    /// \return whether Check() ran.
    bool IsChecked() const;

    /**
     * Give an option a value by name, as the command line would.
     * \param name the option's name (e.g. "ecnKmin")
     * \param value its value (e.g. "30")
     * \param [out] error the message naming the option and what is allowed, when refused
     * \return whether the value was taken
     */
    bool Set(const std::string& name, const std::string& value, std::string& error);

    /**
     * Give an option a value by name; exit with the command line's message when refused.
     * \param name the option's name
     * \param value its value
     */
    void Set(const std::string& name, const std::string& value);

    /**
     * \param name an option that names a model attribute (e.g. "evSpace")
     * \return its alias, which reads the value objects get
     */
    const AttributeAlias& GetAlias(const std::string& name) const;

    /// \return every option, for walking them (help, defaults, aliases)
    const OptionRegistry& GetRegistry() const;

    /// \return the path selectors of --lb (after Check()).
    const std::vector<PathSelectorNames::Choice>& GetSelectors() const;

    /// \return the options converted by Check().
    const Parsed& GetParsed() const;

    /// \return the names of every option, in the order of --help.
    std::vector<std::string> GetOptionNames() const;

    /**
     * Give every shape option left at 0 the default of the chosen tier count: the 2-tier
     * 128-host fabric of the REPS paper (16 leaves x 8 hosts, 8 spines) or the k = 8 fat tree
     * (8 pods of 4 leaves x 4 hosts and 4 aggregation switches, 16 cores). Check() calls it.
     */
    void ApplyTierDefaults();

    /// \return the number of hosts of the fabric the options describe.
    uint32_t GetHosts() const;

    // The options (their names on the command line are the field names).
    std::string lb;         //!< Comma list of path selectors.
    uint32_t tiers;         //!< 2 or 3.
    uint32_t leaves;        //!< Leaves (2 tiers) or leaves per pod (3 tiers).
    uint32_t hostsPerLeaf;  //!< Hosts per leaf.
    uint32_t spines;        //!< Spines (2 tiers) or aggregation switches per pod (3 tiers).
    uint32_t pods;          //!< Pods (3 tiers).
    uint32_t cores;         //!< Core switches (3 tiers).
    std::string linkRate;   //!< Rate of every link.
    std::string linkDelay;  //!< Propagation delay of every link.
    uint32_t mtu;           //!< Payload bytes per packet.
    bool trim;              //!< Trim instead of dropping.
    std::string baseRtt;    //!< Queue pairs' base RTT: pair or fabric.
    std::string rto;        //!< RTO rule: reference, basertt or a Time.
    std::string forwarding; //!< Switch forwarding: a port selector's word or TypeId.
    std::string cc;         //!< window, dcqcn, nscc, rccc or none.
    bool pfc;               //!< Lossless fabric (PFC).
    uint32_t planes;        //!< Network planes (1 .. 8).

  protected:
    /// Check the fabric's shape as ClosFabricHelper would (e.g. cores per aggregation switch).
    void CheckFabricShape() const;
    /**
     * Exit when the congestion controller's attributes contradict each other.
     * \param tid the controller of --cc
     * \param mtu payload bytes per packet
     */
    static void CheckCongestionControl(TypeId tid, uint32_t mtu);

    /// Check the switch queue's size and ECN thresholds against each other (packets).
    void CheckQueueOptions() const;

    /// Exit when receiver credits are on (--credits, or --cc=rccc) with attributes they refuse.
    void CheckReceiverCredits();

    OptionRegistry m_options; //!< Every option, registered once.
    Parsed m_parsed;          //!< The options converted by Check().

  private:
    /// Register the path selectors and the options of the fabric's shape.
    void RegisterFabricOptions();
    /// Register the options of the servers (GPUs per server, scale-up, wiring).
    void RegisterServerOptions();
    /// Register the options of the links, the switch queues and forwarding.
    void RegisterLinkOptions();
    /// Register the options of switch-side load balancing (DLB, GLB) and of trimming.
    void RegisterSwitchOptions();
    /// Register the options of the transport and the path selectors.
    void RegisterTransportOptions();
    /// Register the options of PFC (lossless fabric).
    void RegisterPfcOptions();
    /// Register the options of ACK coalescing.
    void RegisterAckOptions();

    bool m_checked; //!< Check() ran.
};

} // namespace ns3

#endif /* REPS_FABRIC_OPTIONS_H */
