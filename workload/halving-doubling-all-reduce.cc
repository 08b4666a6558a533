/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "halving-doubling-all-reduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HalvingDoublingAllReduce");

NS_OBJECT_ENSURE_REGISTERED(HalvingDoublingAllReduce);

TypeId
HalvingDoublingAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HalvingDoublingAllReduce")
                            .SetParent<SteppedCollective>()
                            .SetGroupName("Reps")
                            .AddConstructor<HalvingDoublingAllReduce>();
    return tid;
}

HalvingDoublingAllReduce::HalvingDoublingAllReduce()
{
    NS_LOG_FUNCTION(this);
}

HalvingDoublingAllReduce::~HalvingDoublingAllReduce()
{
    NS_LOG_FUNCTION(this);
}

std::string
HalvingDoublingAllReduce::GetName() const
{
    return "butterfly";
}

bool
HalvingDoublingAllReduce::IsValidSize(uint32_t n)
{
    return n >= 2 && (n & (n - 1)) == 0;
}

void
HalvingDoublingAllReduce::CheckSize() const
{
    NS_ABORT_MSG_UNLESS(IsValidSize(GetSize()),
                        "HalvingDoublingAllReduce: the number of hosts ("
                            << GetSize() << ") must be a power of two: 2, 4, 8, 16, ...");
    SteppedCollective::CheckSize();
}

uint32_t
HalvingDoublingAllReduce::GetLog2() const
{
    uint32_t m = 0;
    while ((1U << (m + 1)) <= GetSize())
    {
        ++m;
    }
    return m;
}

uint32_t
HalvingDoublingAllReduce::GetSteps() const
{
    return 2 * GetLog2();
}

uint32_t
HalvingDoublingAllReduce::GetDistance(uint32_t k) const
{
    uint32_t m = GetLog2();
    return k < m ? GetSize() >> (k + 1) : 1U << (k - m);
}

uint32_t
HalvingDoublingAllReduce::GetPeer(uint32_t i, uint32_t k) const
{
    return i ^ GetDistance(k);
}

uint64_t
HalvingDoublingAllReduce::GetStepBytes(uint32_t i, uint32_t k) const
{
    uint32_t d = GetDistance(k);
    // Reduce-scatter: the aligned block of d chunks that holds the partner's own chunk;
    // all-gather: the aligned block of d chunks that holds this host's own chunk.
    uint32_t owner = k < GetLog2() ? GetPeer(i, k) : i;
    return GetChunkRangeBytes(owner / d * d, d);
}

uint32_t
HalvingDoublingAllReduce::GetInputSource(uint32_t i, uint32_t k) const
{
    return GetPeer(i, k - 1);
}

} // namespace ns3
