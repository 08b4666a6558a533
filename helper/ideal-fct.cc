/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ideal-fct.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

Time
IdealFct::Compute(const std::vector<Hop>& hops,
                  uint64_t bytes,
                  const Packets& packets,
                  uint32_t planes)
{
    NS_ABORT_MSG_IF(hops.empty(), "IdealFct: the path has no hop");
    NS_ABORT_MSG_IF(packets.payload == 0, "IdealFct: the payload of a packet must be > 0");
    bytes = std::max<uint64_t>(bytes, 1);
    const uint64_t n = (bytes + packets.payload - 1) / packets.payload;
    const uint64_t full = packets.payload + packets.header;
    const uint64_t last = bytes - (n - 1) * packets.payload + packets.header;
    const size_t h = hops.size();
    // Serialization times in seconds (a Time would round every term), converted once.
    std::vector<double> sFull(h);
    std::vector<double> sLast(h);
    double delays = 0;
    double ack = 0;
    for (size_t i = 0; i < h; ++i)
    {
        const double rate = static_cast<double>(hops[i].rate.GetBitRate());
        NS_ABORT_MSG_IF(rate <= 0, "IdealFct: hop " << i << " has no rate");
        sFull[i] = full * 8.0 / rate;
        sLast[i] = last * 8.0 / rate;
        delays += hops[i].delay.GetSeconds();
        ack += packets.ack * 8.0 / rate + hops[i].delay.GetSeconds();
    }
    std::vector<double> suffixLast(h + 1, 0.0);
    for (size_t i = h; i-- > 0;)
    {
        suffixLast[i] = suffixLast[i + 1] + sLast[i];
    }
    if (n == 1)
    {
        return Seconds(delays + suffixLast[0] + ack);
    }
    if (planes > 1)
    {
        // Each packet alone on its plane, after the NIC's clock released it.
        const double lastAlone = (n - 1) * sFull[0] + suffixLast[0];
        double fullAlone = (n - 2) * sFull[0];
        for (size_t i = 0; i < h; ++i)
        {
            fullAlone += sFull[i];
        }
        return Seconds(delays + std::max(lastAlone, fullAlone) + ack);
    }
    // The longest monotone way through the (packet, hop) grid: the first n - 1 (full)
    // packets all cross hop a, the way stays on packet n - 1 up to hop b >= a, then packet n
    // crosses hops b .. H.
    double best = 0;
    double before = 0; // the full packet over hops 0 .. a - 1
    for (size_t a = 0; a < h; ++a)
    {
        const double through = before + (n - 1) * sFull[a];
        double between = 0; // the full packet over hops a + 1 .. b
        for (size_t b = a; b < h; ++b)
        {
            if (b > a)
            {
                between += sFull[b];
            }
            best = std::max(best, through + between + suffixLast[b]);
        }
        before += sFull[a];
    }
    return Seconds(delays + best + ack);
}

std::vector<IdealFct::Hop>
IdealFct::PathOf(Ptr<const ClosFabric> fabric, uint32_t src, uint32_t dst)
{
    std::vector<Hop> hops;
    if (src != dst && fabric->IsSameServer(src, dst))
    {
        // Two GPUs of one server: up to the scale-up switch and down.
        Ptr<ScaleUpDomain> scaleUp = fabric->GetScaleUp();
        const Hop hop{scaleUp->GetRate(), scaleUp->GetDelay()};
        return {hop, hop};
    }
    if (src != dst && fabric->GetRelay(src, dst) != fabric->GetNHosts())
    {
        // Over the scale-up domain to the GPU on the destination's rail, then its rail.
        Ptr<ScaleUpDomain> scaleUp = fabric->GetScaleUp();
        const Hop hop{scaleUp->GetRate(), scaleUp->GetDelay()};
        hops = {hop, hop};
    }
    for (uint32_t link : fabric->GetRoutedPath(src, dst))
    {
        hops.push_back({fabric->GetLinkRate(link), fabric->GetLinkDelay(link)});
    }
    return hops;
}

} // namespace ns3
