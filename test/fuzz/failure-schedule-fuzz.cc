/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: FailureSchedule::Parse (the reader behind --failureFile) on arbitrary text.
 *
 * Checked for every input: the text is either accepted, with at least one event, every event
 * within 1000 s, on a line of the text, with a well-formed element and values in their ranges;
 * or rejected with an error that names a line ("line N: ...") or says that there is no event,
 * and no event returned.
 *
 * reps-fuzz-sources: helper/failure-schedule.cc
 */

#include "failure-schedule.h"

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
 */
[[noreturn]] void
Fail(const char* what)
{
    std::fprintf(stderr, "failure-schedule-fuzz: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string text(reinterpret_cast<const char*>(data), size);
    if (FailureSchedule::IsHtsimFailures(text))
    {
        // htsim's failures_input format: refused naming a line, or cable failures in range.
        FailureSchedule::HtsimCableFailures f;
        const std::string why = FailureSchedule::ParseHtsimFailures(text, f);
        if (!why.empty() && (why.rfind("line ", 0) != 0 || f.on))
        {
            Fail("an htsim failure input refused without its line, or set anyway");
        }
        if (why.empty() && (f.share < 0 || f.share > 1 || f.startNs < 0 || f.periodNs < 0 ||
                            f.startNs > FailureSchedule::MAX_TIME_NS ||
                            f.periodNs > FailureSchedule::MAX_TIME_NS))
        {
            Fail("htsim cable failures out of range");
        }
        return 0;
    }
    std::vector<FailureSchedule::Event> events;
    std::string error = FailureSchedule::Parse(text, events);
    if (!error.empty())
    {
        if (!events.empty())
        {
            Fail("events returned with an error");
        }
        if (error.rfind("line ", 0) != 0 && error.rfind("no event", 0) != 0)
        {
            Fail("an error that names no line");
        }
        return 0;
    }
    if (events.empty())
    {
        Fail("accepted without an event");
    }
    size_t lines = 1;
    for (char c : text)
    {
        lines += c == '\n';
    }
    for (const FailureSchedule::Event& e : events)
    {
        if (e.line < 1 || e.line > lines)
        {
            Fail("an event on a line the text does not have");
        }
        if (e.timeNs < 0 || e.timeNs > FailureSchedule::MAX_TIME_NS)
        {
            Fail("a time out of range");
        }
        if (e.isUplinks)
        {
            if (e.uplinks < 1 || e.uplinks > 100000 || (e.leaf < 0) == (e.stream < 0) ||
                e.gapNs < 0 ||
                e.timeNs + static_cast<double>(e.gapNs) * (e.uplinks - 1) >
                    FailureSchedule::MAX_TIME_NS)
            {
                Fail("malformed uplinks");
            }
        }
        else if (e.isPlane
                     ? e.plane > 7
                     : e.nodeA.empty() || (!e.isSwitch && (e.nodeB.empty() || e.nodeA == e.nodeB)))
        {
            Fail("a malformed element");
        }
        switch (e.action)
        {
        case FailureSchedule::FLAP:
            if (e.downNs <= 0 || e.periodNs <= e.downNs || e.count < 1 || e.count > 100000)
            {
                Fail("a flap out of range");
            }
            break;
        case FailureSchedule::RATE:
            if (e.rateBps == 0 || e.rateBps > 100000000000000ULL)
            {
                Fail("a rate out of range");
            }
            break;
        case FailureSchedule::LOSS:
        case FailureSchedule::BER:
            if (!(e.value >= 0 && e.value <= (e.action == FailureSchedule::LOSS ? 1.0 : 1e-3)))
            {
                Fail("a loss or bit error rate out of range");
            }
            break;
        default:
            break;
        }
    }
    return 0;
}
