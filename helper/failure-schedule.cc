/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "failure-schedule.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{

namespace
{

/// Exact intermediate products of 64-bit values (a GCC and Clang extension: __extension__
/// keeps -Wpedantic quiet about it).
__extension__ typedef __int128 int128;

/// A unit of a number with a unit suffix.
struct Unit
{
    const char* name; //!< Suffix.
    int64_t scale;    //!< Size in the base unit.
};

/**
 * Split a decimal number with a unit suffix ("1.5us") into its value, exactly, scaled.
 * \param text the text
 * \param units the allowed unit names and their size in the base unit
 * \param unitCount how many units
 * \param[out] value the value in the base unit (must be whole)
 * \param[out] error what is wrong
 * \return whether it parsed
 */
bool
ParseScaled(const std::string& text,
            const Unit* units,
            size_t unitCount,
            int128& value,
            std::string& error)
{
    size_t i = 0;
    int128 mantissa = 0;
    int64_t fracDigits = 0;
    size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
    {
        if (++digits > 18)
        {
            error = "too many digits";
            return false;
        }
        mantissa = mantissa * 10 + (text[i++] - '0');
    }
    if (i < text.size() && text[i] == '.')
    {
        ++i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        {
            if (++digits > 18)
            {
                error = "too many digits";
                return false;
            }
            mantissa = mantissa * 10 + (text[i++] - '0');
            ++fracDigits;
        }
    }
    if (digits == 0)
    {
        error = "not a number";
        return false;
    }
    std::string unit = text.substr(i);
    for (size_t u = 0; u < unitCount; ++u)
    {
        if (unit == units[u].name)
        {
            int128 pow10 = 1;
            for (int64_t d = 0; d < fracDigits; ++d)
            {
                pow10 *= 10;
            }
            int128 scaled = mantissa * units[u].scale;
            if (scaled % pow10 != 0)
            {
                error = "finer than the resolution";
                return false;
            }
            value = scaled / pow10;
            return true;
        }
    }
    error = unit.empty() ? "no unit" : "unknown unit '" + unit + "'";
    return false;
}

/// Time units, in picoseconds.
const Unit g_timeUnits[] = {{"ps", 1},
                            {"ns", 1000},
                            {"us", 1000000},
                            {"ms", 1000000000},
                            {"s", 1000000000000}};

/// Rate units, in bits per second.
const Unit g_rateUnits[] = {{"bps", 1},
                            {"kbps", 1000},
                            {"Kbps", 1000},
                            {"Mbps", 1000000},
                            {"Gbps", 1000000000},
                            {"Tbps", 1000000000000}};

/// Largest rate, in bits per second (100 Tb/s).
constexpr int64_t MAX_RATE_BPS = 100000000000000;

/**
 * \param name a node name without a plane prefix
 * \return whether it is lower-case letters followed by digits and dots (host3, agg0.1)
 */
bool
IsPlainNodeName(const std::string& name)
{
    size_t i = 0;
    while (i < name.size() && name[i] >= 'a' && name[i] <= 'z')
    {
        ++i;
    }
    if (i == 0 || i == name.size())
    {
        return false;
    }
    for (; i < name.size(); ++i)
    {
        if (!((name[i] >= '0' && name[i] <= '9') || name[i] == '.'))
        {
            return false;
        }
    }
    return true;
}

/**
 * \param name a node name
 * \return whether it is a plain node name, or one with a plane prefix p<digits>. (p1.leaf0)
 */
bool
IsNodeName(const std::string& name)
{
    size_t dot = name.find('.');
    if (name.size() > 2 && name[0] == 'p' && dot != std::string::npos && dot > 1 &&
        name.find_first_not_of("0123456789", 1) == dot)
    {
        return IsPlainNodeName(name.substr(dot + 1));
    }
    return IsPlainNodeName(name);
}

/**
 * Read a whole number at the start of a text.
 * \param text the text
 * \param[in,out] pos where it starts; where it ends on return
 * \param max the largest value allowed
 * \param[out] v the value
 * \return whether there was one, at most max
 */
bool
ReadWhole(const std::string& text, size_t& pos, uint64_t max, uint64_t& v)
{
    size_t start = pos;
    v = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
    {
        if (pos - start >= 10)
        {
            return false;
        }
        v = v * 10 + (text[pos++] - '0');
    }
    return pos > start && v <= max;
}

/**
 * Parse an uplinks element: uplinks:<n>[@leaf<l>][#<s>][+<gap>].
 * \param text the field
 * \param[out] e the event whose element is set
 * \return an empty string, or what is wrong
 */
std::string
ParseUplinks(const std::string& text, FailureSchedule::Event& e)
{
    const std::string at = "element '" + text + "': ";
    const std::string allowed = "; allowed: uplinks:<n>#<stream> (n uplinks drawn at random, "
                                "e.g. uplinks:3#7) or uplinks:<n>@leaf<l> (the first n of leaf "
                                "l, e.g. uplinks:2@leaf0), then optionally +<gap> (e.g. +100us)";
    e.isUplinks = true;
    size_t pos = 8;
    uint64_t v = 0;
    if (!ReadWhole(text, pos, 100000, v) || v == 0)
    {
        return at + "the count after 'uplinks:' must be a whole number from 1 to 100000" + allowed;
    }
    e.uplinks = static_cast<uint32_t>(v);
    if (text.compare(pos, 5, "@leaf") == 0)
    {
        pos += 5;
        if (!ReadWhole(text, pos, 65535, v))
        {
            return at + "the leaf after '@leaf' must be a number from 0 to 65535" + allowed;
        }
        e.leaf = static_cast<int32_t>(v);
    }
    const bool hasStream = pos < text.size() && text[pos] == '#';
    if (hasStream)
    {
        ++pos;
        if (!ReadWhole(text, pos, 2147483647, v))
        {
            return at + "the stream after '#' must be a number from 0 to 2147483647" + allowed;
        }
        e.stream = static_cast<int64_t>(v);
    }
    if (pos < text.size() && text[pos] == '+')
    {
        std::string gap = text.substr(pos + 1);
        std::string why = FailureSchedule::ParseTimeNs(gap, e.gapNs);
        if (!why.empty() || e.gapNs <= 0)
        {
            return at + "gap '" + gap + "': " + (why.empty() ? "must be above 0" : why);
        }
        pos = text.size();
    }
    if (pos != text.size())
    {
        return at + "unexpected '" + text.substr(pos) + "'" + allowed;
    }
    if (e.leaf >= 0 && hasStream)
    {
        return at + "the first uplinks of a leaf are not drawn: no '#<stream>'" + allowed;
    }
    if (e.leaf < 0 && !hasStream)
    {
        return at + "uplinks drawn at random need the stream of the draw, '#<stream>'" + allowed;
    }
    return "";
}

/**
 * \param ns a time in nanoseconds, above 0
 * \return it in the largest unit that keeps it whole (5us, 1500ns)
 */
std::string
FormatTimeNs(int64_t ns)
{
    const std::pair<int64_t, const char*> units[] = {{1000000000, "s"},
                                                     {1000000, "ms"},
                                                     {1000, "us"},
                                                     {1, "ns"}};
    for (const auto& [scale, name] : units)
    {
        if (ns % scale == 0)
        {
            return std::to_string(ns / scale) + name;
        }
    }
    return std::to_string(ns) + "ns";
}

/**
 * Parse the element field.
 * \param text the field
 * \param[out] e the event whose element is set
 * \return an empty string, or what is wrong
 */
std::string
ParseElement(const std::string& text, FailureSchedule::Event& e)
{
    const std::string allowed = "; allowed: link:<node>-<node>[#k] (e.g. link:leaf0-spine1), "
                                "switch:<node> (e.g. switch:spine2 or switch:p1.spine2), "
                                "plane:<p> (e.g. plane:1) or uplinks:<n>... (e.g. uplinks:3#7)";
    if (text.rfind("uplinks:", 0) == 0)
    {
        return ParseUplinks(text, e);
    }
    if (text.rfind("plane:", 0) == 0)
    {
        e.isPlane = true;
        std::string p = text.substr(6);
        if (p.size() != 1 || p[0] < '0' || p[0] > '7')
        {
            return "element '" + text + "': the plane after 'plane:' must be a number from 0 to 7";
        }
        e.plane = static_cast<uint32_t>(p[0] - '0');
        return "";
    }
    if (text.rfind("switch:", 0) == 0)
    {
        e.isSwitch = true;
        e.nodeA = text.substr(7);
        if (!IsNodeName(e.nodeA))
        {
            return "element '" + text + "': '" + e.nodeA + "' is not a node name" + allowed;
        }
        return "";
    }
    if (text.rfind("link:", 0) != 0)
    {
        return "element '" + text + "' is not a link, a switch, a plane or uplinks" + allowed;
    }
    std::string rest = text.substr(5);
    size_t hash = rest.find('#');
    if (hash != std::string::npos)
    {
        std::string k = rest.substr(hash + 1);
        if (k.empty() || k.size() > 4 || k.find_first_not_of("0123456789") != std::string::npos)
        {
            return "element '" + text +
                   "': the parallel link index after '#' must be a number "
                   "from 0 to 9999";
        }
        e.parallel = static_cast<uint32_t>(std::stoul(k));
        rest = rest.substr(0, hash);
    }
    size_t dash = rest.find('-');
    if (dash == std::string::npos || rest.find('-', dash + 1) != std::string::npos)
    {
        return "element '" + text + "' must name two nodes joined by '-'" + allowed;
    }
    e.nodeA = rest.substr(0, dash);
    e.nodeB = rest.substr(dash + 1);
    if (!IsNodeName(e.nodeA) || !IsNodeName(e.nodeB) || e.nodeA == e.nodeB)
    {
        return "element '" + text + "' must name two different nodes (e.g. leaf0-spine1)";
    }
    return "";
}

/**
 * Parse a number in [min, max].
 * \param text the text
 * \param min smallest
 * \param max largest
 * \param[out] v the value
 * \return whether it parsed
 */
bool
ParseReal(const std::string& text, double min, double max, double& v)
{
    if (text.empty())
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && errno == 0 && std::isfinite(v) && v >= min &&
           v <= max;
}

/**
 * Parse the values of a flap: down time, period, count.
 * \param fields the line's fields (the values from index 3)
 * \param[in,out] e the event (its time is set)
 * \return an empty string, or what is wrong
 */
std::string
ParseFlap(const std::vector<std::string>& fields, FailureSchedule::Event& e)
{
    std::string why = FailureSchedule::ParseTimeNs(fields[3], e.downNs);
    if (!why.empty() || e.downNs <= 0)
    {
        return "flap down time '" + fields[3] + "': " + (why.empty() ? "must be above 0" : why);
    }
    why = FailureSchedule::ParseTimeNs(fields[4], e.periodNs);
    if (!why.empty() || e.periodNs <= e.downNs)
    {
        return "flap period '" + fields[4] +
               "': " + (why.empty() ? "must be longer than the down time" : why);
    }
    double count = 0;
    if (!ParseReal(fields[5], 1, 100000, count) || count != std::floor(count))
    {
        return "flap count '" + fields[5] + "': allowed: a whole number from 1 to 100000";
    }
    e.count = static_cast<uint32_t>(count);
    if (e.timeNs + static_cast<int128>(e.periodNs) * e.count > FailureSchedule::MAX_TIME_NS)
    {
        return "flap ends after 1000 s; allowed: every event within 1000 s";
    }
    return "";
}

/**
 * Parse a rate value.
 * \param text the value
 * \param[in,out] e the event
 * \return an empty string, or what is wrong
 */
std::string
ParseRate(const std::string& text, FailureSchedule::Event& e)
{
    int128 bps = 0;
    std::string why;
    if (!ParseScaled(text, g_rateUnits, 6, bps, why) || bps <= 0 || bps > MAX_RATE_BPS)
    {
        return "rate '" + text + "': " + (why.empty() ? "out of range" : why) +
               "; allowed: above 0 and at most 100Tbps, with a unit (bps, kbps, Mbps, Gbps, "
               "Tbps), in whole bits per second";
    }
    e.rateBps = static_cast<uint64_t>(bps);
    return "";
}

/**
 * Parse the time, element and action of one non-empty line.
 * \param fields its fields
 * \param[out] e the event
 * \return an empty string, or what is wrong (without the line number)
 */
std::string
ParseFields(const std::vector<std::string>& fields, FailureSchedule::Event& e)
{
    if (fields.size() < 3)
    {
        return "expected '<time> <element> <action> [<value>...]', got " +
               std::to_string(fields.size()) + " field(s)";
    }
    std::string error = FailureSchedule::ParseTimeNs(fields[0], e.timeNs);
    if (!error.empty())
    {
        return "time '" + fields[0] + "': " + error;
    }
    error = ParseElement(fields[1], e);
    if (!error.empty())
    {
        return error;
    }
    const std::string& action = fields[2];
    size_t values = fields.size() - 3;
    auto arity = [&](size_t n, const std::string& usage) -> std::string {
        return values == n
                   ? ""
                   : "action '" + action + "' takes " + std::to_string(n) + " value(s): " + usage;
    };
    if (action == "down" || action == "up")
    {
        e.action = action == "down" ? FailureSchedule::DOWN : FailureSchedule::UP;
        return arity(0, action);
    }
    if (action == "flap")
    {
        e.action = FailureSchedule::FLAP;
        std::string error = arity(3, "flap <down time> <period> <count>");
        return error.empty() ? ParseFlap(fields, e) : error;
    }
    if ((action == "rate" || action == "loss" || action == "ber") && (e.isSwitch || e.isPlane))
    {
        return "action '" + action + "' applies to links, not to a " +
               (e.isPlane ? "plane" : "switch");
    }
    if (action == "rate")
    {
        e.action = FailureSchedule::RATE;
        std::string error = arity(1, "rate <rate> (e.g. 100Gbps)");
        return error.empty() ? ParseRate(fields[3], e) : error;
    }
    if (action == "loss" || action == "ber")
    {
        bool loss = action == "loss";
        e.action = loss ? FailureSchedule::LOSS : FailureSchedule::BER;
        std::string error = arity(1, loss ? "loss <probability>" : "ber <bit error rate>");
        if (!error.empty())
        {
            return error;
        }
        if (!ParseReal(fields[3], 0, loss ? 1.0 : 1e-3, e.value))
        {
            return action + " '" + fields[3] + "': allowed: a number from 0 to " +
                   (loss ? "1" : "1e-3");
        }
        return "";
    }
    return "unknown action '" + action + "'; allowed: down, up, flap, rate, loss, ber";
}

/**
 * Parse one non-empty line.
 * \param fields its fields
 * \param[out] e the event
 * \return an empty string, or what is wrong (without the line number)
 */
std::string
ParseLine(const std::vector<std::string>& fields, FailureSchedule::Event& e)
{
    std::string error = ParseFields(fields, e);
    if (error.empty() && e.isUplinks)
    {
        // The last of the uplinks acts (uplinks - 1) gaps after the line's time.
        int128 end = e.timeNs + static_cast<int128>(e.gapNs) * (e.uplinks - 1);
        if (e.action == FailureSchedule::FLAP)
        {
            end += static_cast<int128>(e.periodNs) * e.count;
        }
        if (end > FailureSchedule::MAX_TIME_NS)
        {
            return "the last of the " + std::to_string(e.uplinks) +
                   " uplinks acts after 1000 s; allowed: every event within 1000 s";
        }
    }
    return error;
}

} // namespace

std::string
FailureSchedule::Event::GetElement() const
{
    if (isPlane)
    {
        return "plane:" + std::to_string(plane);
    }
    if (isUplinks)
    {
        std::string s = "uplinks:" + std::to_string(uplinks);
        s += leaf >= 0 ? "@leaf" + std::to_string(leaf) : "";
        s += stream >= 0 ? "#" + std::to_string(stream) : "";
        return gapNs > 0 ? s + "+" + FormatTimeNs(gapNs) : s;
    }
    if (isSwitch)
    {
        return "switch:" + nodeA;
    }
    std::string s = "link:" + nodeA + "-" + nodeB;
    return parallel ? s + "#" + std::to_string(parallel) : s;
}

std::string
FailureSchedule::ParseTimeNs(const std::string& text, int64_t& ns)
{
    if (text == "0")
    {
        ns = 0;
        return "";
    }
    int128 ps = 0;
    std::string why;
    if (!ParseScaled(text, g_timeUnits, 5, ps, why))
    {
        return why + "; allowed: 0 or a number with a unit (ps, ns, us, ms, s), e.g. 20us";
    }
    if (ps % 1000 != 0)
    {
        return "not a whole number of nanoseconds";
    }
    if (ps / 1000 > MAX_TIME_NS)
    {
        return "after 1000 s; allowed: at most 1000s";
    }
    ns = static_cast<int64_t>(ps / 1000);
    return "";
}

std::string
FailureSchedule::Parse(const std::string& text, std::vector<Event>& events)
{
    events.clear();
    std::vector<Event> out;
    std::istringstream in(text);
    std::string line;
    uint32_t number = 0;
    while (std::getline(in, line))
    {
        ++number;
        size_t comment = line.find('#');
        // '#' inside an element (link:a-b#k) is not a comment: a comment starts a field.
        while (comment != std::string::npos && comment > 0 && line[comment - 1] != ' ' &&
               line[comment - 1] != '\t')
        {
            comment = line.find('#', comment + 1);
        }
        if (comment != std::string::npos)
        {
            line = line.substr(0, comment);
        }
        std::vector<std::string> fields;
        std::string field;
        std::istringstream words(line);
        while (words >> field)
        {
            fields.push_back(field);
        }
        if (fields.empty())
        {
            continue;
        }
        for (const std::string& f : fields)
        {
            for (char c : f)
            {
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
                {
                    return "line " + std::to_string(number) +
                           ": a character that is not printable ASCII";
                }
            }
        }
        Event e;
        e.line = number;
        std::string error = ParseLine(fields, e);
        if (!error.empty())
        {
            return "line " + std::to_string(number) + ": " + error;
        }
        out.push_back(e);
    }
    if (out.empty())
    {
        return "no event; allowed: at least one line '<time> <element> <action> [<value>...]', "
               "e.g. '20us link:leaf0-spine1 down'";
    }
    events = std::move(out);
    return "";
}

std::string
FailureSchedule::Load(const std::string& path, std::vector<Event>& events)
{
    events.clear();
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return "'" + path +
               "' cannot be read; allowed: the path of a readable failure "
               "schedule or empty (none)";
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().size() > (16u << 20))
    {
        return path + ": larger than 16 MiB";
    }
    std::string error = Parse(text.str(), events);
    return error.empty() ? "" : path + ": " + error;
}

bool
FailureSchedule::IsHtsimFailures(const std::string& text)
{
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream words(line);
        std::string key;
        if (words >> key)
        {
            return key.size() > 1 && key.back() == ':' && key.find('-') != std::string::npos;
        }
    }
    return false;
}

namespace
{

/**
 * One key of an htsim failures_input file.
 * \param key the key, without its colon
 * \param value its value
 * \param [in,out] f what the file sets
 * \return an empty string, or what is wrong (after "line N, key ")
 */
std::string
HtsimKey(const std::string& key, const std::string& value, FailureSchedule::HtsimCableFailures& f)
{
    // The features of htsim's failure generator, whose parameters are <feature>-<name>.
    static const std::vector<std::string> features = {"Switch-Fail",
                                                      "Switch-BER",
                                                      "Switch-Degradation",
                                                      "Switch-Periodic-Packet-Loss",
                                                      "Cable-Fail",
                                                      "Cable-BER",
                                                      "Cable-Degradation",
                                                      "Cable-Periodic-Packet-Loss",
                                                      "NIC-Fail",
                                                      "NIC-Degradation",
                                                      "Random-Packet-Drop",
                                                      "Only-US-CS-Cable",
                                                      "Cable-Fail-Percent-Per-Switch",
                                                      "Switch-Fail-Duration",
                                                      "Cable-Fail-Duration",
                                                      "Stop-Failures-After"};
    uint64_t n = 0;
    if (key == "Cable-Fail")
    {
        f.on = value == "ON";
        return value == "ON" || value == "OFF" ? "" : "'" + value + "'; allowed: ON or OFF";
    }
    if (key == "Cable-Fail-Start-After" || key == "Cable-Fail-Period")
    {
        const uint64_t max = static_cast<uint64_t>(FailureSchedule::MAX_TIME_NS) * 1000;
        bool digits = !value.empty() && value.size() <= 16;
        for (char c : value)
        {
            digits = digits && c >= '0' && c <= '9';
            n = digits ? n * 10 + static_cast<uint64_t>(c - '0') : n;
        }
        if (!digits || n > max)
        {
            return "'" + value + "'; allowed: picoseconds, a whole number up to 1000 s";
        }
        (key == "Cable-Fail-Period" ? f.periodNs : f.startNs) =
            static_cast<int64_t>((n + 500) / 1000);
        return "";
    }
    if (key == "Cable-Fail-Max-Percent")
    {
        char* end = nullptr;
        f.share = std::strtod(value.c_str(), &end);
        const bool ok = end != value.c_str() && *end == 0 && f.share >= 0 && f.share <= 1;
        return ok ? "" : "'" + value + "'; allowed: a share from 0 to 1 (0.05 is 5%)";
    }
    if (std::find(features.begin(), features.end(), key) != features.end())
    {
        return value == "OFF" ? ""
                              : value + " is not modelled; only Cable-Fail (failed cables) "
                                        "is, every other failure must be OFF";
    }
    const bool parameter =
        std::any_of(features.begin(), features.end(), [&key](const std::string& k) {
            return key.compare(0, k.size() + 1, k + "-") == 0;
        });
    return parameter ? "" : "is not a key of htsim's failure input";
}

} // namespace

std::string
FailureSchedule::ParseHtsimFailures(const std::string& text, HtsimCableFailures& out)
{
    HtsimCableFailures f;
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::istringstream words(line);
        std::string key;
        std::string value;
        if (!(words >> key))
        {
            continue;
        }
        const std::string at = "line " + std::to_string(lineNo) + ", " + key + " ";
        if (key.back() != ':' || !(words >> value))
        {
            return at + "expected 'Key: value'";
        }
        key.pop_back();
        const std::string why = HtsimKey(key, value, f);
        if (!why.empty())
        {
            return at + why;
        }
    }
    out = f;
    return "";
}

} // namespace ns3
