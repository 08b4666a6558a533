/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "experiment-report.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExperimentReport");

namespace
{

using Json = nlohmann::ordered_json;

/**
 * \param t a time.
 * \return it in microseconds.
 */
double
Us(Time t)
{
    return t.ToDouble(Time::US);
}

/**
 * \param s a summary.
 * \param withMin whether to include the minimum.
 * \return it as a JSON object (NaN statistics become null).
 */
Json
SummaryJson(const SampleSummary& s, bool withMin)
{
    Json j;
    j["mean"] = s.mean;
    if (withMin)
    {
        j["min"] = s.min;
    }
    j["p50"] = s.p50;
    j["p99"] = s.p99;
    j["max"] = s.max;
    return j;
}

/**
 * \param collectives the collectives of a run.
 * \return their entries of a result's "collectives" array.
 */
Json
CollectivesJson(const std::vector<FlowStats::Collective>& collectives)
{
    Json out = Json::array();
    for (const FlowStats::Collective& c : collectives)
    {
        Json cj;
        cj["name"] = c.name;
        cj["group"] = c.group;
        cj["start_us"] = Us(c.start);
        cj["end_us"] = c.completed ? Us(c.finished) : std::numeric_limits<double>::quiet_NaN();
        cj["duration_us"] =
            c.completed ? Us(c.finished - c.start) : std::numeric_limits<double>::quiet_NaN();
        cj["bytes"] = c.bytes;
        cj["completed"] = c.completed;
        if (!c.iterations.empty())
        {
            // Training loops and trace replays only, so that other entries stay as they were.
            std::vector<double> us(c.iterations.size());
            std::transform(c.iterations.begin(), c.iterations.end(), us.begin(), Us);
            cj["iterations_us"] = us;
            cj["iteration_us"] = SummaryJson(SampleSummary::Of(us), true);
        }
        // Trace replays only: the collective calls and the exposed communication.
        bool replay = !c.calls.empty() || !c.exposedComm.empty();
        cj.update(replay ? Json::parse(ExperimentReport::TraceReplayJson(c)) : Json::object());
        out.push_back(cj);
    }
    return out;
}

/**
 * \param timeseries the sampled series of a run.
 * \return a result's "timeseries" object, by series name.
 */
Json
TimeSeriesJson(const std::vector<TimeSeries>& timeseries)
{
    Json series = Json::object();
    for (const TimeSeries& ts : timeseries)
    {
        NS_ABORT_MSG_IF(series.contains(ts.GetName()),
                        "ExperimentReport: two time series named " << ts.GetName());
        Json s;
        s["unit"] = ts.GetUnit();
        s["t_us"] = ts.GetTimesUs();
        Json values = Json::object();
        for (size_t i = 0; i < ts.GetSeriesNames().size(); ++i)
        {
            values[ts.GetSeriesNames()[i]] = ts.GetValues(i);
        }
        s["series"] = values;
        series[ts.GetName()] = s;
    }
    return series;
}

/**
 * Print one line of PFC totals per lossless run.
 * \param os the stream.
 * \param results the runs.
 */
void
PrintPfcLines(std::ostream& os, const std::vector<RunResult>& results)
{
    for (const RunResult& r : results)
    {
        const PfcResult& pfc = r.pfc;
        if (!pfc.enabled)
        {
            continue;
        }
        const PortPause* longest = nullptr;
        for (const PortPause& p : pfc.ports)
        {
            if (!longest || p.pausedUs > longest->pausedUs)
            {
                longest = &p;
            }
        }
        os << "pfc, " << r.lb << ": " << pfc.pausesSent << " PAUSE sent (";
        bool first = true;
        for (const auto& [tier, n] : pfc.pausesSentPerTier)
        {
            os << (first ? "" : ", ") << tier << " " << n;
            first = false;
        }
        os << "), " << pfc.resumesSent << " XON, paused " << std::fixed << std::setprecision(1)
           << pfc.pausedUs << " us over " << pfc.ports.size() << " ports";
        if (longest && longest->pausedUs > 0)
        {
            os << ", longest " << longest->port << " " << longest->pausedUs << " us";
        }
        os << "\n";
    }
}

/**
 * \param pfc the PFC totals of a run.
 * \return its "pfc" object.
 */
Json
PfcJson(const PfcResult& pfc)
{
    Json j;
    j["pauses_sent"] = pfc.pausesSent;
    j["resumes_sent"] = pfc.resumesSent;
    j["pauses_received"] = pfc.pausesReceived;
    j["paused_us"] = pfc.pausedUs;
    Json tiers = Json::object();
    for (const auto& [tier, n] : pfc.pausesSentPerTier)
    {
        tiers[tier] = n;
    }
    j["pauses_sent_per_tier"] = tiers;
    Json ports = Json::array();
    for (const PortPause& p : pfc.ports)
    {
        ports.push_back({{"port", p.port},
                         {"tier", p.tier},
                         {"pauses_sent", p.pausesSent},
                         {"resumes_sent", p.resumesSent},
                         {"pauses_received", p.pausesReceived},
                         {"paused_us", p.pausedUs}});
    }
    j["ports"] = ports;
    return j;
}

/**
 * \param failures the outcomes of the lines of a failure schedule.
 * \return their entries of a result's "failures" array.
 */
Json
FailuresJson(const std::vector<FailureInjector::Outcome>& failures)
{
    Json out = Json::array();
    for (const FailureInjector::Outcome& f : failures)
    {
        Json o = {{"line", f.line},
                  {"element", f.element},
                  {"action", f.action},
                  {"t_us", Us(f.at)},
                  {"drops", f.drops},
                  {"lost", f.lost}};
        o["last_drop_us"] = f.drops ? Json(Us(f.lastDrop)) : Json(nullptr);
        // How long senders kept sending into the element after it went down.
        o["recovery_us"] =
            f.drops && f.action == "down" ? Json(Us(f.lastDrop - f.at)) : Json(nullptr);
        out.push_back(o);
    }
    return out;
}

/**
 * \param r a run.
 * \return its entry of the "results" array.
 */
Json
ResultJson(const RunResult& r)
{
    Json j;
    j["lb"] = r.lb;
    j["flows"] = r.flows.GetFlowCount();
    j["completed"] = r.flows.GetCompletedCount();
    j["fct_us"] = SummaryJson(r.flows.GetFctSummaryUs(), true);
    j["slowdown"] = SummaryJson(r.flows.GetSlowdownSummary(), false);
    j["collective_us"] = r.flows.GetCollectiveUs();
    j["collectives"] = CollectivesJson(r.flows.GetCollectives());
    j["drops"] = r.drops;
    j["trims"] = r.trims;
    j["retransmissions"] = r.retransmissions;
    j["ecn_marks"] = r.ecnMarks;
    j["freezes"] = r.freezes;
    j["max_queue_bytes"] = r.maxQueueBytes;
    Json tiers = Json::object();
    for (const auto& [tier, bytes] : r.maxQueueBytesPerTier)
    {
        tiers[tier] = bytes;
    }
    j["max_queue_bytes_per_tier"] = tiers;
    Json links = Json::array();
    for (const LinkLoad& l : r.linkBytes)
    {
        links.push_back(
            {{"link", l.link}, {"tier", l.tier}, {"bytes", l.bytes}, {"rate_bps", l.rateBps}});
    }
    j["link_bytes"] = links;
    for (const PlaneLoad& p : r.planes) // multi-plane fabrics only
    {
        j["planes"].push_back(
            {{"plane", p.plane}, {"packets", p.packets}, {"bytes", p.bytes}, {"share", p.share}});
    }
    j["timeseries"] = TimeSeriesJson(r.timeseries);
    Json events = Json::array();
    for (const RunEvent& e : r.events)
    {
        events.push_back({{"t_us", Us(e.time)}, {"label", e.label}});
    }
    j["events"] = events;
    if (!r.failures.empty())
    {
        j["failures"] = FailuresJson(r.failures);
    }
    j["sim_time_us"] = Us(r.simTime);
    j["wall_s"] = r.wallSeconds;
    j["packets"] = r.packets;
    const TcpBackgroundResult& tcp = r.tcpBackground;
    if (tcp.flows > 0)
    {
        Json t;
        t["flows"] = tcp.flows;
        t["completed"] = tcp.completed;
        t["size_bytes"] = tcp.bytesPerFlow;
        t["bytes"] = tcp.bytes;
        t["goodput_gbps"] = tcp.goodputGbps;
        t["fct_us"] = SummaryJson(SampleSummary::Of(tcp.fctUs), true);
        j["tcp_background"] = t;
    }
    if (r.pfc.enabled)
    {
        j["pfc"] = PfcJson(r.pfc);
    }
    for (const auto& [key, value] : r.extra)
    {
        NS_ABORT_MSG_IF(j.contains(key),
                        "ExperimentReport: extra field '" << key << "' hides a standard field");
        j[key] = value;
    }
    return j;
}

/**
 * Open \p path for writing, or use standard output for "-".
 * \param path the file.
 * \param file the stream to open.
 * \param [out] error why it failed.
 * \return the stream to write to, or nullptr.
 */
std::ostream*
OpenOutput(const std::string& path, std::ofstream& file, std::string& error)
{
    if (path == "-")
    {
        return &std::cout;
    }
    file.open(path);
    if (!file)
    {
        error = "cannot open '" + path + "' for writing";
        return nullptr;
    }
    return &file;
}

} // namespace

ExperimentReport::ExperimentReport()
{
    NS_LOG_FUNCTION(this);
}

bool
ExperimentReport::IsPlainName(const std::string& s)
{
    if (s.empty())
    {
        return false;
    }
    for (char c : s)
    {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.' || c == ':' || c == '+';
        if (!ok)
        {
            return false;
        }
    }
    return true;
}

void
ExperimentReport::SetConfigValue(const std::string& key, const Value& value)
{
    NS_LOG_FUNCTION(this << key);
    for (auto& entry : m_config)
    {
        if (entry.first == key)
        {
            entry.second = value;
            return;
        }
    }
    m_config.emplace_back(key, value);
}

void
ExperimentReport::AddResult(const RunResult& result)
{
    NS_LOG_FUNCTION(this << result.lb);
    NS_ABORT_MSG_UNLESS(IsPlainName(result.lb),
                        "ExperimentReport: scheme name '"
                            << result.lb << "' must be letters, digits and _-.:+ only");
    for (const FlowStats::Record& r : result.flows.GetRecords())
    {
        NS_ABORT_MSG_UNLESS(IsPlainName(r.flow.tag),
                            "ExperimentReport: flow " << r.flow.id << " has tag '" << r.flow.tag
                                                      << "'; tags must be letters, digits and "
                                                         "_-.:+ only");
    }
    m_results.push_back(result);
}

const std::vector<RunResult>&
ExperimentReport::GetResults() const
{
    return m_results;
}

std::string
ExperimentReport::ToJson(int indent) const
{
    NS_LOG_FUNCTION(this);
    Json config = Json::object();
    for (const auto& [key, v] : m_config)
    {
        switch (v.kind)
        {
        case Value::BOOL:
            config[key] = v.b;
            break;
        case Value::INT:
            config[key] = v.i;
            break;
        case Value::UINT:
            config[key] = v.u;
            break;
        case Value::DOUBLE:
            config[key] = v.d;
            break;
        case Value::STRING:
            config[key] = v.s;
            break;
        }
    }
    Json results = Json::array();
    for (const RunResult& r : m_results)
    {
        results.push_back(ResultJson(r));
    }
    Json doc;
    doc["config"] = config;
    doc["results"] = results;
    return doc.dump(indent);
}

bool
ExperimentReport::WriteJson(const std::string& path, std::string& error) const
{
    NS_LOG_FUNCTION(this << path);
    std::ofstream file;
    std::ostream* os = OpenOutput(path, file, error);
    if (!os)
    {
        return false;
    }
    *os << ToJson(2) << "\n";
    os->flush();
    if (!*os)
    {
        error = "error while writing '" + path + "'";
        return false;
    }
    return true;
}

std::vector<std::string>
ExperimentReport::GetCsvColumns()
{
    return {"lb",
            "id",
            "src",
            "dst",
            "bytes",
            "tag",
            "group",
            "step",
            "subflow",
            "background",
            "start_us",
            "end_us",
            "fct_us",
            "ideal_us",
            "slowdown",
            "completed"};
}

void
ExperimentReport::WriteCsv(std::ostream& os) const
{
    NS_LOG_FUNCTION(this);
    std::vector<std::string> columns = GetCsvColumns();
    for (size_t i = 0; i < columns.size(); ++i)
    {
        os << (i ? "," : "") << columns[i];
    }
    os << "\n";
    std::ostringstream row;
    row << std::setprecision(15);
    for (const RunResult& r : m_results)
    {
        for (const FlowStats::Record& rec : r.flows.GetRecords())
        {
            const FlowSpec& f = rec.flow;
            row.str("");
            row << r.lb << "," << f.id << "," << f.src << "," << f.dst << "," << f.bytes << ","
                << f.tag << "," << f.group << "," << f.step << "," << f.subflow << ","
                << (f.background ? 1 : 0) << "," << Us(f.start) << ",";
            if (rec.completed)
            {
                row << Us(rec.finished) << "," << Us(FlowStats::GetFct(rec)) << ",";
            }
            else
            {
                row << ",,";
            }
            row << Us(r.flows.GetIdealFct(rec)) << ",";
            if (rec.completed)
            {
                row << r.flows.GetSlowdown(rec);
            }
            row << "," << (rec.completed ? 1 : 0) << "\n";
            os << row.str();
        }
    }
}

bool
ExperimentReport::WriteCsv(const std::string& path, std::string& error) const
{
    NS_LOG_FUNCTION(this << path);
    std::ofstream file;
    std::ostream* os = OpenOutput(path, file, error);
    if (!os)
    {
        return false;
    }
    WriteCsv(*os);
    os->flush();
    if (!*os)
    {
        error = "error while writing '" + path + "'";
        return false;
    }
    return true;
}

void
ExperimentReport::PrintTable(std::ostream& os) const
{
    NS_LOG_FUNCTION(this);
    std::ios_base::fmtflags flags = os.flags();
    std::streamsize precision = os.precision();
    auto num = [&os](double v, int width, int decimals) {
        if (std::isnan(v))
        {
            os << std::setw(width) << "-";
        }
        else
        {
            os << std::setw(width) << std::fixed << std::setprecision(decimals) << v;
        }
    };
    int lbWidth = 8;
    for (const RunResult& r : m_results)
    {
        lbWidth = std::max(lbWidth, static_cast<int>(r.lb.size()) + 2);
    }
    os << std::left << std::setw(lbWidth) << "lb" << std::right << std::setw(12) << "done"
       << std::setw(11) << "fct mean" << std::setw(11) << "fct p50" << std::setw(11) << "fct p99"
       << std::setw(11) << "fct max" << std::setw(9) << "sd mean" << std::setw(9) << "sd p99"
       << std::setw(12) << "coll" << std::setw(9) << "drops" << std::setw(9) << "trims"
       << std::setw(9) << "retx" << std::setw(10) << "ecn" << std::setw(8) << "freeze"
       << std::setw(10) << "maxQ KB" << std::setw(8) << "wall s"
       << "\n";
    os << std::left << std::setw(lbWidth) << "" << std::right << std::setw(12) << "flows"
       << std::setw(11) << "us" << std::setw(11) << "us" << std::setw(11) << "us" << std::setw(11)
       << "us" << std::setw(9) << "x" << std::setw(9) << "x" << std::setw(12) << "us"
       << "\n";
    for (const RunResult& r : m_results)
    {
        SampleSummary fct = r.flows.GetFctSummaryUs();
        SampleSummary sd = r.flows.GetSlowdownSummary();
        std::ostringstream done;
        done << r.flows.GetCompletedCount() << "/" << r.flows.GetFlowCount();
        os << std::left << std::setw(lbWidth) << r.lb << std::right << std::setw(12) << done.str();
        num(fct.mean, 11, 1);
        num(fct.p50, 11, 1);
        num(fct.p99, 11, 1);
        num(fct.max, 11, 1);
        num(sd.mean, 9, 2);
        num(sd.p99, 9, 2);
        num(r.flows.GetCollectiveUs(), 12, 1);
        os << std::setw(9) << r.drops << std::setw(9) << r.trims << std::setw(9)
           << r.retransmissions << std::setw(10) << r.ecnMarks << std::setw(8) << r.freezes;
        num(r.maxQueueBytes / 1024.0, 10, 1);
        num(r.wallSeconds, 8, 2);
        os << "\n";
    }
    for (const RunResult& r : m_results)
    {
        const TcpBackgroundResult& tcp = r.tcpBackground;
        if (tcp.flows == 0)
        {
            continue;
        }
        os << "tcp background, " << r.lb << ": " << tcp.flows << " flows";
        if (tcp.bytesPerFlow > 0)
        {
            os << " (" << tcp.completed << " done)";
        }
        os << ", " << std::fixed << std::setprecision(3) << tcp.bytes / 1e6 << " MB, "
           << std::setprecision(2) << tcp.goodputGbps << " Gbps";
        if (!tcp.fctUs.empty())
        {
            SampleSummary fct = SampleSummary::Of(tcp.fctUs);
            os << ", fct mean " << std::setprecision(1) << fct.mean << " p99 " << fct.p99 << " max "
               << fct.max << " us";
        }
        os << "\n";
    }
    PrintPfcLines(os, m_results);
    os.flags(flags);
    os.precision(precision);
}

} // namespace ns3
