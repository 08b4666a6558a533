/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-trace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Split a number with a unit suffix ("2.5us", "64KiB").
 * \param text the token.
 * \param [out] number the leading digits and '.'.
 * \param [out] unit the rest.
 */
void
SplitUnit(const std::string& text, std::string& number, std::string& unit)
{
    size_t i = 0;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.'))
    {
        ++i;
    }
    number = text.substr(0, i);
    unit = text.substr(i);
}

/**
 * \param text a start time.
 * \param [out] ns it in nanoseconds.
 * \return an empty string, or what is wrong.
 */
std::string
ParseStart(const std::string& text, uint64_t& ns)
{
    static const std::map<std::string, double> units = {{"ns", 1},
                                                        {"us", 1e3},
                                                        {"ms", 1e6},
                                                        {"s", 1e9}};
    std::string number;
    std::string unit;
    SplitUnit(text, number, unit);
    const std::string allowed = "; allowed: a time with a unit ns, us, ms or s (e.g. 2.5us) "
                                "in [0, 1000s]";
    size_t dots = 0;
    for (char c : number)
    {
        dots += c == '.' ? 1 : 0;
    }
    if (number.empty() || number == "." || dots > 1 || number.size() > 30)
    {
        return "'" + text + "' is not a time" + allowed;
    }
    double scale = 0;
    if (unit.empty())
    {
        if (std::stod(number) != 0)
        {
            return "'" + text + "' has no unit" + allowed;
        }
        scale = 1;
    }
    else if (units.count(unit) == 0)
    {
        return "'" + text + "' has an unknown unit '" + unit + "'" + allowed;
    }
    else
    {
        scale = units.at(unit);
    }
    double value = std::stod(number) * scale;
    if (!std::isfinite(value) || value > static_cast<double>(FlowTrace::MAX_START_NS))
    {
        return "'" + text + "' is too late" + allowed;
    }
    double rounded = std::round(value);
    if (std::fabs(value - rounded) > 1e-6 * std::max(1.0, value))
    {
        return "'" + text + "' is not a whole number of nanoseconds" + allowed;
    }
    ns = static_cast<uint64_t>(rounded);
    return "";
}

/**
 * \param text a size.
 * \param [out] bytes it in bytes.
 * \return an empty string, or what is wrong.
 */
std::string
ParseBytes(const std::string& text, uint64_t& bytes)
{
    static const std::map<std::string, uint64_t> units = {{"", 1},
                                                          {"B", 1},
                                                          {"KB", 1000},
                                                          {"MB", 1000000},
                                                          {"GB", 1000000000},
                                                          {"KiB", 1ULL << 10},
                                                          {"MiB", 1ULL << 20},
                                                          {"GiB", 1ULL << 30}};
    std::string number;
    std::string unit;
    SplitUnit(text, number, unit);
    const std::string allowed = "; allowed: a whole number of bytes, optionally with a unit "
                                "B, KB, MB, GB, KiB, MiB, GiB, in [1, 1TiB]";
    uint64_t n = 0;
    if (units.count(unit) == 0 || !FlowTrace::ParseWhole(number, FlowTrace::MAX_BYTES, n))
    {
        return "'" + text + "' is not a size" + allowed;
    }
    uint64_t scale = units.at(unit);
    if (n == 0 || n > FlowTrace::MAX_BYTES / scale)
    {
        return "'" + text + "' is out of range" + allowed;
    }
    bytes = n * scale;
    return "";
}

/**
 * Parse the fields of one flow.
 * \param tok the 4 or 5 fields.
 * \param hosts number of hosts.
 * \param earlier number of flows before this one.
 * \param byLine flow id of every earlier line with a flow.
 * \param [in,out] f the flow (its line set).
 * \param [out] field the field at fault.
 * \return an empty string, or what is wrong.
 */
std::string
ParseFlow(const std::vector<std::string>& tok,
          uint32_t hosts,
          size_t earlier,
          const std::map<uint32_t, uint32_t>& byLine,
          FlowTrace::Flow& f,
          std::string& field)
{
    field = "start";
    std::string why = ParseStart(tok[0], f.startNs);
    if (!why.empty())
    {
        return why;
    }
    uint64_t host = 0;
    const std::string hostRange =
        "; allowed: a host index in [0, " + std::to_string(hosts - 1) + "]";
    field = "src";
    if (!FlowTrace::ParseWhole(tok[1], hosts - 1, host))
    {
        return "'" + tok[1] + "' is not a known host" + hostRange;
    }
    f.src = static_cast<uint32_t>(host);
    field = "dst";
    if (!FlowTrace::ParseWhole(tok[2], hosts - 1, host))
    {
        return "'" + tok[2] + "' is not a known host" + hostRange;
    }
    f.dst = static_cast<uint32_t>(host);
    if (f.src == f.dst)
    {
        return "equals src (" + tok[1] + "); allowed: another host";
    }
    field = "bytes";
    why = ParseBytes(tok[3], f.bytes);
    if (!why.empty() || tok.size() < 5)
    {
        return why;
    }
    field = "after";
    const std::string& a = tok[4];
    const std::string allowed = "; allowed: after=ID (an earlier flow, 0 to " +
                                std::to_string(earlier) +
                                " - 1) or after=line:L (an earlier line with a flow)";
    uint64_t ref = 0;
    if (a.compare(0, 11, "after=line:") == 0)
    {
        if (!FlowTrace::ParseWhole(a.substr(11), UINT32_MAX, ref) || byLine.count(ref) == 0)
        {
            return "'" + a + "' is not an earlier line with a flow" + allowed;
        }
        f.after = byLine.at(static_cast<uint32_t>(ref));
        return "";
    }
    if (a.compare(0, 6, "after=") != 0)
    {
        return "'" + a + "' is not a dependency" + allowed;
    }
    if (!FlowTrace::ParseWhole(a.substr(6), UINT32_MAX, ref) || ref >= earlier)
    {
        return "'" + a +
               "' is not an earlier flow (dependencies point backwards, so that they have no "
               "cycle)" +
               allowed;
    }
    f.after = static_cast<uint32_t>(ref);
    return "";
}

/**
 * \param text a trace
 * \return whether it is one of htsim's connection matrices: its first word is a header
 *         (Nodes, Connections, Triggers) or a src->dst pair
 */
bool
IsConnectionMatrix(const std::string& text)
{
    std::istringstream in(text);
    std::string word;
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream words(line.substr(0, line.find('#')));
        if (words >> word)
        {
            break;
        }
    }
    return word == "Nodes" || word == "Connections" || word == "Triggers" ||
           word.find("->") != std::string::npos;
}

} // namespace

/**
 * \param text a whole number in decimal digits only.
 * \param max the largest value allowed.
 * \param [out] value the number.
 * \return whether text is such a number, at most max.
 */
bool
FlowTrace::ParseWhole(const std::string& text, uint64_t max, uint64_t& value)
{
    if (text.empty() || text.size() > 20)
    {
        return false;
    }
    uint64_t v = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        uint64_t digit = static_cast<uint64_t>(c - '0');
        if (digit > max || v > (max - digit) / 10)
        {
            return false;
        }
        v = v * 10 + digit;
    }
    value = v;
    return true;
}

bool
FlowTrace::Parse(const std::string& text, uint32_t hosts, std::string& error)
{
    if (hosts < 2)
    {
        error = "hosts: " + std::to_string(hosts) + "; a trace needs at least 2 hosts";
        return false;
    }
    if (IsConnectionMatrix(text))
    {
        return ParseConnectionMatrix(text, hosts, error);
    }
    std::vector<Flow> flows;
    std::map<uint32_t, uint32_t> byLine; // line -> flow id
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    auto fail = [&error, &lineNo](const std::string& field, const std::string& what) {
        error = "line " + std::to_string(lineNo) + ", " + field + ": " + what;
        return false;
    };
    while (std::getline(in, line))
    {
        ++lineNo;
        size_t hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.resize(hash);
        }
        std::istringstream fields(line);
        std::vector<std::string> tok;
        std::string t;
        while (fields >> t)
        {
            tok.push_back(t);
        }
        if (tok.empty())
        {
            continue;
        }
        if (tok.size() < 4 || tok.size() > 5)
        {
            return fail("fields",
                        std::to_string(tok.size()) +
                            " fields; expected 'start src dst bytes [after=ID|after=line:L]'");
        }
        if (flows.size() >= MAX_FLOWS)
        {
            return fail("flows", "more than " + std::to_string(MAX_FLOWS) + " flows");
        }
        Flow f;
        f.line = lineNo;
        std::string field;
        std::string why = ParseFlow(tok, hosts, flows.size(), byLine, f, field);
        if (!why.empty())
        {
            return fail(field, why);
        }
        byLine[lineNo] = static_cast<uint32_t>(flows.size());
        flows.push_back(f);
    }
    if (flows.empty())
    {
        error = "no flows (every line is blank or a comment)";
        return false;
    }
    m_flows = std::move(flows);
    m_triggers.clear();
    return true;
}

bool
FlowTrace::Load(const std::string& path, uint32_t hosts, std::string& error)
{
    std::error_code ec;
    std::ifstream file(path);
    if (!file || !std::filesystem::is_regular_file(path, ec))
    {
        error = path + ": cannot read the file";
        return false;
    }
    std::ostringstream text;
    text << file.rdbuf();
    if (!Parse(text.str(), hosts, error))
    {
        error = path + ": " + error;
        return false;
    }
    return true;
}

void
FlowTrace::SetMatrixStartUnit(uint64_t picoseconds)
{
    m_matrixStartPs = picoseconds == 0 ? 1 : picoseconds;
}

const std::vector<FlowTrace::Flow>&
FlowTrace::GetFlows() const
{
    return m_flows;
}

const std::vector<FlowTrace::Trigger>&
FlowTrace::GetTriggers() const
{
    return m_triggers;
}

} // namespace ns3
