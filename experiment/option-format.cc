/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// OptionParser::Format*, ReadPrintedTime: quantities written as an option takes them.

#include "option-parser.h"

#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{

namespace
{

/**
 * \param value a quantity in its smallest unit
 * \param units the units, largest first, each with its size in the smallest unit
 * \param smallest the name of the smallest unit
 * \return it in the largest unit that writes it as a whole number (512KiB, 10ms, 400Gbps)
 */
template <typename T>
std::string
WithLargestUnit(T value, const std::vector<std::pair<const char*, T>>& units, const char* smallest)
{
    for (const auto& [name, scale] : units)
    {
        if (value != 0 && value % scale == 0)
        {
            return std::to_string(value / scale) + name;
        }
    }
    return std::to_string(value) + smallest;
}

} // namespace

bool
OptionParser::ReadPrintedTime(const std::string& text, long double& fs)
{
    static const std::vector<std::pair<std::string, long double>> units = {
        {"min", 60e15L},
        {"ms", 1e12L},
        {"us", 1e9L},
        {"ns", 1e6L},
        {"ps", 1e3L},
        {"fs", 1.0L},
        {"s", 1e15L},
        {"h", 3600e15L},
        {"d", 86400e15L},
        {"y", 365 * 86400e15L},
    };
    char* end = nullptr;
    const long double v = std::strtold(text.c_str(), &end);
    if (end == text.c_str())
    {
        return false;
    }
    const std::string unit = end;
    for (const auto& [name, scale] : units)
    {
        if (unit == name)
        {
            fs = v * scale;
            return true;
        }
    }
    return false;
}

std::string
OptionParser::FormatTime(Time t)
{
    if (t.IsZero())
    {
        return "0";
    }
    if (t >= Seconds(9000) || t <= Seconds(-9000))
    {
        std::ostringstream os;
        os << t.GetSeconds() << "s"; // beyond femtoseconds in 64 bits
        return os.str();
    }
    return WithLargestUnit<int64_t>(t.GetFemtoSeconds(),
                                    {{"s", 1000000000000000},
                                     {"ms", 1000000000000},
                                     {"us", 1000000000},
                                     {"ns", 1000000},
                                     {"ps", 1000}},
                                    "fs");
}

std::string
OptionParser::FormatBytes(uint64_t bytes)
{
    if (bytes == 0)
    {
        return "0";
    }
    return WithLargestUnit<uint64_t>(bytes,
                                     {{"TiB", uint64_t{1} << 40},
                                      {"GiB", uint64_t{1} << 30},
                                      {"MiB", uint64_t{1} << 20},
                                      {"KiB", uint64_t{1} << 10}},
                                     "");
}

std::string
OptionParser::FormatRate(DataRate rate)
{
    return WithLargestUnit<uint64_t>(
        rate.GetBitRate(),
        {{"Tbps", 1000000000000}, {"Gbps", 1000000000}, {"Mbps", 1000000}, {"Kbps", 1000}},
        "bps");
}

} // namespace ns3
