/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-trace-replay.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraTraceReplay");

NS_OBJECT_ENSURE_REGISTERED(ChakraTraceReplay);

namespace
{

/**
 * \param c a trace's collective.
 * \return the NcclCollective operation that runs it.
 */
NcclCollective::Operation
OperationOf(ChakraTrace::Collective c)
{
    switch (c)
    {
    case ChakraTrace::Collective::ALL_REDUCE:
    case ChakraTrace::Collective::BARRIER:
        return NcclCollective::ALL_REDUCE;
    case ChakraTrace::Collective::REDUCE:
        return NcclCollective::REDUCE;
    case ChakraTrace::Collective::GATHER:
        return NcclCollective::GATHER;
    case ChakraTrace::Collective::SCATTER:
        return NcclCollective::SCATTER;
    case ChakraTrace::Collective::ALL_GATHER:
        return NcclCollective::ALL_GATHER;
    case ChakraTrace::Collective::BROADCAST:
        return NcclCollective::BROADCAST;
    case ChakraTrace::Collective::ALL_TO_ALL:
        return NcclCollective::ALL_TO_ALL;
    case ChakraTrace::Collective::REDUCE_SCATTER:
    case ChakraTrace::Collective::REDUCE_SCATTER_BLOCK:
        return NcclCollective::REDUCE_SCATTER;
    }
    return NcclCollective::ALL_REDUCE;
}

/**
 * \param intervals time intervals.
 * \return them merged into disjoint sorted intervals.
 */
std::vector<std::pair<Time, Time>>
Merge(std::vector<std::pair<Time, Time>> intervals)
{
    std::sort(intervals.begin(), intervals.end());
    std::vector<std::pair<Time, Time>> out;
    for (const auto& [a, b] : intervals)
    {
        if (!out.empty() && a <= out.back().second)
        {
            out.back().second = std::max(out.back().second, b);
        }
        else
        {
            out.emplace_back(a, b);
        }
    }
    return out;
}

} // namespace

TypeId
ChakraTraceReplay::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ChakraTraceReplay")
            .SetParent<Collective>()
            .SetGroupName("Reps")
            .AddConstructor<ChakraTraceReplay>()
            .AddAttribute("PeakFlops",
                          "Roofline timing of compute nodes without duration_micros: the GPU's "
                          "peak rate in operations per second, a node taking num_ops / PeakFlops "
                          "(or its tensor_size over MemoryBandwidth, if longer); 0: off, such "
                          "nodes take no time.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&ChakraTraceReplay::m_peakFlops),
                          MakeDoubleChecker<double>(0, 1e18))
            .AddAttribute("MemoryBandwidth",
                          "Roofline timing of compute and memory nodes without duration_micros: "
                          "the GPU memory's bandwidth in bytes per second, a node's tensor_size "
                          "taking tensor_size / MemoryBandwidth; 0: off.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&ChakraTraceReplay::m_memoryBandwidth),
                          MakeDoubleChecker<double>(0, 1e18));
    return tid;
}

ChakraTraceReplay::ChakraTraceReplay()
{
    NS_LOG_FUNCTION(this);
}

ChakraTraceReplay::~ChakraTraceReplay()
{
    NS_LOG_FUNCTION(this);
}

void
ChakraTraceReplay::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (Ptr<NcclCollective>& c : m_colls)
    {
        c->Dispose();
        c = nullptr;
    }
    m_colls.clear();
    Collective::DoDispose();
}

void
ChakraTraceReplay::SetGpusPerServer(uint32_t gpus)
{
    NS_LOG_FUNCTION(this << gpus);
    NS_ABORT_MSG_IF(gpus == 0, "ChakraTraceReplay::SetGpusPerServer: gpus must be >= 1");
    NS_ABORT_MSG_IF(!m_colls.empty(),
                    "ChakraTraceReplay::SetGpusPerServer: call it before SetTrace()");
    m_gpus = gpus;
}

std::string
ChakraTraceReplay::SetTrace(const ChakraTrace& trace)
{
    NS_LOG_FUNCTION(this << trace.GetRanks());
    NS_ABORT_MSG_IF(trace.GetRanks() < 2, "ChakraTraceReplay: the trace needs 2 ranks or more");
    m_trace = trace;
    SetHosts(trace.GetRanks());
    m_colls.clear();
    m_callFirstId.clear();
    auto messages = static_cast<uint32_t>(trace.GetMessages().size());
    uint32_t id = messages;
    for (const ChakraTrace::Call& call : trace.GetCalls())
    {
        Ptr<NcclCollective> c = CreateObject<NcclCollective>();
        c->SetAttribute("Operation", EnumValue(OperationOf(call.collective)));
        c->SetAttribute("Root", UintegerValue(call.root));
        if (call.collective == ChakraTrace::Collective::BARRIER)
        {
            // torch.distributed's barrier on NCCL: the all-reduce of one element, on one
            // channel, whose ring moves a message at every one of its steps.
            c->SetAttribute("DataBytes", UintegerValue(call.ranks.size()));
            c->SetAttribute("Channels", UintegerValue(1));
            c->SetAttribute("Algorithm", EnumValue(NcclCollective::RING));
        }
        else
        {
            c->SetAttribute("DataBytes", UintegerValue(call.bytes));
        }
        c->SetHosts(call.ranks);
        c->SetGpusPerServer(m_gpus);
        std::string error = c->Check();
        if (!error.empty())
        {
            uint32_t rank = call.ranks[0];
            return trace.GetFiles()[rank] + ": " + trace.Describe(rank, call.nodes[0]) + ": its " +
                   ChakraTrace::CollectiveName(call.collective) + " cannot run: " + error;
        }
        m_callFirstId.push_back(id);
        id += c->GetFlowCount();
        m_colls.push_back(c);
    }
    m_flowCount = id;
    return "";
}

uint32_t
ChakraTraceReplay::GetFlowCount() const
{
    return m_flowCount;
}

std::string
ChakraTraceReplay::GetName() const
{
    return "chakra";
}

std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>
ChakraTraceReplay::GetConnections() const
{
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> out;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
    for (const ChakraTrace::Message& m : m_trace.GetMessages())
    {
        if (seen.insert({m.src, m.dst, 0}).second)
        {
            out.emplace_back(m.src, m.dst, 0);
        }
    }
    for (const Ptr<NcclCollective>& c : m_colls)
    {
        for (const auto& q : c->GetConnections())
        {
            if (seen.insert(q).second)
            {
                out.push_back(q);
            }
        }
    }
    return out;
}

void
ChakraTraceReplay::DoStart()
{
    NS_LOG_FUNCTION(this);
    uint32_t ranks = m_trace.GetRanks();
    m_ranks.assign(ranks, RankState());
    m_nodesLeft = 0;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        const std::vector<ChakraTrace::Node>& nodes = m_trace.GetNodes(r);
        RankState& s = m_ranks[r];
        s.waiting.resize(nodes.size());
        s.dependants.resize(nodes.size());
        s.start.assign(nodes.size(), NanoSeconds(-1));
        s.end.assign(nodes.size(), NanoSeconds(-1));
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            s.waiting[i] = static_cast<uint32_t>(nodes[i].deps.size());
            for (uint32_t d : nodes[i].deps)
            {
                s.dependants[d].push_back(i);
            }
        }
        m_nodesLeft += nodes.size();
    }
    auto calls = m_trace.GetCalls().size();
    m_callReady.assign(calls, 0);
    m_callStart.assign(calls, NanoSeconds(-1));
    m_callEnd.assign(calls, NanoSeconds(-1));
    m_messageDone.assign(m_trace.GetMessages().size(), false);
    // In dependency order, so that ties start in the trace's order on every rank.
    for (uint32_t r = 0; r < ranks; ++r)
    {
        for (uint32_t i : m_trace.GetOrder(r))
        {
            if (m_ranks[r].waiting[i] == 0)
            {
                m_ready.emplace_back(r, i);
            }
        }
    }
    Drain();
    CheckComplete();
}

void
ChakraTraceReplay::Drain()
{
    if (m_draining)
    {
        return;
    }
    m_draining = true;
    // A work list, not recursion: a long chain of zero-time nodes must not grow the stack.
    for (size_t k = 0; k < m_ready.size(); ++k)
    {
        Issue(m_ready[k].first, m_ready[k].second);
    }
    m_ready.clear();
    m_draining = false;
}

void
ChakraTraceReplay::Issue(uint32_t rank, uint32_t node)
{
    NS_LOG_FUNCTION(this << rank << node);
    const ChakraTrace::Node& n = m_trace.GetNodes(rank)[node];
    m_ranks[rank].start[node] = Simulator::Now();
    switch (n.kind)
    {
    case ChakraTrace::Kind::METADATA:
        Complete(rank, node);
        return;
    case ChakraTrace::Kind::COMPUTE:
    case ChakraTrace::Kind::MEMORY:
        (n.cpu ? m_ranks[rank].cpuQueue : m_ranks[rank].gpuQueue).push_back(node);
        RunNext(rank, n.cpu);
        return;
    case ChakraTrace::Kind::SEND: {
        const ChakraTrace::Message& m = m_trace.GetMessages()[n.match];
        LaunchFlow(m.src,
                   m.dst,
                   m.bytes,
                   0,
                   0,
                   n.match,
                   MakeCallback(&ChakraTraceReplay::MessageDone, this).Bind(n.match));
        return;
    }
    case ChakraTrace::Kind::RECV:
        if (m_messageDone[n.match])
        {
            Complete(rank, node);
        }
        return;
    case ChakraTrace::Kind::COLLECTIVE: {
        uint32_t c = n.match;
        if (++m_callReady[c] == m_trace.GetCalls()[c].ranks.size())
        {
            m_callStart[c] = Simulator::Now();
            m_colls[c]->SetLauncher(MakeCallback(&ChakraTraceReplay::LaunchCallFlow, this).Bind(c));
            m_colls[c]->SetCompletedCallback(
                MakeCallback(&ChakraTraceReplay::CallDone, this).Bind(c));
            m_colls[c]->Start();
        }
        return;
    }
    }
}

void
ChakraTraceReplay::Complete(uint32_t rank, uint32_t node)
{
    NS_LOG_FUNCTION(this << rank << node);
    RankState& s = m_ranks[rank];
    NS_ASSERT(s.end[node].IsStrictlyNegative());
    s.end[node] = Simulator::Now();
    --m_nodesLeft;
    for (uint32_t d : s.dependants[node])
    {
        if (--s.waiting[d] == 0)
        {
            m_ready.emplace_back(rank, d);
        }
    }
    Drain();
}

void
ChakraTraceReplay::RunNext(uint32_t rank, bool cpu)
{
    RankState& s = m_ranks[rank];
    bool& busy = cpu ? s.cpuBusy : s.gpuBusy;
    std::deque<uint32_t>& queue = cpu ? s.cpuQueue : s.gpuQueue;
    if (busy || queue.empty())
    {
        return;
    }
    uint32_t node = queue.front();
    queue.pop_front();
    busy = true;
    // The compute interval of the exposed-communication figure begins when the node runs.
    s.start[node] = Simulator::Now();
    Time d = Duration(m_trace.GetNodes(rank)[node]);
    Simulator::Schedule(d, &ChakraTraceReplay::ComputeDone, this, rank, node, cpu);
}

Time
ChakraTraceReplay::Duration(const ChakraTrace::Node& n) const
{
    if (n.durationMicros > 0 || (m_peakFlops <= 0 && m_memoryBandwidth <= 0))
    {
        return MicroSeconds(n.durationMicros);
    }
    double seconds = 0;
    if (n.kind == ChakraTrace::Kind::COMPUTE && m_peakFlops > 0)
    {
        seconds = static_cast<double>(n.numOps) / m_peakFlops;
    }
    if (m_memoryBandwidth > 0)
    {
        seconds = std::max(seconds, static_cast<double>(n.tensorBytes) / m_memoryBandwidth);
    }
    return NanoSeconds(std::llround(seconds * 1e9));
}

void
ChakraTraceReplay::ComputeDone(uint32_t rank, uint32_t node, bool cpu)
{
    NS_LOG_FUNCTION(this << rank << node);
    (cpu ? m_ranks[rank].cpuBusy : m_ranks[rank].gpuBusy) = false;
    Complete(rank, node);
    RunNext(rank, cpu);
    CheckComplete();
}

void
ChakraTraceReplay::MessageDone(uint32_t m)
{
    NS_LOG_FUNCTION(this << m);
    const ChakraTrace::Message& msg = m_trace.GetMessages()[m];
    m_messageDone[m] = true;
    Complete(msg.src, msg.send);
    if (!m_ranks[msg.dst].start[msg.recv].IsStrictlyNegative())
    {
        Complete(msg.dst, msg.recv);
    }
}

void
ChakraTraceReplay::CallDone(uint32_t c)
{
    NS_LOG_FUNCTION(this << c);
    m_callEnd[c] = Simulator::Now();
    const ChakraTrace::Call& call = m_trace.GetCalls()[c];
    for (size_t k = 0; k < call.ranks.size(); ++k)
    {
        Complete(call.ranks[k], call.nodes[k]);
    }
    // The collective's last flow completion is still on the stack: its own completion check
    // runs before the replay's, which follows in the flow's callback (Collective::FlowDone).
}

void
ChakraTraceReplay::LaunchCallFlow(uint32_t c, const FlowSpec& flow, FlowCompletionCallback done)
{
    NS_LOG_FUNCTION(this << c << flow.id);
    LaunchFlow(flow.src,
               flow.dst,
               flow.bytes,
               flow.step,
               flow.subflow,
               m_callFirstId[c] + flow.id,
               done);
}

bool
ChakraTraceReplay::HasOtherWork() const
{
    return m_nodesLeft > 0;
}

Time
ChakraTraceReplay::GetNodeEnd(uint32_t rank, uint32_t node) const
{
    return m_ranks.at(rank).end.at(node);
}

Time
ChakraTraceReplay::GetNodeStart(uint32_t rank, uint32_t node) const
{
    return m_ranks.at(rank).start.at(node);
}

std::vector<Time>
ChakraTraceReplay::GetIterationTimes() const
{
    if (!IsComplete())
    {
        return {};
    }
    std::vector<Time> ends(m_trace.GetIterations(), GetStartTime());
    for (uint32_t r = 0; r < m_ranks.size(); ++r)
    {
        const std::vector<ChakraTrace::Node>& nodes = m_trace.GetNodes(r);
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            Time& e = ends[nodes[i].iteration];
            e = std::max(e, m_ranks[r].end[i]);
        }
    }
    std::vector<Time> times;
    Time previous = GetStartTime();
    for (Time e : ends)
    {
        e = std::max(e, previous);
        times.push_back(e - previous);
        previous = e;
    }
    return times;
}

std::vector<FlowStats::Collective::Call>
ChakraTraceReplay::GetCalls() const
{
    std::vector<FlowStats::Collective::Call> out;
    for (uint32_t c = 0; c < m_trace.GetCalls().size(); ++c)
    {
        const ChakraTrace::Call& call = m_trace.GetCalls()[c];
        FlowStats::Collective::Call rec;
        rec.name = call.name;
        rec.collective = ChakraTrace::CollectiveName(call.collective);
        rec.group = call.group;
        rec.ranks = static_cast<uint32_t>(call.ranks.size());
        rec.bytes = call.bytes;
        if (c < m_callStart.size())
        {
            rec.start = m_callStart[c];
            rec.finished = m_callEnd[c];
            rec.completed = !m_callEnd[c].IsStrictlyNegative();
        }
        out.push_back(rec);
    }
    return out;
}

Time
ChakraTraceReplay::Exposed(uint32_t rank) const
{
    const std::vector<ChakraTrace::Node>& nodes = m_trace.GetNodes(rank);
    const RankState& s = m_ranks[rank];
    std::vector<std::pair<Time, Time>> comm;
    std::vector<std::pair<Time, Time>> compute;
    for (uint32_t i = 0; i < nodes.size(); ++i)
    {
        if (s.end[i].IsStrictlyNegative())
        {
            continue;
        }
        ChakraTrace::Kind k = nodes[i].kind;
        if (k == ChakraTrace::Kind::SEND || k == ChakraTrace::Kind::RECV ||
            k == ChakraTrace::Kind::COLLECTIVE)
        {
            comm.emplace_back(s.start[i], s.end[i]);
        }
        else if ((k == ChakraTrace::Kind::COMPUTE || k == ChakraTrace::Kind::MEMORY) &&
                 !nodes[i].cpu)
        {
            compute.emplace_back(s.start[i], s.end[i]);
        }
    }
    // Communication time minus the part of it covered by GPU compute.
    Time exposed(0);
    std::vector<std::pair<Time, Time>> busy = Merge(compute);
    for (const auto& [a, b] : Merge(comm))
    {
        exposed += b - a;
        for (const auto& [c, d] : busy)
        {
            Time lo = std::max(a, c);
            Time hi = std::min(b, d);
            if (lo < hi)
            {
                exposed -= hi - lo;
            }
        }
    }
    return exposed;
}

std::vector<Time>
ChakraTraceReplay::GetExposedCommunication() const
{
    std::vector<Time> out;
    for (uint32_t r = 0; r < m_ranks.size(); ++r)
    {
        out.push_back(Exposed(r));
    }
    return out;
}

std::string
ChakraTraceReplay::DescribeUnfinished(uint32_t most) const
{
    std::string out;
    uint32_t listed = 0;
    for (uint32_t r = 0; r < m_ranks.size() && listed < most; ++r)
    {
        for (uint32_t i = 0; i < m_ranks[r].end.size() && listed < most; ++i)
        {
            if (m_ranks[r].end[i].IsStrictlyNegative() && !m_ranks[r].start[i].IsStrictlyNegative())
            {
                out += (listed++ ? "; " : "") + m_trace.Describe(r, i) + " (" +
                       ChakraTrace::KindName(m_trace.GetNodes(r)[i].kind) + ", started)";
            }
        }
    }
    return out;
}

void
ChakraTraceReplay::DoFillRecord(FlowStats::Collective& record) const
{
    record.iterations = GetIterationTimes();
    record.calls = GetCalls();
    if (IsComplete())
    {
        record.exposedComm = GetExposedCommunication();
    }
}

} // namespace ns3
