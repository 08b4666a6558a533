/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The fields of a Chakra trace replay in a result's JSON.

#include "experiment-report.h"

#include <limits>
#include <nlohmann/json.hpp>

namespace ns3
{

std::string
ExperimentReport::TraceReplayJson(const FlowStats::Collective& c)
{
    using Json = nlohmann::ordered_json;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Json out;
    Json calls = Json::array();
    for (const FlowStats::Collective::Call& call : c.calls)
    {
        Json j;
        j["name"] = call.name;
        j["collective"] = call.collective;
        j["group"] = call.group;
        j["ranks"] = call.ranks;
        j["bytes"] = call.bytes;
        j["start_us"] = call.completed ? call.start.ToDouble(Time::US) : nan;
        j["duration_us"] = call.completed ? (call.finished - call.start).ToDouble(Time::US) : nan;
        j["completed"] = call.completed;
        calls.push_back(j);
    }
    out["trace_collectives"] = calls;
    std::vector<double> exposed;
    for (Time t : c.exposedComm)
    {
        exposed.push_back(t.ToDouble(Time::US));
    }
    out["exposed_comm_us"] = exposed;
    return out.dump();
}

} // namespace ns3
