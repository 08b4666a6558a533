/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ops-path-selector.h"

#include "reps-ns3-compat.h"

#include "ns3/enum.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OpsPathSelector");

NS_OBJECT_ENSURE_REGISTERED(OpsPathSelector);

TypeId
OpsPathSelector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::OpsPathSelector")
            .SetParent<PathSelector>()
            .SetGroupName("Reps")
            .AddConstructor<OpsPathSelector>()
            .AddAttribute(
                "Variant",
                "Uniform: a uniformly random EV per packet (the REPS paper's OPS); "
                "Deck: every EV of the entropy space once per round, in a shuffled "
                "order.",
                EnumValue(OpsPathSelector::UNIFORM),
                REPS_MAKE_ENUM_ACCESSOR(OpsPathSelector::Variant, &OpsPathSelector::m_variant),
                MakeEnumChecker(OpsPathSelector::UNIFORM,
                                "Uniform",
                                OpsPathSelector::DECK,
                                "Deck"));
    return tid;
}

OpsPathSelector::OpsPathSelector()
    : m_variant(UNIFORM)
{
    NS_LOG_FUNCTION(this);
}

OpsPathSelector::~OpsPathSelector()
{
    NS_LOG_FUNCTION(this);
}

std::string
OpsPathSelector::GetName() const
{
    return "ops";
}

void
OpsPathSelector::DoStart()
{
    NS_LOG_FUNCTION(this);
    // Halves wide enough that the Feistel domain 2^(2h) covers the entropy space.
    m_halfBits = 0;
    while ((uint64_t(1) << (2 * m_halfBits)) < GetEntropySpace())
    {
        ++m_halfBits;
    }
    m_position = 0;
}

uint32_t
OpsPathSelector::Permute(uint32_t index) const
{
    const uint32_t mask = (uint32_t(1) << m_halfBits) - 1;
    const uint32_t n = GetEntropySpace();
    // Cycle walking: a permutation of [0, 2^(2h)) applied until the value falls in [0, n)
    // is a permutation of [0, n); the domain is less than 4n, so few steps are needed.
    do
    {
        uint32_t left = index >> m_halfBits;
        uint32_t right = index & mask;
        for (uint32_t key : m_keys)
        {
            uint32_t f = (right ^ key) * 0x9E3779B1u;
            f ^= f >> 15;
            uint32_t next = left ^ (f & mask);
            left = right;
            right = next;
        }
        index = (left << m_halfBits) | right;
    } while (index >= n);
    return index;
}

uint16_t
OpsPathSelector::DoNextEntropy(bool retransmission, Choice& why)
{
    why = RANDOM;
    if (m_variant == UNIFORM)
    {
        return RandomEntropy();
    }
    if (m_position == 0)
    {
        for (uint32_t& key : m_keys)
        {
            key = RandomInteger(0xFFFFFFFFu);
        }
    }
    uint32_t ev = Permute(m_position);
    m_position = (m_position + 1 == GetEntropySpace()) ? 0 : m_position + 1;
    return static_cast<uint16_t>(GetEntropyBase() + ev);
}

} // namespace ns3
