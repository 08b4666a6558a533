/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_FABRIC_MONITOR_H
#define REPS_FABRIC_MONITOR_H

#include "run-result.h"
#include "time-series.h"

#include "ns3/clos-fabric.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/workload-runner.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class QueueDisc;

/**
 * \ingroup reps
 * Reads a ClosFabric's counters into a RunResult: drops (queue overflows and packets lost on
 * links that are down), trims, ECN marks, the deepest egress queue per switch tier, and the
 * bytes every switch-to-switch link carried in each direction; and samples, every Interval,
 * the time series "queue_bytes" (deepest egress queue per switch tier at the end of the
 * interval), "drops" (packets dropped during the interval, in queues and on down links),
 * "delivered_bytes" (bytes the leaves delivered to hosts during the interval) and, with a
 * runner, "completed_flows" (flows completed during the interval). With PerLinkSeries, also
 * "link_utilization" (every switch-to-switch link, per direction: the bytes it delivered during
 * the interval over what its current rate carries in the interval, so up to one packet above
 * 1; series "leaf0-spine1" for leaf 0 to spine 1) and
 * "port_queue_bytes" (the queue of the BusiestPorts switch ports with the deepest maximum, at
 * the end of each interval; series "leaf0-spine1" for leaf 0's port toward spine 1). In a
 * lossless fabric it also reads the PFC counters of every link end (FillPfc()).
 *
 * Sampling costs one event per interval that reads every switch port; it stops when the
 * runner's flows have all completed or when its event is the only one left.
 */
class FabricMonitor : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FabricMonitor();
    ~FabricMonitor() override;

    /**
     * \param fabric the fabric to watch.
     */
    void SetFabric(Ptr<ClosFabric> fabric);

    /**
     * \param runner the workload, for "completed_flows" and to stop sampling when it is done.
     */
    void SetRunner(Ptr<WorkloadRunner> runner);

    /// Start sampling (if Interval > 0); the first sample is taken one interval from now.
    void Start();

    /**
     * Fill the fabric fields of a result: drops, trims, ecnMarks, maxQueueBytes,
     * maxQueueBytesPerTier, linkBytes and the time series (with a last sample now).
     * \param result the result.
     */
    void Fill(RunResult& result);

    /**
     * Fill the PFC totals of a result from the PfcPort of every link end (enabled stays
     * false when the fabric has none).
     * \param pfc the totals
     */
    void FillPfc(PfcResult& pfc) const;
    /**
     * The load of every plane of a multi-plane fabric (nothing for a single plane).
     * \param planes where to write it
     */
    void FillPlanes(std::vector<PlaneLoad>& planes) const;
    /**
     * What the GPUs sent over their scale-up links (servers of several GPUs only): the
     * results' scale_up_packets and scale_up_bytes.
     * \param extra where to write them
     */
    void FillScaleUp(std::map<std::string, double>& extra) const;

    /// \return packets dropped so far in switch queues and on links that are down.
    uint64_t GetDrops() const;

    /// \return packets delivered so far over every link, both directions (data and ACKs).
    uint64_t GetLinkPackets() const;

  protected:
    void DoDispose() override;

  private:
    /// One switch egress queue.
    struct Port
    {
        uint32_t link;     //!< Its link.
        uint32_t side;     //!< Side of the link the switch is on.
        uint32_t tier;     //!< Index in m_tierNames.
        Ptr<QueueDisc> qd; //!< The queue disc.
    };

    /// One direction of a switch-to-switch link.
    struct DirectedLink
    {
        uint32_t link;      //!< The link.
        uint32_t direction; //!< 0: from its first node.
        uint64_t lastBytes; //!< Bytes delivered at the last sample.
    };

    /// Take one sample and schedule the next.
    void Sample();

    /// Append one sample of every series at the current time.
    void Record();

    /**
     * Count a completed flow.
     * \param flow the flow.
     * \param fct its completion time.
     */
    void FlowCompleted(const FlowSpec& flow, Time fct);

    /// Append one sample of the per-link series (PerLinkSeries).
    void RecordLinks();

    /// \return the busiest ports' queue series (PerLinkSeries), from the samples taken.
    TimeSeries BusiestPortSeries() const;

    /// \return bytes delivered so far by leaves to hosts.
    uint64_t GetDeliveredBytes() const;

    Time m_interval;                              //!< Interval attribute.
    Ptr<ClosFabric> m_fabric;                     //!< The fabric.
    Ptr<WorkloadRunner> m_runner;                 //!< The workload (may be null).
    std::vector<Port> m_ports;                    //!< Every switch egress queue.
    std::vector<std::string> m_tierNames;         //!< Switch tiers present ("leaf", "spine", ...).
    EventId m_event;                              //!< Next sample.
    TimeSeries m_queue;                           //!< queue_bytes.
    TimeSeries m_drops;                           //!< drops.
    TimeSeries m_delivered;                       //!< delivered_bytes.
    TimeSeries m_completed;                       //!< completed_flows.
    uint64_t m_lastQueueDrops;                    //!< Queue drops at the last sample.
    uint64_t m_lastLinkDrops;                     //!< Link drops at the last sample.
    uint64_t m_lastDelivered;                     //!< Delivered bytes at the last sample.
    uint64_t m_completedSince;                    //!< Flows completed since the last sample.
    bool m_perLink;                               //!< PerLinkSeries attribute.
    uint32_t m_busiestPorts;                      //!< BusiestPorts attribute.
    std::vector<DirectedLink> m_links;            //!< Switch-to-switch links, per direction.
    TimeSeries m_linkUtil;                        //!< link_utilization.
    Time m_lastSample;                            //!< Time of the last sample.
    std::vector<std::vector<double>> m_portDepth; //!< Queue samples per port (PerLinkSeries).
    bool m_started;                               //!< Start() was called.
};

} // namespace ns3

#endif /* REPS_FABRIC_MONITOR_H */
