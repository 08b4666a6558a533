/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "option-parser.h"

#include "ns3/callback.h"
#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OptionParser");

namespace
{

/**
 * \param s a string.
 * \return it without leading and trailing spaces.
 */
std::string
Trim(const std::string& s)
{
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
    {
        return "";
    }
    size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

/**
 * \param s a string.
 * \return it in lower case.
 */
std::string
Lower(std::string s)
{
    for (char& c : s)
    {
        if (c >= 'A' && c <= 'Z')
        {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return s;
}

/**
 * \param c a character.
 * \return whether it is a decimal digit.
 */
bool
IsDigit(char c)
{
    return c >= '0' && c <= '9';
}

/**
 * Split an unsigned decimal number ("12", "1.5", ".5", "3.") off the front of \p s.
 * \param s the text.
 * \param [out] intPart the digits before the point.
 * \param [out] fracPart the digits after it.
 * \return the length of the number, 0 if \p s does not start with one.
 */
size_t
SplitNumber(const std::string& s, std::string& intPart, std::string& fracPart)
{
    size_t i = 0;
    while (i < s.size() && IsDigit(s[i]))
    {
        ++i;
    }
    intPart = s.substr(0, i);
    fracPart.clear();
    if (i < s.size() && s[i] == '.')
    {
        size_t j = i + 1;
        while (j < s.size() && IsDigit(s[j]))
        {
            ++j;
        }
        fracPart = s.substr(i + 1, j - i - 1);
        i = j;
    }
    return (intPart.empty() && fracPart.empty()) ? 0 : i;
}

const char* const g_sizeHelp =
    "a size in bytes: a number with an optional unit B, KB, MB, GB, TB (x1000) or KiB, MiB, "
    "GiB, TiB (x1024), e.g. 4096, 64KiB, 8MiB, 1.5GB";

const char* const g_rateHelp =
    "a rate > 0 with ns-3's units: bps, b/s, Bps, B/s with an optional k, K, M, G prefix and "
    "an optional i (Kib/s), e.g. 400Gbps, 100Mb/s";

const char* const g_timeHelp =
    "a time >= 0: a number with a unit s, ms, us, ns, ps, fs, min, h, d, y (a bare number "
    "is seconds), e.g. 1us, 2.5ms";

} // namespace

/**
 * \param unit a size unit, lower case ("", b, kb, mb, gb, tb, kib, mib, gib, tib).
 * \return its multiplier in bytes, 0 for an unknown unit.
 */
static uint64_t
SizeUnit(const std::string& unit)
{
    static const std::map<std::string, uint64_t> units = {{"", 1},
                                                          {"b", 1},
                                                          {"kb", 1000ULL},
                                                          {"mb", 1000ULL * 1000},
                                                          {"gb", 1000ULL * 1000 * 1000},
                                                          {"tb", 1000ULL * 1000 * 1000 * 1000},
                                                          {"kib", 1ULL << 10},
                                                          {"mib", 1ULL << 20},
                                                          {"gib", 1ULL << 30},
                                                          {"tib", 1ULL << 40}};
    auto it = units.find(unit);
    return it == units.end() ? 0 : it->second;
}

bool
OptionParser::ParseBytes(const std::string& option,
                         const std::string& text,
                         uint64_t& bytes,
                         std::string& error)
{
    NS_LOG_FUNCTION(option << text);
    std::string s = Trim(text);
    std::string intPart;
    std::string fracPart;
    size_t n = SplitNumber(s, intPart, fracPart);
    if (n == 0)
    {
        error = option + ": '" + text + "' is not " + g_sizeHelp +
                (!s.empty() && s[0] == '-' ? " (sizes cannot be negative)" : "");
        return false;
    }
    std::string unit = Lower(Trim(s.substr(n)));
    uint64_t mult = SizeUnit(unit);
    if (mult == 0)
    {
        error =
            option + ": '" + text + "' has an unknown unit '" + unit + "'; expected " + g_sizeHelp;
        return false;
    }
    if (intPart.size() > 19 || fracPart.size() > 18)
    {
        error = option + ": '" + text + "' is too large or too precise";
        return false;
    }
    uint64_t whole = intPart.empty() ? 0 : std::strtoull(intPart.c_str(), nullptr, 10);
    uint64_t total = 0;
    if (__builtin_mul_overflow(whole, mult, &total))
    {
        error = option + ": '" + text + "' is too large";
        return false;
    }
    if (!fracPart.empty())
    {
        // fraction * mult must be a whole number of bytes: (digits * mult) / 10^len exactly.
        uint64_t digits = std::strtoull(fracPart.c_str(), nullptr, 10);
        uint64_t den = 1;
        for (size_t i = 0; i < fracPart.size(); ++i)
        {
            den *= 10;
        }
        uint64_t g = std::gcd(mult, den);
        uint64_t part = 0;
        if (digits % (den / g) != 0)
        {
            error = option + ": '" + text + "' is not a whole number of bytes";
            return false;
        }
        if (__builtin_mul_overflow(digits / (den / g), mult / g, &part) ||
            __builtin_add_overflow(total, part, &total))
        {
            error = option + ": '" + text + "' is too large";
            return false;
        }
    }
    bytes = total;
    return true;
}

bool
OptionParser::ParseRate(const std::string& option,
                        const std::string& text,
                        DataRate& rate,
                        std::string& error)
{
    NS_LOG_FUNCTION(option << text);
    std::string s = Trim(text);
    std::string intPart;
    std::string fracPart;
    // DataRate's parser accepts a unit without a number, a minus sign, a second point after
    // the number ("1.5.3Gbps" reads as 1.5 Gbps) and stops at a blank ("1\tGbps" reads as
    // 1 bps): only a number and a unit made of letters and '/' get to it.
    size_t n = SplitNumber(s, intPart, fracPart);
    std::string unit = n == 0 ? "" : s.substr(n);
    std::istringstream unitIn("1" + unit);
    DataRate perUnit;
    unitIn >> perUnit;
    if (n == 0 ||
        unit.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/") !=
            std::string::npos ||
        unitIn.fail())
    {
        error = option + ": '" + text + "' is not " + g_rateHelp;
        return false;
    }
    if (unit.empty())
    {
        // DataRate takes a bare number for bits per second: "400" would be 400 bps.
        error = option + ": '" + text + "' has no unit; expected " + g_rateHelp;
        return false;
    }
    // DataRate holds bits per second in 64 bits and its parser wraps around past that; the
    // module allows at most 10^15 bps.
    const double bps = std::strtod(s.substr(0, n).c_str(), nullptr) * perUnit.GetBitRate();
    if (!(bps <= 1e15))
    {
        error = option + ": '" + text + "' is too large; at most 1000000Gbps, e.g. 400Gbps";
        return false;
    }
    std::istringstream in(s);
    DataRate r;
    in >> r;
    if (in.fail())
    {
        error = option + ": '" + text + "' is not " + g_rateHelp;
        return false;
    }
    if (r.GetBitRate() == 0)
    {
        error = option + ": '" + text + "' must be greater than zero";
        return false;
    }
    rate = r;
    return true;
}

bool
OptionParser::ParseTime(const std::string& option,
                        const std::string& text,
                        Time& time,
                        std::string& error)
{
    NS_LOG_FUNCTION(option << text);
    std::string s = Trim(text);
    std::string intPart;
    std::string fracPart;
    size_t n = SplitNumber(s, intPart, fracPart);
    std::string unit = n == 0 ? "" : s.substr(n);
    // Time's units and their lengths in seconds (a year is 365 days, as in Time).
    static const std::map<std::string, double> units = {{"", 1},
                                                        {"s", 1},
                                                        {"ms", 1e-3},
                                                        {"us", 1e-6},
                                                        {"ns", 1e-9},
                                                        {"ps", 1e-12},
                                                        {"fs", 1e-15},
                                                        {"min", 60},
                                                        {"h", 3600},
                                                        {"d", 86400},
                                                        {"y", 365 * 86400.0}};
    auto it = units.find(unit);
    // Time's own parser aborts on an unknown unit; only hand it what it accepts.
    if (n == 0 || it == units.end())
    {
        error = option + ": '" + text + "' is not " + g_timeHelp +
                (!s.empty() && s[0] == '-' ? " (times cannot be negative)" : "");
        return false;
    }
    // Past Time::Max() Time's parser overflows and wraps around to a negative time, and it
    // rounds a value below the resolution to zero: check the value in seconds first. Half of
    // Time::Max() keeps the conversion's rounding well clear of the limit.
    const double number = std::strtod(s.substr(0, n).c_str(), nullptr);
    const double value = number * it->second;
    const double largest = Time::Max().GetSeconds() / 2;
    // Time's parser also holds the number in its own unit in 64 bits before converting it.
    if (!(value <= largest) || !(number < 9.0e18))
    {
        std::ostringstream msg;
        msg << option << ": '" << text << "' is too large; at most "
            << static_cast<uint64_t>(largest) << "s";
        error = msg.str();
        return false;
    }
    Time t(s);
    if (value > 0 && t.IsZero())
    {
        static const std::map<Time::Unit, std::string> names = {{Time::S, "1s"},
                                                                {Time::MS, "1ms"},
                                                                {Time::US, "1us"},
                                                                {Time::NS, "1ns"},
                                                                {Time::PS, "1ps"},
                                                                {Time::FS, "1fs"}};
        auto res = names.find(Time::GetResolution());
        error = option + ": '" + text +
                "' is shorter than the simulator's time resolution; allowed: 0 or at least " +
                (res == names.end() ? std::string("the resolution") : res->second);
        return false;
    }
    time = t;
    return true;
}

namespace
{

/**
 * The end shared by the number parsers: \p error says why \p text (\p trimmed without blanks)
 * is not \p kind ("a number", "a whole number") in [min, max], or \p value takes \p v.
 * \return whether \p parsed and \p v is in range.
 */
template <typename T>
bool
AcceptInRange(const std::string& option,
              const std::string& text,
              const std::string& trimmed,
              bool parsed,
              T v,
              T min,
              T max,
              const char* kind,
              T& value,
              std::string& error)
{
    std::ostringstream range;
    range << kind << " in [" << min << ", " << max << "]";
    if (!parsed)
    {
        error = option + ": '" + text + "' is not " + range.str();
        return false;
    }
    if (v < min || v > max)
    {
        error = option + ": " + trimmed + " is out of range; expected " + range.str();
        return false;
    }
    value = v;
    return true;
}

} // namespace

bool
OptionParser::ParseDouble(const std::string& option,
                          const std::string& text,
                          double min,
                          double max,
                          double& value,
                          std::string& error)
{
    NS_LOG_FUNCTION(option << text << min << max);
    std::string s = Trim(text);
    errno = 0;
    char* end = nullptr;
    double v = s.empty() ? 0 : std::strtod(s.c_str(), &end);
    bool parsed = !s.empty() && errno == 0 && end == s.c_str() + s.size() && std::isfinite(v);
    return AcceptInRange(option, text, s, parsed, v, min, max, "a number", value, error);
}

bool
OptionParser::ParseUnsigned(const std::string& option,
                            const std::string& text,
                            uint64_t min,
                            uint64_t max,
                            uint64_t& value,
                            std::string& error)
{
    NS_LOG_FUNCTION(option << text << min << max);
    std::string s = Trim(text);
    bool digits = !s.empty() && s.size() <= 20;
    for (char c : s)
    {
        digits = digits && IsDigit(c);
    }
    errno = 0;
    uint64_t v = digits ? std::strtoull(s.c_str(), nullptr, 10) : 0;
    bool parsed = digits && errno == 0;
    return AcceptInRange(option, text, s, parsed, v, min, max, "a whole number", value, error);
}

bool
OptionParser::ParseInteger(const std::string& option,
                           const std::string& text,
                           int64_t min,
                           int64_t max,
                           int64_t& value,
                           std::string& error)
{
    NS_LOG_FUNCTION(option << text << min << max);
    std::string s = Trim(text);
    size_t first = !s.empty() && s[0] == '-' ? 1 : 0;
    bool digits = s.size() > first && s.size() <= 20;
    for (size_t i = first; i < s.size(); ++i)
    {
        digits = digits && IsDigit(s[i]);
    }
    errno = 0;
    int64_t v = digits ? std::strtoll(s.c_str(), nullptr, 10) : 0;
    bool parsed = digits && errno == 0;
    return AcceptInRange(option, text, s, parsed, v, min, max, "a whole number", value, error);
}

bool
OptionParser::ParseBool(const std::string& option,
                        const std::string& text,
                        bool& value,
                        std::string& error)
{
    NS_LOG_FUNCTION(option << text);
    std::string s = Lower(Trim(text));
    if (s.empty() || s == "true" || s == "t" || s == "1")
    {
        value = true;
        return true;
    }
    if (s == "false" || s == "f" || s == "0")
    {
        value = false;
        return true;
    }
    error = option + ": '" + text + "' is not a boolean; allowed: true, false (or 1, 0)";
    return false;
}

bool
OptionParser::ParseChoice(const std::string& option,
                          const std::string& text,
                          const std::vector<std::string>& allowed,
                          std::string& error)
{
    NS_LOG_FUNCTION(option << text);
    for (const std::string& a : allowed)
    {
        if (text == a)
        {
            return true;
        }
    }
    error = option + ": unknown value '" + text + "'; allowed: " + Join(allowed);
    return false;
}

std::vector<std::string>
OptionParser::SplitList(const std::string& text)
{
    std::vector<std::string> items;
    if (Trim(text).empty())
    {
        return items;
    }
    size_t begin = 0;
    while (true)
    {
        size_t comma = text.find(',', begin);
        items.push_back(Trim(text.substr(begin, comma - begin)));
        if (comma == std::string::npos)
        {
            break;
        }
        begin = comma + 1;
    }
    return items;
}

std::string
OptionParser::Join(const std::vector<std::string>& items, const std::string& separator)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
    {
        out += (i ? separator : "") + items[i];
    }
    return out;
}

uint64_t
OptionParser::BytesOrExit(const std::string& option, const std::string& text, uint64_t min)
{
    uint64_t bytes = 0;
    std::string error;
    if (!ParseBytes(option, text, bytes, error))
    {
        Exit(error);
    }
    if (bytes < min)
    {
        std::ostringstream msg;
        msg << option << ": '" << text << "' is " << bytes << " bytes; it must be at least " << min
            << " bytes";
        Exit(msg.str());
    }
    return bytes;
}

DataRate
OptionParser::RateOrExit(const std::string& option, const std::string& text)
{
    DataRate rate;
    std::string error;
    if (!ParseRate(option, text, rate, error))
    {
        Exit(error);
    }
    return rate;
}

Time
OptionParser::TimeOrExit(const std::string& option, const std::string& text)
{
    Time time;
    std::string error;
    if (!ParseTime(option, text, time, error))
    {
        Exit(error);
    }
    return time;
}

std::string
OptionParser::ChoiceOrExit(const std::string& option,
                           const std::string& text,
                           const std::vector<std::string>& allowed)
{
    std::string error;
    if (!ParseChoice(option, text, allowed, error))
    {
        Exit(error);
    }
    return text;
}

void
OptionParser::CheckRangeOrExit(const std::string& option, double value, double min, double max)
{
    if (!(value >= min && value <= max))
    {
        std::ostringstream msg;
        msg << option << ": " << value << " is out of range; expected a value in [" << min << ", "
            << max << "]";
        Exit(msg.str());
    }
}

void
OptionParser::CheckWritablePathOrExit(const std::string& option, const std::string& path)
{
    if (!path.empty() && path != "-" && !std::ofstream(path))
    {
        Exit(option + ": cannot write '" + path +
             "'; allowed: the path of a writable file, - (standard output) or empty (none)");
    }
}

void
OptionParser::CheckWritablePrefixOrExit(const std::string& option, const std::string& prefix)
{
    if (prefix.empty())
    {
        return;
    }
    const std::string probe = prefix + ".reps-probe";
    if (prefix.back() == '/' || !std::ofstream(probe))
    {
        Exit(option + ": cannot create files named '" + prefix +
             "...'; allowed: a path prefix in a writable folder (e.g. results/cap) or empty "
             "(none)");
    }
    std::remove(probe.c_str());
}

} // namespace ns3
