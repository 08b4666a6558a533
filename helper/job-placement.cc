/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-placement.h"

#include "ns3/abort.h"

namespace ns3
{

bool
JobPlacement::LayoutFromName(const std::string& name, Layout& layout)
{
    if (name == "contiguous")
    {
        layout = Layout::CONTIGUOUS;
        return true;
    }
    if (name == "interleaved")
    {
        layout = Layout::INTERLEAVED;
        return true;
    }
    return false;
}

std::vector<std::vector<uint32_t>>
JobPlacement::Split(uint32_t hosts, uint32_t jobs, Layout layout)
{
    NS_ABORT_MSG_IF(jobs < 1 || jobs > hosts / 2,
                    "JobPlacement: " << jobs << " jobs on " << hosts << " hosts; allowed: 1 to "
                                     << hosts / 2 << " (every job needs 2 hosts)");
    std::vector<std::vector<uint32_t>> out(jobs);
    if (layout == Layout::INTERLEAVED)
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            out[h % jobs].push_back(h);
        }
        return out;
    }
    uint32_t base = hosts / jobs;
    uint32_t extra = hosts % jobs; // the first `extra` jobs get one host more
    uint32_t next = 0;
    for (uint32_t j = 0; j < jobs; ++j)
    {
        uint32_t size = base + (j < extra ? 1 : 0);
        for (uint32_t k = 0; k < size; ++k)
        {
            out[j].push_back(next++);
        }
    }
    return out;
}

} // namespace ns3
