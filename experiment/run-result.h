/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_RUN_RESULT_H
#define REPS_RUN_RESULT_H

#include "time-series.h"

#include "ns3/failure-injector.h"
#include "ns3/flow-stats.h"
#include "ns3/nstime.h"
#include "ns3/tcp-background.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Bytes carried by one fabric link in one direction during a run (to show imbalance).
 */
struct LinkLoad
{
    std::string link;    //!< Name of the link and direction, e.g. "leaf0->spine3".
    std::string tier;    //!< Which tier it belongs to, e.g. "leaf-spine" or "spine-leaf".
    uint64_t bytes{0};   //!< Bytes transmitted.
    uint64_t rateBps{0}; //!< Link rate in bit/s (after any degradation).
};

/**
 * \ingroup reps
 * What one plane of a multi-plane fabric carried during a run: the packets and bytes the hosts
 * sent into it (over their links to the plane's leaves, data and control alike).
 */
struct PlaneLoad
{
    uint32_t plane{0};     //!< The plane.
    uint64_t packets{0};   //!< Packets the hosts sent on it.
    uint64_t bytes{0};     //!< Their bytes (with the point-to-point header).
    double share{0};       //!< The plane's share of the bytes of all planes.
};

/**
 * \ingroup reps
 * A time at which something happened to the fabric (a link failed, came back, ...); drawn as
 * a marker by utils/plot.py.
 */
struct RunEvent
{
    Time time{Seconds(0)}; //!< When.
    std::string label;     //!< What, e.g. "leaf0->spine1 down".
};

/**
 * \ingroup reps
 * One link direction slowed down by --slowLinks (uet-htsim's -failed N): its rate and its
 * egress queue's size and ECN thresholds, all scaled by --slowLinkFactor.
 */
struct SlowLink
{
    std::string link;         //!< The direction, e.g. "core0->agg0.0".
    uint64_t rateBps{0};      //!< Its rate after scaling, bit/s.
    uint32_t queuePackets{0}; //!< The egress queue's size after scaling, packets.
    uint32_t ecnKmin{0};      //!< Its ECN Kmin after scaling, packets.
    uint32_t ecnKmax{0};      //!< Its ECN Kmax after scaling, packets.
};

/**
 * \ingroup reps
 * PFC activity of one end of a link (a switch port or a host NIC) during a run.
 */
struct PortPause
{
    std::string port;           //!< The link seen from this end, e.g. "spine0->leaf1".
    std::string tier;           //!< The node's role: "host", "leaf", "spine", "agg" or "core".
    uint64_t pausesSent{0};     //!< PAUSE (XOFF) frames sent.
    uint64_t resumesSent{0};    //!< XON frames sent.
    uint64_t pausesReceived{0}; //!< PAUSE frames received.
    double pausedUs{0};         //!< Time its lossless priority was stopped, in microseconds.
};

/**
 * \ingroup reps
 * PFC totals of a run (all zero and not reported when the fabric is not lossless).
 */
struct PfcResult
{
    bool enabled{false};        //!< The fabric has PFC.
    uint64_t pausesSent{0};     //!< PAUSE frames sent, every port.
    uint64_t resumesSent{0};    //!< XON frames sent, every port.
    uint64_t pausesReceived{0}; //!< PAUSE frames received, every port.
    double pausedUs{0};         //!< Paused time summed over every port, microseconds.
    std::map<std::string, uint64_t> pausesSentPerTier; //!< PAUSE frames sent, per node role.
    std::vector<PortPause> ports; //!< Every port that sent or received a PFC frame.
};

/**
 * \ingroup reps
 * Everything measured in one run of one path selector: the flows (FlowStats) and the totals
 * the experiment reads from the fabric and the transport. Plain fields: an example fills in
 * what its models count and leaves the rest at zero. One entry of the "results" array of the
 * JSON written by ExperimentReport.
 */
struct RunResult
{
    std::string lb;              //!< Name of the path selector ("ecmp", "reps", ...).
    FlowStats flows;             //!< Per-flow and per-collective completion times.
    uint64_t packets{0};         //!< Data packets sent by the hosts (retransmissions included).
    uint64_t retransmissions{0}; //!< Data packets sent again.
    uint64_t drops{0};           //!< Packets dropped anywhere in the fabric.
    uint64_t trims{0};           //!< Packets trimmed by switch queues.
    uint64_t ecnMarks{0};        //!< Packets marked CE by switch queues.
    uint64_t freezes{0};         //!< Times a path selector entered freezing (REPS).
    uint64_t maxQueueBytes{0};   //!< Deepest switch egress queue seen, in bytes.
    std::map<std::string, uint64_t> maxQueueBytesPerTier; //!< Same, per switch tier.
    std::vector<LinkLoad> linkBytes;                      //!< Bytes per fabric link.
    std::vector<PlaneLoad> planes; //!< Load per plane (multi-plane fabrics only).
    std::vector<TimeSeries> timeseries;                   //!< Sampled series.
    std::vector<RunEvent> events;                         //!< Fabric events (failures).
    std::vector<FailureInjector::Outcome> failures;       //!< Lines of --failureFile.
    std::vector<SlowLink> slowLinks;                      //!< Links of --slowLinks.
    TcpBackgroundResult tcpBackground;                    //!< ns-3 TCP background flows.
    PfcResult pfc;                                        //!< PFC pauses (lossless fabric).
    std::map<std::string, double> extra; //!< More numeric fields, written as they are named.
    Time simTime{Seconds(0)};            //!< Simulated time at the end of the run.
    double wallSeconds{0};               //!< Wall-clock time the run took.
};

} // namespace ns3

#endif /* REPS_RUN_RESULT_H */
