/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "glb-port-selector.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GlbPortSelector");

NS_OBJECT_ENSURE_REGISTERED(GlbPortSelector);

TypeId
GlbPortSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GlbPortSelector")
            .SetParent<DlbPortSelector>()
            .SetGroupName("Reps")
            .AddConstructor<GlbPortSelector>()
            .AddAttribute("GlbAgingTime",
                          "A congestion entry older than this is ignored (1us to 10ms).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&GlbPortSelector::m_glbAging),
                          MakeTimeChecker(MicroSeconds(1), MilliSeconds(10)));
    return tid;
}

GlbPortSelector::GlbPortSelector()
    : m_glbAging(MicroSeconds(50)),
      m_glbLeaf(UINT32_MAX),
      m_feedback(0)
{
    NS_LOG_FUNCTION(this);
}

GlbPortSelector::~GlbPortSelector()
{
    NS_LOG_FUNCTION(this);
}

uint16_t
GlbPortSelector::EncodeGlb(const GlbFields& f)
{
    return static_cast<uint16_t>(((f.upLink & 0x1f) << 11) | ((f.metric & 0x7) << 8) |
                                 ((f.fbUpLink & 0x1f) << 3) | (f.fbMetric & 0x7));
}

GlbPortSelector::GlbFields
GlbPortSelector::DecodeGlb(uint16_t id)
{
    GlbFields f;
    f.upLink = (id >> 11) & 0x1f;
    f.metric = (id >> 8) & 0x7;
    f.fbUpLink = (id >> 3) & 0x1f;
    f.fbMetric = id & 0x7;
    return f;
}

void
GlbPortSelector::SetTopology(uint32_t leaf, const std::vector<uint32_t>& hostLeaf, uint32_t nLeaves)
{
    NS_LOG_FUNCTION(this << leaf << nLeaves);
    m_glbLeaf = leaf;
    m_hostLeaf = hostLeaf;
    m_toLeaf.assign(static_cast<size_t>(nLeaves) * GLB_NONE, GlbEntry());
    m_fromLeaf.assign(static_cast<size_t>(nLeaves) * GLB_NONE, GlbEntry());
    m_fbNext.assign(nLeaves, 0);
}

uint32_t
GlbPortSelector::GetGlbMetric(uint32_t port) const
{
    return GetQuality(port) * GLB_LEVELS / GetQualityLevels();
}

int32_t
GlbPortSelector::ReadGlb(const std::vector<GlbEntry>& table, uint32_t leaf, uint32_t upLink) const
{
    if (upLink >= GLB_NONE || static_cast<size_t>(leaf) * GLB_NONE + upLink >= table.size())
    {
        return -1;
    }
    const GlbEntry& e = table[static_cast<size_t>(leaf) * GLB_NONE + upLink];
    int64_t now = Simulator::Now().GetNanoSeconds();
    if (!e.valid || now - e.atNs > m_glbAging.GetNanoSeconds())
    {
        return -1;
    }
    return e.metric;
}

int32_t
GlbPortSelector::GetCongestionToLeaf(uint32_t dstLeaf, uint32_t upLink) const
{
    return ReadGlb(m_toLeaf, dstLeaf, upLink);
}

int32_t
GlbPortSelector::GetCongestionFromLeaf(uint32_t srcLeaf, uint32_t upLink) const
{
    return ReadGlb(m_fromLeaf, srcLeaf, upLink);
}

uint64_t
GlbPortSelector::GetFeedbackCount() const
{
    return m_feedback;
}

uint32_t
GlbPortSelector::UpToLeaf(uint32_t n, const Flow& flow) const
{
    bool up = m_glbLeaf != UINT32_MAX && flow.srcHost < m_hostLeaf.size() &&
              flow.dstHost < m_hostLeaf.size() && m_hostLeaf[flow.srcHost] == m_glbLeaf &&
              m_hostLeaf[flow.dstHost] != m_glbLeaf && n <= GLB_NONE;
    return up ? m_hostLeaf[flow.dstHost] : UINT32_MAX;
}

int64_t
GlbPortSelector::FlowletLevel(const uint32_t* ports, uint32_t n, uint32_t k, const Flow& flow) const
{
    uint32_t dstLeaf = UpToLeaf(n, flow);
    if (dstLeaf == UINT32_MAX)
    {
        return DlbPortSelector::FlowletLevel(ports, n, k, flow);
    }
    // The worst hop of the path: this up-link, or what the destination leaf saw.
    return std::max<int64_t>(GetGlbMetric(ports[k]), ReadGlb(m_toLeaf, dstLeaf, k));
}

GlbPortSelector::GlbFields
GlbPortSelector::SourceFields(const uint32_t* ports, uint32_t n, uint32_t outPort, uint32_t dstLeaf)
{
    GlbFields f;
    uint32_t pos = std::find(ports, ports + n, outPort) - ports;
    if (pos < GLB_NONE && n <= GLB_NONE)
    {
        f.upLink = pos;
        f.metric = GetGlbMetric(outPort);
    }
    uint8_t& next = m_fbNext[dstLeaf];
    for (uint32_t k = 0; k < GLB_NONE; k++)
    {
        uint32_t u = (next + k) % GLB_NONE;
        int32_t m = ReadGlb(m_fromLeaf, dstLeaf, u);
        if (m >= 0)
        {
            f.fbUpLink = u;
            f.fbMetric = m;
            next = (u + 1) % GLB_NONE;
            break;
        }
    }
    return f;
}

void
GlbPortSelector::DoForward(Ipv4Header& ip,
                           const uint32_t* ports,
                           uint32_t n,
                           uint32_t outPort,
                           const Flow& flow)
{
    // The fields ride in the Identification of unfragmented packets only.
    if (ip.GetFragmentOffset() != 0 || !ip.IsLastFragment() || flow.srcHost >= m_hostLeaf.size() ||
        flow.dstHost >= m_hostLeaf.size())
    {
        return;
    }
    uint32_t srcLeaf = m_hostLeaf[flow.srcHost];
    uint32_t dstLeaf = m_hostLeaf[flow.dstHost];
    if (srcLeaf == dstLeaf)
    {
        return;
    }
    if (m_glbLeaf != UINT32_MAX && srcLeaf == m_glbLeaf)
    {
        // Source leaf: a fresh header.
        ip.SetIdentification(EncodeGlb(SourceFields(ports, n, outPort, dstLeaf)));
        return;
    }
    GlbFields f = DecodeGlb(ip.GetIdentification());
    if (m_glbLeaf != UINT32_MAX && dstLeaf == m_glbLeaf)
    {
        // Destination leaf: learn the path's congestion and the piggybacked feedback.
        int64_t now = Simulator::Now().GetNanoSeconds();
        if (f.upLink < GLB_NONE)
        {
            GlbEntry& e = m_fromLeaf[static_cast<size_t>(srcLeaf) * GLB_NONE + f.upLink];
            e.valid = true;
            e.atNs = now;
            e.metric = f.metric;
        }
        if (f.fbUpLink < GLB_NONE)
        {
            GlbEntry& e = m_toLeaf[static_cast<size_t>(srcLeaf) * GLB_NONE + f.fbUpLink];
            e.valid = true;
            e.atNs = now;
            e.metric = f.fbMetric;
            m_feedback++;
        }
        return;
    }
    // A switch between the leaves: the worst hop so far.
    if (f.upLink < GLB_NONE)
    {
        f.metric = std::max(f.metric, GetGlbMetric(outPort));
        ip.SetIdentification(EncodeGlb(f));
    }
}

} // namespace ns3
