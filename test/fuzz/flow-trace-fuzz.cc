/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: FlowTrace::Parse (the reader behind FlowTrace::Load and --traceFile) on
 * arbitrary text, in the module's format and as htsim's connection matrices.
 *
 * Checked for every input: the text is either accepted as a valid trace (at least one flow;
 * hosts in range and different; sizes in [1, MAX_BYTES]; starts at most MAX_START_NS; every
 * dependency on an earlier flow; lines increasing) or rejected with an error naming the line
 * and the field at fault (or saying that there is no flow), leaving the previous trace in
 * place.
 *
 * reps-fuzz-sources: helper/flow-trace.cc helper/connection-matrix.cc
 */

#include "flow-trace.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ns3;

namespace
{

/**
 * Stop the run with a message: libFuzzer reports the input as a crash.
 * \param what the broken property.
 * \param detail more about it.
 */
[[noreturn]] void
Fail(const char* what, const std::string& detail = "")
{
    std::fprintf(stderr, "flow-trace-fuzz: %s %s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string text(reinterpret_cast<const char*>(data), size);
    // The number of hosts comes from the first byte, so that host ranges are explored too.
    uint32_t hosts = size > 0 ? 2 + data[0] % 16 : 4;
    FlowTrace trace;
    std::string error;
    if (!trace.Parse(text, hosts, error))
    {
        if (!trace.GetFlows().empty())
        {
            Fail("a rejected text left flows behind");
        }
        if (error.compare(0, 5, "line ") != 0 && error.compare(0, 8, "no flows") != 0)
        {
            Fail("the error does not name the line:", error);
        }
        if (error.compare(0, 5, "line ") == 0 && error.find(", ") == std::string::npos)
        {
            Fail("the error does not name the field:", error);
        }
        FlowTrace kept;
        if (!kept.Parse("0 0 1 5\n", 2, error) || kept.Parse(text, hosts, error) ||
            kept.GetFlows().size() != 1)
        {
            Fail("a rejected text changed the trace");
        }
        return 0;
    }
    const auto& flows = trace.GetFlows();
    if (flows.empty())
    {
        Fail("an accepted trace has no flow");
    }
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const FlowTrace::Flow& f = flows[i];
        if (f.src >= hosts || f.dst >= hosts || f.src == f.dst)
        {
            Fail("an accepted flow has bad hosts");
        }
        if (f.bytes == 0 || f.bytes > FlowTrace::MAX_BYTES || f.startNs > FlowTrace::MAX_START_NS)
        {
            Fail("an accepted flow is out of range");
        }
        if (f.after != FlowTrace::NONE && f.after >= i)
        {
            Fail("an accepted dependency does not point backwards");
        }
        if (i > 0 && f.line <= flows[i - 1].line)
        {
            Fail("lines are not increasing");
        }
    }
    return 0;
}
