/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_DLB_PORT_SELECTOR_H
#define REPS_DLB_PORT_SELECTOR_H

#include "dlb-flowlet-table.h"
#include "port-load-monitor.h"
#include "port-selector.h"

#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Dynamic load balancing on flowlets (DLB), as data-center leaf switches do it: a flowlet
 * table (DlbFlowletTable, FlowletTableSize buckets) keyed by the flow hash of the 5-tuple
 * including the entropy value. A packet of a live flowlet keeps the flowlet's port; a packet
 * after a gap longer than FlowletTimeout starts a new flowlet on the port of best quality
 * (GetQuality(); among ports of equal quality the one free soonest, then at random); a packet
 * whose bucket holds a live flowlet of another flow takes the flow-hash port (a collision).
 *
 * The quality of a port (0 is best) mixes its recent load and its queueing delay, both from a
 * PortLoadMonitor (LoadTimeConstant, DelayRange, QualityLevels, LoadWeight, QueueWeight).
 * Subclasses may rank the candidates of a new flowlet otherwise (FlowletLevel(); GLB does).
 */
class DlbPortSelector : public PortSelector
{
  public:
    /// Counters of the flowlet table.
    struct Counters
    {
        uint64_t flowlets{0};   //!< Flowlets started.
        uint64_t moves{0};      //!< Flowlets of a known flow started on another port.
        uint64_t collisions{0}; //!< Packets sent by the flow hash after a bucket collision.
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DlbPortSelector();
    ~DlbPortSelector() override;

    /**
     * TracedCallback signature of the Flowlet trace source.
     * \param [in] hash the flow hash of the flowlet
     * \param [in] oldPort the port the flow had before (equal to newPort when new or unchanged;
     *             UINT32_MAX for a flow the bucket did not know)
     * \param [in] newPort the port of the new flowlet
     */
    typedef void (*FlowletTracedCallback)(uint32_t hash, uint32_t oldPort, uint32_t newPort);

    /**
     * The quality of a port (0 is best): a level of QualityLevels, the weighted mix of the
     * quantised recent load and the quantised queueing delay (drain time over DelayRange).
     * \param port a port
     * \return the quality level
     */
    uint32_t GetQuality(uint32_t port) const;

    /**
     * Quantised mix of load and delay (the rule of GetQuality(), without a port).
     * \param load recent load (fraction of the line rate)
     * \param delay queueing delay as a fraction of DelayRange
     * \param levels number of levels (>= 2)
     * \param loadWeight weight of the load
     * \param delayWeight weight of the delay
     * \return the level, 0 to levels - 1
     */
    static uint32_t Quality(double load,
                            double delay,
                            uint32_t levels,
                            uint32_t loadWeight,
                            uint32_t delayWeight);

    /// \return the QualityLevels attribute
    uint32_t GetQualityLevels() const;
    /// \return the load of the switch's ports, as this selector sees it
    const PortLoadMonitor& GetPortLoad() const;
    /// \return the counters of the flowlet table
    const Counters& GetCounters() const;
    /// \return the number of live flowlets now
    uint32_t GetLiveFlowlets() const;

  protected:
    void DoDispose() override;
    void DoAddPort(uint32_t port, Ptr<NetDevice> device, Ptr<QueueDisc> queueDisc) override;
    uint32_t DoPick(const uint32_t* ports, uint32_t n, const Flow& flow) override;

    /**
     * The rank of a candidate port for a new flowlet (lower is better); ports of the best rank
     * are then ordered by drain time, then drawn at random. The default is GetQuality().
     * \param ports the equal-cost ports
     * \param n their number
     * \param k the position of the candidate in ports
     * \param flow the packet's flow
     * \return the rank (at least 0, below 2^23)
     */
    virtual int64_t FlowletLevel(const uint32_t* ports,
                                 uint32_t n,
                                 uint32_t k,
                                 const Flow& flow) const;

  private:
    /// \param size the FlowletTableSize attribute
    void SetTableSize(uint32_t size);
    /// \return the FlowletTableSize attribute
    uint32_t GetTableSize() const;
    /// \param tau the LoadTimeConstant attribute
    void SetLoadTimeConstant(Time tau);
    /// \return the LoadTimeConstant attribute
    Time GetLoadTimeConstant() const;

    Time m_flowletTimeout;        //!< FlowletTimeout attribute.
    uint32_t m_levels;            //!< QualityLevels attribute.
    uint32_t m_loadWeight;        //!< LoadWeight attribute.
    uint32_t m_queueWeight;       //!< QueueWeight attribute.
    Time m_delayRange;            //!< DelayRange attribute.
    DlbFlowletTable m_table;      //!< Flowlet table.
    PortLoadMonitor m_load;       //!< Load of the ports.
    Counters m_counters;          //!< Counters.
    std::vector<int64_t> m_score; //!< Scratch space of the choice.

    TracedCallback<uint32_t, uint32_t, uint32_t> m_flowletTrace; //!< Flowlet trace source.
};

} // namespace ns3

#endif /* REPS_DLB_PORT_SELECTOR_H */
