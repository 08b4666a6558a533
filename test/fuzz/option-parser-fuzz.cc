/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * libFuzzer target: OptionParser's ParseBytes, ParseRate, ParseTime, ParseDouble,
 * ParseUnsigned, ParseChoice and SplitList on arbitrary text.
 *
 * The first byte picks the function ('b' bytes, 'r' rate, 't' time, 'd' double, 'u'
 * unsigned, 'c' choice, 'l' list; other bytes map onto these), the rest is the option's
 * value; for 'd' and 'u' the second byte also picks the allowed range. Checked for every
 * input: no crash; an accepted value is in range and agrees with the text (a size exactly
 * equals its digits times its unit, a rate or a time its number times its unit's factor up to
 * rounding); a rejected value leaves the output untouched and the error names the option.
 *
 * reps-fuzz-sources: experiment/option-parser.cc experiment/option-parser-attributes.cc
 */

#include "option-parser.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The option name every call gets; errors must contain it.
const std::string kOption = "--fuzzOption";

/**
 * Stop the run with a message: libFuzzer reports the input as a crash.
 * \param what the broken property.
 * \param text the option value.
 */
[[noreturn]] void
Fail(const char* what, const std::string& text)
{
    std::fprintf(stderr, "option-parser-fuzz: %s: '%s'\n", what, text.c_str());
    std::abort();
}

/**
 * Check that a rejection says which option it is about.
 * \param error the message.
 * \param text the option value.
 */
void
CheckError(const std::string& error, const std::string& text)
{
    if (error.find(kOption) == std::string::npos)
    {
        Fail("the error does not name the option", text);
    }
}

/**
 * \param s a string.
 * \return it without leading and trailing blanks (space and tab, as OptionParser trims).
 */
std::string
Trim(const std::string& s)
{
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
    {
        return "";
    }
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

/**
 * An unsigned decimal number and what follows it.
 */
struct Number
{
    std::string digits; //!< The digits, the point removed.
    size_t decimals;    //!< How many of them follow the point.
    std::string rest;   //!< The text after the number.
    double value;       //!< The number.
};

/**
 * Split "<digits>[.<digits>]<rest>".
 * \param s the text.
 * \param [out] n the parts.
 * \return whether \p s starts with a number.
 */
bool
SplitNumber(const std::string& s, Number& n)
{
    size_t i = s.find_first_not_of("0123456789");
    std::string whole = s.substr(0, i);
    std::string frac;
    if (i != std::string::npos && s[i] == '.')
    {
        size_t j = s.find_first_not_of("0123456789", i + 1);
        frac = s.substr(i + 1, j == std::string::npos ? std::string::npos : j - i - 1);
        i = j;
    }
    if (whole.empty() && frac.empty())
    {
        return false;
    }
    n.digits = whole + frac;
    n.decimals = frac.size();
    n.rest = i == std::string::npos ? "" : s.substr(i);
    n.value = std::strtod((whole + "." + frac).c_str(), nullptr);
    return true;
}

/**
 * \param digits decimal digits.
 * \param factor a multiplier.
 * \return digits * factor in decimal, without leading zeros ("0" for zero).
 */
std::string
MultiplyDecimal(const std::string& digits, uint64_t factor)
{
    std::vector<unsigned __int128> out(digits.size() + 40, 0); // least significant first
    for (size_t k = 0; k < digits.size(); ++k)
    {
        out[k] = static_cast<unsigned __int128>(digits[digits.size() - 1 - k] - '0') * factor;
    }
    for (size_t k = 0; k + 1 < out.size(); ++k)
    {
        out[k + 1] += out[k] / 10;
        out[k] %= 10;
    }
    std::string s;
    for (size_t k = out.size(); k-- > 0;)
    {
        if (!s.empty() || out[k] != 0)
        {
            s += static_cast<char>('0' + static_cast<int>(out[k]));
        }
    }
    return s.empty() ? "0" : s;
}

/**
 * \param s a string.
 * \return it in lower case (ASCII letters only).
 */
std::string
Lower(std::string s)
{
    for (char& c : s)
    {
        c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return s;
}

/**
 * \param text a size the parser accepted.
 * \param bytes what it returned.
 */
void
CheckBytes(const std::string& text, uint64_t bytes)
{
    Number n;
    if (!SplitNumber(Trim(text), n))
    {
        Fail("accepted a size that is not a number", text);
    }
    const std::string unit = Lower(Trim(n.rest));
    const std::vector<std::pair<std::string, uint64_t>> units = {{"", 1},
                                                                 {"b", 1},
                                                                 {"kb", 1000ULL},
                                                                 {"mb", 1000000ULL},
                                                                 {"gb", 1000000000ULL},
                                                                 {"tb", 1000000000000ULL},
                                                                 {"kib", 1ULL << 10},
                                                                 {"mib", 1ULL << 20},
                                                                 {"gib", 1ULL << 30},
                                                                 {"tib", 1ULL << 40}};
    uint64_t mult = 0;
    for (const auto& u : units)
    {
        mult = u.first == unit ? u.second : mult;
    }
    if (mult == 0)
    {
        Fail("accepted a size with an unknown unit", text);
    }
    // bytes * 10^decimals == digits * mult, exactly.
    std::string lhs = std::to_string(bytes) + std::string(n.decimals, '0');
    lhs = bytes == 0 ? "0" : lhs;
    if (lhs != MultiplyDecimal(n.digits, mult))
    {
        Fail("the size does not equal the text's digits times its unit", text);
    }
}

/**
 * \param text a rate the parser accepted.
 * \param rate what it returned.
 */
void
CheckRate(const std::string& text, const DataRate& rate)
{
    Number n;
    if (!SplitNumber(Trim(text), n) ||
        n.rest.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/") !=
            std::string::npos)
    {
        Fail("accepted a rate that is not a number and a unit (or none: bits per second)", text);
    }
    const double bps = static_cast<double>(rate.GetBitRate());
    if (rate.GetBitRate() == 0)
    {
        Fail("accepted a zero rate", text);
    }
    // The unit is bits or bytes with a decimal or a binary prefix; the rate is the number
    // times one of these, rounded down to a whole bit per second.
    bool matches = false;
    for (double bits : {1.0, 8.0})
    {
        for (double prefix : {1.0, 1e3, 1e6, 1e9, 1e12, 0x1p10, 0x1p20, 0x1p30, 0x1p40})
        {
            double expected = n.value * bits * prefix;
            matches = matches || std::fabs(bps - expected) <= 1.0 + expected * 1e-12;
        }
    }
    if (!matches)
    {
        Fail("the rate does not equal the text's number times a unit", text);
    }
}

/**
 * \param text a time the parser accepted.
 * \param time what it returned.
 */
void
CheckTime(const std::string& text, const Time& time)
{
    Number n;
    if (!SplitNumber(Trim(text), n))
    {
        Fail("accepted a time that is not a number", text);
    }
    const std::vector<std::pair<std::string, double>> units = {{"", 1},
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
    double factor = -1;
    for (const auto& u : units)
    {
        factor = u.first == n.rest ? u.second : factor;
    }
    if (factor < 0)
    {
        Fail("accepted a time with an unknown unit", text);
    }
    if (time.IsStrictlyNegative())
    {
        Fail("accepted a negative time", text);
    }
    // Within the resolution (one step of Time) and rounding.
    const double expected = n.value * factor;
    const double step = Time(1).GetSeconds();
    if (std::fabs(time.GetSeconds() - expected) > step + expected * 1e-12)
    {
        Fail("the time does not equal the text's number times its unit", text);
    }
}

/// The ranges ParseDouble and ParseUnsigned are tried with.
struct Range
{
    double dmin;   //!< Smallest double.
    double dmax;   //!< Largest double.
    uint64_t umin; //!< Smallest unsigned.
    uint64_t umax; //!< Largest unsigned.
};

const Range g_ranges[] = {
    {0, 1, 0, 1},
    {-1, 1, 1, 64},
    {0, 100, 2, 3},
    {1e-9, 1e9, 0, 1000000},
    {-std::numeric_limits<double>::max(),
     std::numeric_limits<double>::max(),
     0,
     std::numeric_limits<uint64_t>::max()},
};

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    const char kinds[] = "brtducl";
    char kind =
        std::strchr(kinds, data[0]) && data[0] ? static_cast<char>(data[0]) : kinds[data[0] % 7];
    std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const Range& range = g_ranges[(size > 1 ? data[1] : 0) % (sizeof(g_ranges) / sizeof(Range))];
    std::string error;
    switch (kind)
    {
    case 'b': {
        uint64_t bytes = 12345;
        if (OptionParser::ParseBytes(kOption, text, bytes, error))
        {
            CheckBytes(text, bytes);
        }
        else if (bytes != 12345)
        {
            Fail("a rejected size changed the output", text);
        }
        else
        {
            CheckError(error, text);
        }
        break;
    }
    case 'r': {
        DataRate rate("7bps");
        if (OptionParser::ParseRate(kOption, text, rate, error))
        {
            CheckRate(text, rate);
        }
        else if (rate.GetBitRate() != 7)
        {
            Fail("a rejected rate changed the output", text);
        }
        else
        {
            CheckError(error, text);
        }
        break;
    }
    case 't': {
        Time time = NanoSeconds(7);
        if (OptionParser::ParseTime(kOption, text, time, error))
        {
            CheckTime(text, time);
        }
        else if (time != NanoSeconds(7))
        {
            Fail("a rejected time changed the output", text);
        }
        else
        {
            CheckError(error, text);
        }
        break;
    }
    case 'd': {
        double value = -7;
        if (OptionParser::ParseDouble(kOption, text, range.dmin, range.dmax, value, error))
        {
            if (!std::isfinite(value) || value < range.dmin || value > range.dmax)
            {
                Fail("accepted a number out of range", text);
            }
        }
        else if (value != -7)
        {
            Fail("a rejected number changed the output", text);
        }
        else
        {
            CheckError(error, text);
        }
        break;
    }
    case 'u': {
        uint64_t value = 7;
        if (OptionParser::ParseUnsigned(kOption, text, range.umin, range.umax, value, error))
        {
            std::string digits = Trim(text);
            digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
            if (value < range.umin || value > range.umax || digits != std::to_string(value))
            {
                Fail("accepted a whole number out of range or unlike the text", text);
            }
        }
        else if (value != 7)
        {
            Fail("a rejected whole number changed the output", text);
        }
        else
        {
            CheckError(error, text);
        }
        break;
    }
    case 'c': {
        const std::vector<std::string> allowed = {"window", "dcqcn", "none", ""};
        bool accepted = OptionParser::ParseChoice(kOption, text, allowed, error);
        bool listed = false;
        for (const std::string& a : allowed)
        {
            listed = listed || a == text;
        }
        if (accepted != listed)
        {
            Fail("ParseChoice disagrees with the list", text);
        }
        if (!accepted)
        {
            CheckError(error, text);
        }
        break;
    }
    default: {
        std::vector<std::string> items = OptionParser::SplitList(text);
        size_t commas = 0;
        for (char c : text)
        {
            commas += c == ',';
        }
        if (items.size() != (Trim(text).empty() ? 0 : commas + 1))
        {
            Fail("SplitList gave a wrong number of items", text);
        }
        for (const std::string& item : items)
        {
            if (item != Trim(item) || item.find(',') != std::string::npos)
            {
                Fail("SplitList gave an untrimmed item", text);
            }
        }
        break;
    }
    }
    return 0;
}
