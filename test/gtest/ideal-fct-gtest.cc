/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of IdealFct: the closed form against a packet-by-packet store-and-forward
 * pipeline, and the figures of simple paths.
 */

#include "ns3/ideal-fct.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>

using ns3::DataRate;
using ns3::IdealFct;
using ns3::NanoSeconds;
using ns3::Time;

namespace
{

/**
 * The same message, packet by packet: packet k leaves hop h when it has arrived there and
 * hop h has sent packet k - 1; its ACK comes back store and forward.
 */
double
Pipeline(const std::vector<IdealFct::Hop>& hops, uint64_t bytes, const IdealFct::Packets& p)
{
    const uint64_t n = std::max<uint64_t>(1, (bytes + p.payload - 1) / p.payload);
    std::vector<double> done(hops.size(), 0.0); // when hop h finished its last packet
    double arrival = 0;
    for (uint64_t k = 0; k < n; ++k)
    {
        const uint64_t size = (k + 1 < n ? p.payload : bytes - (n - 1) * p.payload) + p.header;
        double at = 0; // ready at the sender at time 0
        for (size_t h = 0; h < hops.size(); ++h)
        {
            const double start = std::max(at, done[h]);
            done[h] = start + size * 8.0 / hops[h].rate.GetBitRate();
            at = done[h] + hops[h].delay.GetSeconds();
        }
        arrival = at;
    }
    for (const IdealFct::Hop& hop : hops)
    {
        arrival += p.ack * 8.0 / hop.rate.GetBitRate() + hop.delay.GetSeconds();
    }
    return arrival;
}

} // namespace

TEST(IdealFct, OneHop)
{
    IdealFct::Packets p{1000, 50, 60};
    std::vector<IdealFct::Hop> one{{DataRate("8Gbps"), NanoSeconds(100)}}; // 1 byte per ns
    // 2,500 bytes: packets of 1,050, 1,050 and 550 bytes, then the ACK.
    EXPECT_EQ(IdealFct::Compute(one, 2500, p), NanoSeconds(1050 + 1050 + 550 + 100 + 60 + 100));
    EXPECT_EQ(IdealFct::Compute(one, 1, p), NanoSeconds(51 + 100 + 60 + 100));
    EXPECT_EQ(IdealFct::Compute(one, 0, p), IdealFct::Compute(one, 1, p));
}

TEST(IdealFct, FirstPacketOverEveryHopTheRestAtTheBottleneck)
{
    IdealFct::Packets p{1000, 0, 0};
    // 1 byte per ns, then a 4x slower hop, then 1 byte per ns; no delays.
    std::vector<IdealFct::Hop> hops{{DataRate("8Gbps"), Time(0)},
                                    {DataRate("2Gbps"), Time(0)},
                                    {DataRate("8Gbps"), Time(0)}};
    // Ten full packets: 1,000 ns to the slow hop, 10 x 4,000 ns there, 1,000 ns after.
    EXPECT_EQ(IdealFct::Compute(hops, 10000, p), NanoSeconds(1000 + 40000 + 1000));
}

TEST(IdealFct, MatchesThePacketPipeline)
{
    std::mt19937 rng(7);
    const char* rates[] = {"100Gbps", "200Gbps", "400Gbps", "800Gbps", "25Gbps"};
    for (int trial = 0; trial < 2000; ++trial)
    {
        std::vector<IdealFct::Hop> hops(1 + rng() % 6);
        for (IdealFct::Hop& h : hops)
        {
            h.rate = DataRate(rates[rng() % 5]);
            h.delay = NanoSeconds(rng() % 2000);
        }
        IdealFct::Packets p{static_cast<uint32_t>(256 + rng() % 9000),
                            static_cast<uint32_t>(rng() % 100),
                            static_cast<uint32_t>(rng() % 100)};
        const uint64_t sizes[] = {1, p.payload - 1, p.payload, p.payload + 1,
                                  1 + rng() % (64 * p.payload)};
        for (uint64_t bytes : sizes)
        {
            const double expected = Pipeline(hops, bytes, p);
            const double got = IdealFct::Compute(hops, bytes, p).GetSeconds();
            ASSERT_NEAR(got, expected, 1.5e-9)
                << trial << ": " << hops.size() << " hops, " << bytes << " bytes, payload "
                << p.payload;
        }
    }
}

TEST(IdealFct, PlanesLetTheLastPacketPass)
{
    IdealFct::Packets p{1000, 0, 0};
    std::vector<IdealFct::Hop> hops(3, IdealFct::Hop{DataRate("8Gbps"), Time(0)});
    // 2,100 bytes: 1,000, 1,000 and 100. One path: the 100 bytes wait behind the second
    // packet at every hop; over planes they leave at 2,000 ns and cross 3 hops alone, while
    // the second packet, leaving at 1,000 ns, arrives at 4,000 ns.
    EXPECT_EQ(IdealFct::Compute(hops, 2100, p), NanoSeconds(1000 + 1000 + 1000 + 1000 + 100));
    EXPECT_EQ(IdealFct::Compute(hops, 2100, p, 2), NanoSeconds(4000));
    // One packet: the same whatever the planes.
    EXPECT_EQ(IdealFct::Compute(hops, 100, p, 2), IdealFct::Compute(hops, 100, p));
    // Never above the one-path figure.
    for (uint64_t bytes : {1, 999, 1000, 1001, 5500, 100000})
    {
        EXPECT_LE(IdealFct::Compute(hops, bytes, p, 4), IdealFct::Compute(hops, bytes, p));
    }
}
