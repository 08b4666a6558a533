/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nccl-collective.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/reps-ns3-compat.h"
#include "ns3/uinteger.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NcclCollective");

namespace
{
/// The attributes' defaults: those of the schedule (NCCL's), kept in one place.
constexpr NcclScheduleParameters kDefaults{};
} // namespace

NS_OBJECT_ENSURE_REGISTERED(NcclCollective);

TypeId
NcclCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NcclCollective")
            .SetParent<Collective>()
            .SetGroupName("Reps")
            .AddConstructor<NcclCollective>()
            .AddAttribute(
                "Operation",
                "The collective.",
                EnumValue(static_cast<NcclCollective::Operation>(kDefaults.collective)),
                REPS_MAKE_ENUM_ACCESSOR(NcclCollective::Operation, &NcclCollective::m_operation),
                MakeEnumChecker(NcclCollective::ALL_REDUCE,
                                "allreduce",
                                NcclCollective::ALL_GATHER,
                                "allgather",
                                NcclCollective::REDUCE_SCATTER,
                                "reducescatter",
                                NcclCollective::BROADCAST,
                                "broadcast",
                                NcclCollective::ALL_TO_ALL,
                                "alltoall",
                                NcclCollective::REDUCE,
                                "reduce",
                                NcclCollective::GATHER,
                                "gather",
                                NcclCollective::SCATTER,
                                "scatter"))
            .AddAttribute(
                "Algorithm",
                "ring; tree (a double binary tree; all-reduce only); or hierarchical (all-reduce, "
                "all-gather, reduce-scatter: a ring inside each server's scale-up domain, then "
                "one on each rail across the servers; every server with the same GPUs).",
                EnumValue(static_cast<NcclCollective::Algorithm>(kDefaults.algorithm)),
                REPS_MAKE_ENUM_ACCESSOR(NcclCollective::Algorithm, &NcclCollective::m_algorithm),
                MakeEnumChecker(NcclCollective::RING,
                                "ring",
                                NcclCollective::TREE,
                                "tree",
                                NcclCollective::HIERARCHICAL,
                                "hierarchical"))
            .AddAttribute("DataBytes",
                          "The size as nccl-tests states it: each rank's buffer (all-reduce, "
                          "broadcast), output (all-gather), input (reduce-scatter) or send "
                          "buffer (all-to-all).",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&NcclCollective::m_bytes),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 40))
            .AddAttribute("Channels",
                          "Channels, each its own ring or tree and queue pairs (NCCL: "
                          "NCCL_MIN_NCHANNELS/NCCL_MAX_NCHANNELS, tuned per system; 2 here).",
                          UintegerValue(kDefaults.channels),
                          MakeUintegerAccessor(&NcclCollective::m_channels),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("ChunkBytes",
                          "Bytes of one message (NCCL: NCCL_BUFFSIZE 4 MiB / NCCL_STEPS 8).",
                          UintegerValue(kDefaults.chunkBytes),
                          MakeUintegerAccessor(&NcclCollective::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 30))
            .AddAttribute("ChunkSteps",
                          "Ring collectives: messages per rank per loop (NCCL: NCCL_STEPS / 2).",
                          UintegerValue(kDefaults.chunkSteps),
                          MakeUintegerAccessor(&NcclCollective::m_chunkSteps),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("Slots",
                          "Messages in flight per connection: a message waits for the arrival "
                          "of the one Slots before it (NCCL: NCCL_STEPS, 8).",
                          UintegerValue(kDefaults.slots),
                          MakeUintegerAccessor(&NcclCollective::m_slots),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("QpsPerConnection",
                          "Queue pairs per connection (NCCL: NCCL_IB_QPS_PER_CONNECTION, 1).",
                          UintegerValue(kDefaults.qpsPerConnection),
                          MakeUintegerAccessor(&NcclCollective::m_qps),
                          MakeUintegerChecker<uint32_t>(1, 128))
            .AddAttribute("SplitDataOnQps",
                          "Split every message over the connection's queue pairs (true) or send "
                          "each message on the next one in turn (false; NCCL: "
                          "NCCL_IB_SPLIT_DATA_ON_QPS, 0).",
                          BooleanValue(kDefaults.splitDataOnQps),
                          MakeBooleanAccessor(&NcclCollective::m_split),
                          MakeBooleanChecker())
            .AddAttribute("Root",
                          "Broadcast, scatter: the rank (position among the hosts) that sends; "
                          "reduce, gather: the rank that receives.",
                          UintegerValue(kDefaults.root),
                          MakeUintegerAccessor(&NcclCollective::m_root),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Pxn",
                          "PXN: a message between servers whose GPUs sit on different rails "
                          "first crosses the sender's scale-up domain to the GPU of its server "
                          "on the receiver's rail, which sends it on (NCCL: NCCL_PXN_DISABLE=0; "
                          "needs SetGpusPerServer() above 1 to matter).",
                          BooleanValue(kDefaults.pxn),
                          MakeBooleanAccessor(&NcclCollective::m_pxn),
                          MakeBooleanChecker())
            .AddAttribute("AllToAllWindow",
                          "All-to-all: peers a rank sends to at once, in the order r+1, r+2, "
                          "... (0: all at once); gather, scatter: peers the root receives from "
                          "or sends to at once, in the order root+1, root+2, ...",
                          UintegerValue(kDefaults.allToAllWindow),
                          MakeUintegerAccessor(&NcclCollective::m_window),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

NcclCollective::NcclCollective()
{
    NS_LOG_FUNCTION(this);
}

NcclCollective::~NcclCollective()
{
    NS_LOG_FUNCTION(this);
}

void
NcclCollective::DoDispose()
{
    m_transfers.clear();
    m_dependants.clear();
    m_queues.clear();
    Collective::DoDispose();
}

NcclScheduleParameters
NcclCollective::GetParameters() const
{
    NcclScheduleParameters p;
    p.collective = static_cast<NcclOperation>(m_operation);
    p.algorithm = static_cast<NcclAlgorithm>(m_algorithm);
    p.bytes = m_bytes;
    p.channels = m_channels;
    p.chunkBytes = m_chunkBytes;
    p.chunkSteps = m_chunkSteps;
    p.slots = m_slots;
    p.qpsPerConnection = m_qps;
    p.splitDataOnQps = m_split;
    p.root = m_root;
    p.allToAllWindow = m_window;
    p.pxn = m_pxn;
    return p;
}

std::string
NcclCollective::Check() const
{
    return NcclSchedule::Check(GetParameters(), GetCommunicator());
}

void
NcclCollective::SetGpusPerServer(uint32_t gpus)
{
    NS_LOG_FUNCTION(this << gpus);
    NS_ABORT_MSG_IF(gpus == 0, "NcclCollective::SetGpusPerServer: gpus must be >= 1");
    NS_ABORT_MSG_IF(!m_transfers.empty(),
                    "NcclCollective::SetGpusPerServer: the schedule is built already");
    m_gpus = gpus;
}

NcclCommunicator
NcclCollective::GetCommunicator() const
{
    if (m_gpus == 1)
    {
        return NcclCommunicator::Servers(GetSize(), 1);
    }
    NcclCommunicator comm;
    for (uint32_t host : GetHosts())
    {
        comm.server.push_back(host / m_gpus);
        comm.local.push_back(host % m_gpus);
    }
    return comm;
}

void
NcclCollective::Schedule() const
{
    if (!m_transfers.empty())
    {
        return;
    }
    std::string error = Check();
    NS_ABORT_MSG_IF(!error.empty(), "ns3::NcclCollective: " << error);
    m_transfers = NcclSchedule::Build(GetParameters(), GetCommunicator());
    const std::vector<uint32_t>& hosts = GetHosts();
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> index;
    m_queueOf.resize(m_transfers.size());
    m_dependants.assign(m_transfers.size(), {});
    for (uint32_t t = 0; t < m_transfers.size(); ++t)
    {
        const NcclTransfer& x = m_transfers[t];
        auto key = std::make_tuple(hosts[x.src], hosts[x.dst], x.channel * m_qps + x.qp);
        auto [it, added] = index.emplace(key, static_cast<uint32_t>(m_queues.size()));
        if (added)
        {
            m_queues.emplace_back();
            m_connections.push_back(key);
        }
        m_queueOf[t] = it->second;
        m_queues[it->second].push_back(t);
        for (uint32_t before : x.after)
        {
            m_dependants[before].push_back(t);
        }
    }
}

uint32_t
NcclCollective::GetFlowCount() const
{
    Schedule();
    return static_cast<uint32_t>(m_transfers.size());
}

std::string
NcclCollective::GetName() const
{
    return std::string("nccl-") + NcclOperationName(static_cast<NcclOperation>(m_operation)) + "-" +
           NcclAlgorithmName(static_cast<NcclAlgorithm>(m_algorithm));
}

std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>
NcclCollective::GetConnections() const
{
    Schedule();
    return m_connections;
}

const std::vector<NcclTransfer>&
NcclCollective::GetTransfers() const
{
    return m_transfers;
}

void
NcclCollective::DoStart()
{
    NS_LOG_FUNCTION(this);
    Schedule();
    m_waiting.resize(m_transfers.size());
    for (uint32_t t = 0; t < m_transfers.size(); ++t)
    {
        m_waiting[t] = static_cast<uint32_t>(m_transfers[t].after.size());
    }
    m_head.assign(m_queues.size(), 0);
    for (uint32_t q = 0; q < m_queues.size(); ++q)
    {
        Post(q);
    }
}

void
NcclCollective::Post(uint32_t q)
{
    const std::vector<uint32_t>& queue = m_queues[q];
    while (m_head[q] < queue.size() && m_waiting[queue[m_head[q]]] == 0)
    {
        const uint32_t t = queue[m_head[q]++];
        const NcclTransfer& x = m_transfers[t];
        NS_LOG_LOGIC("transfer " << t << ": " << x.src << " -> " << x.dst << ", " << x.bytes
                                 << " bytes, channel " << x.channel << ", step " << x.step);
        LaunchFlow(GetHosts()[x.src],
                   GetHosts()[x.dst],
                   x.bytes,
                   x.step,
                   x.channel * m_qps + x.qp,
                   t,
                   MakeCallback(&NcclCollective::Arrived, this).Bind(t));
    }
}

void
NcclCollective::Arrived(uint32_t t)
{
    NS_LOG_FUNCTION(this << t);
    for (uint32_t d : m_dependants[t])
    {
        NS_ASSERT(m_waiting[d] > 0);
        if (--m_waiting[d] == 0)
        {
            Post(m_queueOf[d]);
        }
    }
}

} // namespace ns3
