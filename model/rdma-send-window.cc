/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-send-window.h"

#include <algorithm>

namespace ns3
{

RdmaSendWindow::RdmaSendWindow()
    : m_mask(0),
      m_una(0),
      m_high(0),
      m_limit(UINT64_MAX),
      m_inflight(0),
      m_lostBytes(0),
      m_lostPackets(0)
{
}

void
RdmaSendWindow::Reset(uint64_t first, uint64_t limit)
{
    NS_ASSERT(limit >= 1);
    m_ring.assign(INITIAL_CAPACITY, Slot());
    m_mask = INITIAL_CAPACITY - 1;
    m_una = first;
    m_high = first;
    m_limit = limit;
    m_inflight = 0;
    m_lostBytes = 0;
    m_lostPackets = 0;
    m_retx.clear();
}

void
RdmaSendWindow::Grow(uint64_t n)
{
    if (n <= m_ring.size())
    {
        return;
    }
    uint64_t size = std::max<uint64_t>(m_ring.size(), INITIAL_CAPACITY);
    while (size < n)
    {
        size *= 2;
    }
    std::vector<Slot> ring(size);
    for (uint64_t s = m_una; s < m_high; ++s)
    {
        ring[s & (size - 1)] = m_ring[s & m_mask];
    }
    m_ring.swap(ring);
    m_mask = size - 1;
}

uint64_t
RdmaSendWindow::Append(uint32_t bytes, uint8_t opCode)
{
    NS_ASSERT(!IsFull());
    Grow(m_high - m_una + 1);
    const uint64_t seq = m_high++;
    Slot& slot = At(seq);
    slot.bytes = bytes;
    slot.opCode = opCode;
    return seq;
}

uint32_t
RdmaSendWindow::AckBelow(uint64_t cum)
{
    uint32_t acked = 0;
    for (uint64_t s = m_una; s < cum; ++s)
    {
        acked += MarkAcked(s);
    }
    return acked;
}

uint32_t
RdmaSendWindow::AckSack(uint64_t cum, uint64_t bitmap)
{
    uint32_t acked = 0;
    while (bitmap != 0)
    {
        const int bit = __builtin_ctzll(bitmap);
        bitmap &= bitmap - 1;
        acked += MarkAcked(cum + 1 + bit);
    }
    return acked;
}

uint64_t
RdmaSendWindow::AdvanceUna()
{
    const uint64_t before = m_una;
    while (m_una < m_high && At(m_una).state == State::ACKED)
    {
        At(m_una).state = State::FREE;
        ++m_una;
    }
    return m_una - before;
}

bool
RdmaSendWindow::PopRetransmission(uint64_t& seq)
{
    while (!m_retx.empty())
    {
        const uint64_t s = m_retx.front();
        m_retx.pop_front();
        if (Contains(s) && At(s).state == State::LOST)
        {
            seq = s;
            return true;
        }
    }
    return false;
}

void
RdmaSendWindow::OrderRetransmissions()
{
    std::sort(m_retx.begin(), m_retx.end());
    m_retx.erase(std::unique(m_retx.begin(), m_retx.end()), m_retx.end());
}

} // namespace ns3
