/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_DLB_FLOWLET_TABLE_H
#define REPS_DLB_FLOWLET_TABLE_H

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup reps
 * The flowlet table of a switch doing dynamic load balancing (DLB) as a plain C++ type: no
 * simulator, no hidden randomness; times are plain integers (nanoseconds).
 */

namespace ns3
{

/**
 * \ingroup reps
 * A direct-mapped flowlet table, as the flowset tables of data-center switch ASICs: the flow
 * hash of a packet (the 5-tuple with the entropy value) picks one bucket (hash modulo the
 * number of buckets) and the whole hash is kept as a tag. A bucket holds one flowlet: the
 * egress port it was given and when its last packet passed.
 *
 * Lookup() classifies a packet:
 * - LIVE: the bucket holds this flow's flowlet and its last packet is at most the timeout
 *   old: the packet takes the flowlet's port (and refreshes it);
 * - NEW: the bucket is empty, or its flowlet (of this flow or another) has been idle longer
 *   than the timeout: the caller picks a port and calls Start();
 * - COLLISION: the bucket holds a live flowlet of another flow: the caller falls back to the
 *   flow hash and the bucket is left alone.
 *
 * One bucket is 16 bytes here (tag 4, port 2, valid flag, time 8); a switch ASIC keeps a few
 * bits of time and port per bucket.
 */
class DlbFlowletTable
{
  public:
    /// How Lookup() classified a packet.
    enum class Result : uint8_t
    {
        LIVE,      //!< Part of a live flowlet: use GetPort().
        NEW,       //!< Starts a new flowlet: pick a port and call Start().
        COLLISION, //!< The bucket belongs to a live flowlet of another flow.
    };

    /// What Lookup() found.
    struct Lookup
    {
        Result result{Result::NEW}; //!< The classification.
        uint32_t bucket{0};         //!< The bucket of the flow.
        uint16_t port{0};           //!< LIVE: the flowlet's port; NEW: the port it had before.
        bool hadPort{false};        //!< NEW: the same flow had a port before (an aged flowlet).
    };

    /**
     * \param buckets number of buckets (at least 1)
     */
    explicit DlbFlowletTable(uint32_t buckets = 1)
        : m_buckets(buckets == 0 ? 1 : buckets)
    {
    }

    /**
     * Classify a packet; a LIVE packet refreshes its flowlet's time.
     * \param hash the packet's flow hash
     * \param nowNs the time now (nanoseconds)
     * \param timeoutNs the flowlet timeout: a larger gap between two packets starts a new flowlet
     * \return the classification
     */
    Lookup Classify(uint32_t hash, int64_t nowNs, int64_t timeoutNs)
    {
        Lookup l;
        l.bucket = hash % m_buckets.size();
        Bucket& b = m_buckets[l.bucket];
        bool live = b.valid && nowNs - b.lastNs <= timeoutNs;
        if (live && b.tag == hash)
        {
            b.lastNs = nowNs;
            l.result = Result::LIVE;
            l.port = b.port;
            return l;
        }
        if (live)
        {
            l.result = Result::COLLISION;
            return l;
        }
        l.result = Result::NEW;
        l.hadPort = b.valid && b.tag == hash;
        l.port = b.port;
        return l;
    }

    /**
     * Start a flowlet in a bucket that Classify() reported NEW.
     * \param bucket the bucket
     * \param hash the flow hash
     * \param port the port chosen
     * \param nowNs the time now (nanoseconds)
     */
    void Start(uint32_t bucket, uint32_t hash, uint16_t port, int64_t nowNs)
    {
        Bucket& b = m_buckets[bucket];
        b.valid = true;
        b.tag = hash;
        b.port = port;
        b.lastNs = nowNs;
    }

    /**
     * \param nowNs the time now (nanoseconds)
     * \param timeoutNs the flowlet timeout
     * \return the number of live flowlets
     */
    uint32_t CountLive(int64_t nowNs, int64_t timeoutNs) const
    {
        uint32_t n = 0;
        for (const Bucket& b : m_buckets)
        {
            n += (b.valid && nowNs - b.lastNs <= timeoutNs) ? 1 : 0;
        }
        return n;
    }

    /// \return the number of buckets
    uint32_t GetSize() const
    {
        return m_buckets.size();
    }

  private:
    /// One flowlet.
    struct Bucket
    {
        int64_t lastNs{0}; //!< When its last packet passed.
        uint32_t tag{0};   //!< The whole flow hash.
        uint16_t port{0};  //!< Its egress port.
        bool valid{false}; //!< Whether it ever held a flowlet.
    };

    static_assert(sizeof(Bucket) <= 16, "DlbFlowletTable: a bucket fits 16 bytes");

    std::vector<Bucket> m_buckets; //!< The buckets.
};

} // namespace ns3

#endif /* REPS_DLB_FLOWLET_TABLE_H */
