/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_SKIP_ROUND_ROBIN_PATH_SELECTOR_H
#define REPS_SKIP_ROUND_ROBIN_PATH_SELECTOR_H

/**
 * \file
 * \ingroup reps
 * The path selector of examples/reps-custom-selector.cc and of the manual's chapter "Writing
 * your own path selector", written outside the module as a user would: the example runs it on
 * a fabric, and the reps-experiment test suite checks its rule and runs it too.
 */

#include "ns3/path-selector.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <set>
#include <string>

namespace ns3
{

/**
 * \ingroup reps
 * Round-robin over the EVs [EntropyBase, EntropyBase + Paths), skipping once every EV whose
 * last feedback was bad (ECN, NACK or LOST); a good ACK clears the mark.
 */
class SkipRoundRobinPathSelector : public PathSelector
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::SkipRoundRobinPathSelector")
                .SetParent<PathSelector>()
                .SetGroupName("Reps")
                .AddConstructor<SkipRoundRobinPathSelector>()
                .AddAttribute("Paths",
                              "Number of EVs taken in turn (at most EntropySpace are used).",
                              UintegerValue(32),
                              MakeUintegerAccessor(&SkipRoundRobinPathSelector::m_paths),
                              MakeUintegerChecker<uint32_t>(1, 65536));
        return tid;
    }

    std::string GetName() const override
    {
        return "rrskip";
    }

  protected:
    uint16_t DoNextEntropy(bool retransmission, Choice& why) override
    {
        why = ROUND_ROBIN;
        const uint32_t n = std::min(m_paths, GetEntropySpace());
        while (true) // ends: every skip erases one mark
        {
            auto ev = static_cast<uint16_t>(GetEntropyBase() + m_next % n);
            m_next = (m_next + 1) % n;
            if (m_bad.erase(ev) == 0)
            {
                return ev;
            }
        }
    }

    void DoFeedback(const Feedback& feedback) override
    {
        if (feedback.kind == Feedback::GOOD)
        {
            m_bad.erase(feedback.ev);
        }
        else
        {
            m_bad.insert(feedback.ev);
        }
    }

  private:
    uint32_t m_paths{32};     //!< Paths attribute.
    uint32_t m_next{0};       //!< Position of the next EV in the round.
    std::set<uint16_t> m_bad; //!< EVs to skip once.
};

NS_OBJECT_ENSURE_REGISTERED(SkipRoundRobinPathSelector);

} // namespace ns3

#endif /* REPS_SKIP_ROUND_ROBIN_PATH_SELECTOR_H */
