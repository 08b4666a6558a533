/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-receive-window.h"

#include "ns3/assert.h"

#include <algorithm>

namespace ns3
{

RdmaReceiveWindow::RdmaReceiveWindow()
    : m_mask(0),
      m_next(0),
      m_limit(UINT64_MAX),
      m_goBackN(false),
      m_gapNacked(false)
{
}

void
RdmaReceiveWindow::Reset(uint64_t first, uint64_t limit, bool goBackN)
{
    NS_ASSERT(limit >= 1);
    // The ring is allocated at the first placement: a queue pair that only sends never needs it.
    m_bits.clear();
    m_ring.clear();
    m_mask = 0;
    m_next = first;
    m_limit = limit;
    m_goBackN = goBackN;
    m_gapNacked = false;
}

void
RdmaReceiveWindow::Grow(uint64_t n)
{
    if (n <= m_ring.size())
    {
        return;
    }
    uint64_t size = std::max<uint64_t>(m_ring.size(), MIN_CAPACITY);
    while (size < n)
    {
        size *= 2;
    }
    std::vector<Slot> ring(size);
    std::vector<uint64_t> bits(size / 64, 0);
    for (uint64_t s = m_next; s < m_next + m_ring.size(); ++s)
    {
        if (Bit(s))
        {
            const uint64_t i = s & (size - 1);
            ring[i] = m_ring[s & m_mask];
            bits[i >> 6] |= uint64_t(1) << (i & 63);
        }
    }
    m_ring.swap(ring);
    m_bits.swap(bits);
    m_mask = size - 1;
}

void
RdmaReceiveWindow::Place(uint64_t seq, uint32_t bytes, uint8_t opCode)
{
    NS_ASSERT(seq >= m_next && seq < m_next + m_limit && !Has(seq));
    Grow(seq - m_next + 1);
    const uint64_t i = seq & m_mask;
    m_ring[i].bytes = bytes;
    m_ring[i].opCode = opCode;
    m_bits[i >> 6] |= uint64_t(1) << (i & 63);
    if (seq == m_next)
    {
        // The expected packet closes the gap: a later gap gets its own NACK.
        m_gapNacked = false;
    }
}

uint64_t
RdmaReceiveWindow::GetSackBitmap() const
{
    if (m_ring.empty())
    {
        return 0;
    }
    // The view starts mid-word in general and may run past the last word into the first.
    const uint64_t b = (m_next + 1) & m_mask;
    const uint64_t word = b >> 6;
    const uint64_t off = b & 63;
    uint64_t bits = m_bits[word] >> off;
    if (off != 0)
    {
        bits |= m_bits[(word + 1) % m_bits.size()] << (64 - off);
    }
    return bits;
}

} // namespace ns3
