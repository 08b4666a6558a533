/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-size-cdf.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <sys/stat.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSizeCdf");

namespace
{

/// A built-in distribution: the same points as the file data/<name>.cdf.
struct Builtin
{
    const char* name; //!< Name accepted by Load().
    const char* text; //!< Points in the text format.
};

const Builtin g_builtins[] = {
    {"websearch",
     "0 0\n10000 15\n20000 20\n30000 30\n50000 40\n80000 53\n200000 60\n1000000 70\n"
     "2000000 80\n5000000 90\n10000000 97\n30000000 100\n"},
    {"hadoop",
     "0 0\n100 1\n200 2\n300 5\n350 15\n400 20\n500 30\n600 40\n700 50\n1000 60\n2000 67\n"
     "7000 70\n30000 72\n50000 82\n80000 87\n120000 90\n300000 95\n1000000 97.5\n2000000 99\n"
     "10000000 100\n"},
};

/**
 * Parse one number that must fill the whole token.
 * \param token the text.
 * \param [out] value the number.
 * \return whether the token is a finite number.
 */
bool
ParseNumber(const std::string& token, double& value)
{
    if (token.empty())
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    value = std::strtod(token.c_str(), &end);
    return errno == 0 && end == token.c_str() + token.size() && std::isfinite(value);
}

/**
 * \param names words.
 * \return them joined with commas.
 */
std::string
JoinNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& n : names)
    {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

} // namespace

FlowSizeCdf::FlowSizeCdf()
    : m_name()
{
    NS_LOG_FUNCTION(this);
}

bool
FlowSizeCdf::Parse(const std::string& text, std::string& error)
{
    NS_LOG_FUNCTION(this);
    std::vector<Point> points;
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    uint32_t lastLine = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::istringstream fields(line);
        std::string first;
        if (!(fields >> first) || first[0] == '#')
        {
            continue;
        }
        std::string second;
        std::string extra;
        fields >> second;
        fields >> extra;
        double bytes = 0;
        double percent = 0;
        std::ostringstream where;
        where << "line " << lineNo << ": ";
        if (!ParseNumber(first, bytes) || !ParseNumber(second, percent) || !extra.empty())
        {
            error = where.str() + "expected '<bytes> <cumulative percent>', got '" + line + "'";
            return false;
        }
        if (bytes < 0 || bytes > MAX_BYTES)
        {
            error = where.str() + "flow size must lie in [0, 1099511627776] bytes (1 TiB), got '" +
                    first + "'";
            return false;
        }
        if (percent < 0 || percent > 100)
        {
            error = where.str() + "cumulative percent must lie in [0, 100], got '" + second + "'";
            return false;
        }
        if (!points.empty() &&
            (bytes < points.back().bytes || percent / 100.0 < points.back().cumulative))
        {
            std::ostringstream msg;
            msg << where.str() << "sizes and percents must be non-decreasing; the point before is "
                << points.back().bytes << " bytes at " << points.back().cumulative * 100 << "%";
            error = msg.str();
            return false;
        }
        points.push_back({bytes, percent / 100.0});
        lastLine = lineNo;
    }
    if (points.empty())
    {
        error = "no points; expected lines '<bytes> <cumulative percent>' ending at 100 percent";
        return false;
    }
    if (points.back().cumulative != 1.0)
    {
        std::ostringstream msg;
        msg << "line " << lastLine << ": the last point must be at 100 percent, got "
            << points.back().cumulative * 100;
        error = msg.str();
        return false;
    }
    std::swap(m_points, points);
    if (GetMean() < 1)
    {
        std::swap(m_points, points);
        error = "line " + std::to_string(lastLine) +
                ": the mean flow size must be at least 1 byte (the distribution ends here)";
        return false;
    }
    m_name = "custom";
    return true;
}

bool
FlowSizeCdf::Load(const std::string& nameOrPath, std::string& error)
{
    NS_LOG_FUNCTION(this << nameOrPath);
    std::string text = GetBuiltinText(nameOrPath);
    if (text.empty())
    {
        std::ifstream file(nameOrPath);
        struct stat info;
        if (stat(nameOrPath.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
        {
            error = "'" + nameOrPath + "' is a directory; allowed: a built-in distribution (" +
                    JoinNames(GetBuiltinNames()) + ") or a file";
            return false;
        }
        if (!file)
        {
            error = "'" + nameOrPath + "' is neither a built-in distribution (" +
                    JoinNames(GetBuiltinNames()) +
                    ") nor a readable file; allowed: one of those names or the path of a file of "
                    "'<bytes> <cumulative percent>' lines";
            return false;
        }
        std::ostringstream content;
        content << file.rdbuf();
        text = content.str();
    }
    if (!Parse(text, error))
    {
        error = nameOrPath + ": " + error;
        return false;
    }
    m_name = nameOrPath;
    return true;
}

std::vector<std::string>
FlowSizeCdf::GetBuiltinNames()
{
    std::vector<std::string> names;
    for (const auto& b : g_builtins)
    {
        names.emplace_back(b.name);
    }
    return names;
}

std::string
FlowSizeCdf::GetBuiltinText(const std::string& name)
{
    for (const auto& b : g_builtins)
    {
        if (name == b.name)
        {
            return b.text;
        }
    }
    return "";
}

const std::string&
FlowSizeCdf::GetName() const
{
    return m_name;
}

const std::vector<FlowSizeCdf::Point>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

bool
FlowSizeCdf::IsValid() const
{
    return !m_points.empty();
}

double
FlowSizeCdf::GetMean() const
{
    NS_ASSERT_MSG(IsValid(), "FlowSizeCdf: no distribution loaded");
    // The probability mass at or below the first point sits on the first size; each segment
    // is uniform between its two sizes.
    double mean = m_points.front().cumulative * m_points.front().bytes;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        const Point& a = m_points[i - 1];
        const Point& b = m_points[i];
        mean += (b.cumulative - a.cumulative) * (a.bytes + b.bytes) / 2.0;
    }
    return mean;
}

double
FlowSizeCdf::GetMax() const
{
    NS_ASSERT_MSG(IsValid(), "FlowSizeCdf: no distribution loaded");
    return m_points.back().bytes;
}

double
FlowSizeCdf::Quantile(double u) const
{
    NS_ASSERT_MSG(IsValid(), "FlowSizeCdf: no distribution loaded");
    if (u <= m_points.front().cumulative)
    {
        return m_points.front().bytes;
    }
    if (u >= m_points.back().cumulative)
    {
        return m_points.back().bytes;
    }
    // The first point above u, and the one before it (whose probability is <= u).
    size_t hi = 1;
    while (m_points[hi].cumulative <= u)
    {
        ++hi;
    }
    const Point& a = m_points[hi - 1];
    const Point& b = m_points[hi];
    return a.bytes + (b.bytes - a.bytes) * (u - a.cumulative) / (b.cumulative - a.cumulative);
}

Ptr<EmpiricalRandomVariable>
FlowSizeCdf::MakeRandomVariable() const
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(IsValid(), "FlowSizeCdf: no distribution loaded");
    Ptr<EmpiricalRandomVariable> rv = CreateObject<EmpiricalRandomVariable>();
    rv->SetAttribute("Interpolate", BooleanValue(true));
    for (const Point& p : m_points)
    {
        rv->CDF(p.bytes, p.cumulative);
    }
    return rv;
}

} // namespace ns3
