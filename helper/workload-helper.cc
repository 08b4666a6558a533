/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/shuffle.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadHelper");

WorkloadHelper::WorkloadHelper(uint32_t hosts)
    : m_hosts(hosts),
      m_start(Seconds(0)),
      m_jitter(Seconds(0)),
      m_nextId(0),
      m_sizeStream(-1)
{
    NS_LOG_FUNCTION(this << hosts);
    NS_ABORT_MSG_IF(hosts < 2, "WorkloadHelper: the number of hosts must be >= 2, got " << hosts);
    m_uniform = CreateObject<UniformRandomVariable>();
    m_interval = CreateObject<ExponentialRandomVariable>();
}

uint32_t
WorkloadHelper::GetHosts() const
{
    return m_hosts;
}

void
WorkloadHelper::SetStartTime(Time start)
{
    NS_LOG_FUNCTION(this << start);
    NS_ABORT_MSG_IF(start.IsStrictlyNegative(), "WorkloadHelper: start time must be >= 0");
    m_start = start;
}

void
WorkloadHelper::SetStartJitter(Time jitter)
{
    NS_LOG_FUNCTION(this << jitter);
    NS_ABORT_MSG_IF(jitter.IsStrictlyNegative(), "WorkloadHelper: start jitter must be >= 0");
    m_jitter = jitter;
}

int64_t
WorkloadHelper::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    m_interval->SetStream(stream + 1);
    m_sizeStream = stream + 2;
    if (m_sizes)
    {
        m_sizes->SetStream(m_sizeStream);
    }
    return 3;
}

FlowSpec
WorkloadHelper::Make(uint32_t src, uint32_t dst, uint64_t bytes, const char* tag)
{
    NS_ASSERT(src < m_hosts && dst < m_hosts && src != dst);
    FlowSpec f;
    f.id = m_nextId++;
    f.src = src;
    f.dst = dst;
    f.bytes = bytes;
    f.start = m_start;
    if (m_jitter.IsStrictlyPositive())
    {
        f.start += Seconds(m_uniform->GetValue(0.0, m_jitter.GetSeconds()));
    }
    f.tag = tag;
    return f;
}

uint32_t
WorkloadHelper::OtherHost(uint32_t src)
{
    // Uniform over the N-1 hosts other than src.
    uint32_t dst = m_uniform->GetInteger(0, m_hosts - 2);
    return dst >= src ? dst + 1 : dst;
}

std::vector<uint32_t>
WorkloadHelper::Shuffle(uint32_t n)
{
    NS_LOG_FUNCTION(this << n);
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    ns3::Shuffle(order, m_uniform);
    return order;
}

std::vector<FlowSpec>
WorkloadHelper::Permutation(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "WorkloadHelper: flow size must be >= 1 byte");
    // Rejection sampling: a uniform permutation, redrawn until it has no fixed point, is a
    // uniform derangement (about e draws on average).
    std::vector<uint32_t> dst;
    bool fixedPoint = true;
    while (fixedPoint)
    {
        dst = Shuffle(m_hosts);
        fixedPoint = false;
        for (uint32_t i = 0; i < m_hosts && !fixedPoint; ++i)
        {
            fixedPoint = dst[i] == i;
        }
    }
    std::vector<FlowSpec> flows;
    flows.reserve(m_hosts);
    for (uint32_t i = 0; i < m_hosts; ++i)
    {
        flows.push_back(Make(i, dst[i], bytes, "permutation"));
    }
    return flows;
}

std::vector<FlowSpec>
WorkloadHelper::Tornado(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "WorkloadHelper: flow size must be >= 1 byte");
    std::vector<FlowSpec> flows;
    flows.reserve(m_hosts);
    for (uint32_t i = 0; i < m_hosts; ++i)
    {
        flows.push_back(Make(i, (i + m_hosts / 2) % m_hosts, bytes, "tornado"));
    }
    return flows;
}

std::vector<FlowSpec>
WorkloadHelper::Incast(uint32_t senders, uint32_t dst, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << senders << dst << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "WorkloadHelper: flow size must be >= 1 byte");
    NS_ABORT_MSG_IF(dst >= m_hosts,
                    "WorkloadHelper: incast receiver " << dst << " must be < " << m_hosts);
    NS_ABORT_MSG_IF(senders < 1 || senders > m_hosts - 1,
                    "WorkloadHelper: incast senders must lie in [1, " << m_hosts - 1 << "], got "
                                                                      << senders);
    // The first `senders` hosts of a random order of the others.
    std::vector<uint32_t> order = Shuffle(m_hosts - 1);
    std::vector<FlowSpec> flows;
    flows.reserve(senders);
    for (uint32_t k = 0; k < senders; ++k)
    {
        uint32_t src = order[k] >= dst ? order[k] + 1 : order[k];
        flows.push_back(Make(src, dst, bytes, "incast"));
    }
    return flows;
}

std::vector<FlowSpec>
WorkloadHelper::Pair(uint64_t bytes, bool bidirectional)
{
    NS_LOG_FUNCTION(this << bytes << bidirectional);
    NS_ABORT_MSG_IF(bytes == 0, "WorkloadHelper: flow size must be >= 1 byte");
    const uint32_t last = m_hosts - 1;
    std::vector<FlowSpec> flows;
    flows.push_back(Make(0, last, bytes, bidirectional ? "bidir" : "single"));
    if (bidirectional)
    {
        flows.push_back(Make(last, 0, bytes, "bidir"));
    }
    return flows;
}

std::vector<FlowSpec>
WorkloadHelper::OutcastIncast(uint32_t senders, uint32_t outcastFlows, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << senders << outcastFlows << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "WorkloadHelper: flow size must be >= 1 byte");
    const uint64_t needed = 1 + static_cast<uint64_t>(senders) +
                            static_cast<uint64_t>(senders > 0 ? senders - 1 : 0) * outcastFlows;
    NS_ABORT_MSG_IF(senders < 1 || needed > m_hosts,
                    "WorkloadHelper: outcast-incast of "
                        << senders << " senders with " << outcastFlows << " outcast flows each "
                        << "needs " << needed << " hosts, have " << m_hosts);
    std::vector<FlowSpec> flows;
    uint32_t next = senders + 1;
    for (uint32_t s = 1; s <= senders; ++s)
    {
        flows.push_back(Make(s, 0, bytes, "incast"));
        for (uint32_t k = 0; s > 1 && k < outcastFlows; ++k)
        {
            flows.push_back(Make(s, next++, bytes, "outcast"));
        }
    }
    return flows;
}

std::vector<FlowSpec>
WorkloadHelper::AllToAll(uint64_t bytesPerPeer, uint32_t flowsPerPeer)
{
    NS_LOG_FUNCTION(this << bytesPerPeer << flowsPerPeer);
    NS_ABORT_MSG_IF(flowsPerPeer < 1, "WorkloadHelper: flows per peer must be >= 1");
    NS_ABORT_MSG_IF(bytesPerPeer < flowsPerPeer,
                    "WorkloadHelper: bytes per peer ("
                        << bytesPerPeer << ") must be >= flows per peer (" << flowsPerPeer << ")");
    std::vector<FlowSpec> flows;
    flows.reserve(static_cast<size_t>(m_hosts) * (m_hosts - 1) * flowsPerPeer);
    for (uint32_t i = 0; i < m_hosts; ++i)
    {
        // Peers in the shifted order i+1, i+2, ... so that a launcher that starts flows in
        // list order does not make every host hit host 0 first.
        for (uint32_t shift = 1; shift < m_hosts; ++shift)
        {
            uint32_t j = (i + shift) % m_hosts;
            for (uint32_t q = 0; q < flowsPerPeer; ++q)
            {
                uint64_t part = bytesPerPeer / flowsPerPeer + (q < bytesPerPeer % flowsPerPeer);
                FlowSpec f = Make(i, j, part, "alltoall");
                f.subflow = q;
                flows.push_back(f);
            }
        }
    }
    return flows;
}

std::vector<FlowSpec>
WorkloadHelper::Poisson(const FlowSizeCdf& sizes, double load, DataRate hostRate, Time duration)
{
    NS_LOG_FUNCTION(this << load << hostRate << duration);
    NS_ABORT_MSG_UNLESS(sizes.IsValid(), "WorkloadHelper: no flow-size distribution loaded");
    NS_ABORT_MSG_IF(!(load > 0 && load <= 1),
                    "WorkloadHelper: load must lie in (0, 1], got " << load);
    NS_ABORT_MSG_IF(hostRate.GetBitRate() == 0, "WorkloadHelper: host rate must be > 0");
    NS_ABORT_MSG_IF(!duration.IsStrictlyPositive(), "WorkloadHelper: duration must be > 0");
    if (!m_sizes || m_sizesCdf.size() != sizes.GetPoints().size() ||
        !std::equal(m_sizesCdf.begin(),
                    m_sizesCdf.end(),
                    sizes.GetPoints().begin(),
                    [](const FlowSizeCdf::Point& a, const FlowSizeCdf::Point& b) {
                        return a.bytes == b.bytes && a.cumulative == b.cumulative;
                    }))
    {
        m_sizes = sizes.MakeRandomVariable();
        m_sizesCdf = sizes.GetPoints();
        if (m_sizeStream >= 0)
        {
            m_sizes->SetStream(m_sizeStream);
        }
    }
    double mean = sizes.GetMean();
    NS_ABORT_MSG_IF(mean <= 0, "WorkloadHelper: mean flow size must be > 0");
    double flowsPerSecond = load * hostRate.GetBitRate() / (8.0 * mean);
    m_interval->SetAttribute("Mean", DoubleValue(1.0 / flowsPerSecond));
    m_interval->SetAttribute("Bound", DoubleValue(0.0));

    std::vector<FlowSpec> flows;
    double end = duration.GetSeconds();
    for (uint32_t src = 0; src < m_hosts; ++src)
    {
        double t = m_interval->GetValue();
        while (t < end)
        {
            uint64_t bytes = std::max<uint64_t>(1, std::llround(m_sizes->GetValue()));
            uint32_t dst = OtherHost(src);
            FlowSpec f = Make(src, dst, bytes, "poisson");
            f.start += Seconds(t);
            flows.push_back(f);
            t += m_interval->GetValue();
        }
    }
    std::stable_sort(flows.begin(), flows.end(), [](const FlowSpec& a, const FlowSpec& b) {
        return a.start < b.start;
    });
    // Number the flows in order of start time (they were numbered per host).
    uint32_t id = m_nextId - static_cast<uint32_t>(flows.size());
    for (FlowSpec& f : flows)
    {
        f.id = id++;
    }
    return flows;
}

std::vector<FlowSpec>
WorkloadHelper::Background(double fraction, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << fraction << bytes);
    NS_ABORT_MSG_IF(!(fraction >= 0 && fraction <= 1),
                    "WorkloadHelper: background fraction must lie in [0, 1], got " << fraction);
    NS_ABORT_MSG_IF(bytes == 0, "WorkloadHelper: flow size must be >= 1 byte");
    uint32_t count = static_cast<uint32_t>(std::lround(fraction * m_hosts));
    std::vector<uint32_t> order = Shuffle(m_hosts);
    std::vector<FlowSpec> flows;
    flows.reserve(count);
    for (uint32_t k = 0; k < count; ++k)
    {
        uint32_t src = order[k];
        FlowSpec f = Make(src, OtherHost(src), bytes, "background");
        f.background = true;
        flows.push_back(f);
    }
    return flows;
}

} // namespace ns3
