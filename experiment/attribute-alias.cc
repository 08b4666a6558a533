/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-alias.h"

#include "experiment-report.h"
#include "option-parser.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AttributeAlias");

namespace
{

/// \return the defaults of the aliased attributes as the process first saw them, by path
std::map<std::string, Ptr<const AttributeValue>>&
OriginalDefaults()
{
    static std::map<std::string, Ptr<const AttributeValue>> originals;
    return originals;
}

/**
 * \param s a text
 * \return it in lower case
 */
std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return s;
}

/**
 * The bounds a checker prints after its type name ("uint32_t 1:65536", "Time +0ns:+1e+09ns").
 * \param info the checker's underlying type information
 * \param [out] min the text of the lower bound
 * \param [out] max the text of the upper bound
 * \return whether there were bounds
 */
bool
SplitBounds(const std::string& info, std::string& min, std::string& max)
{
    const std::size_t space = info.rfind(' ');
    const std::string range = space == std::string::npos ? info : info.substr(space + 1);
    // The colon between the bounds: the first one not at the start (a bound may be negative).
    const std::size_t colon = range.find(':', 1);
    if (colon == std::string::npos)
    {
        return false;
    }
    min = range.substr(0, colon);
    max = range.substr(colon + 1);
    return true;
}

} // namespace

AttributeAlias::AttributeAlias(const std::string& name, const std::string& path, Unit unit)
    : m_name(name),
      m_path(path),
      m_unit(unit),
      m_kind(Kind::OTHER)
{
    NS_LOG_FUNCTION(this << name << path);
    const std::size_t cut = path.rfind("::");
    NS_ABORT_MSG_IF(cut == std::string::npos, "AttributeAlias: '" << path << "' is no attribute");
    m_attribute = path.substr(cut + 2);
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(path.substr(0, cut), &m_tid),
                        "AttributeAlias --" << name << ": no type " << path.substr(0, cut));
    bool own = false;
    for (std::size_t i = 0; i < m_tid.GetAttributeN(); ++i)
    {
        own = own || m_tid.GetAttribute(i).name == m_attribute;
    }
    // Config::SetDefault() reaches an attribute through the type that declares it.
    NS_ABORT_MSG_UNLESS(own && m_tid.LookupAttributeByName(m_attribute, &m_info),
                        "AttributeAlias --" << name << ": " << path.substr(0, cut)
                                            << " declares no attribute " << m_attribute);
    // Checkers name their value type with or without the namespace, depending on the type.
    static const std::map<std::string, Kind> kinds = {
        {"UintegerValue", Kind::UNSIGNED},
        {"IntegerValue", Kind::SIGNED},
        {"DoubleValue", Kind::REAL},
        {"BooleanValue", Kind::BOOLEAN},
        {"TimeValue", Kind::TIME},
        {"DataRateValue", Kind::RATE},
        {"QueueSizeValue", Kind::QUEUE},
        {"EnumValue", Kind::ENUM},
    };
    std::string type = m_info.checker->GetValueTypeName();
    if (type.compare(0, 5, "ns3::") == 0)
    {
        type = type.substr(5);
    }
    if (type.compare(0, 10, "EnumValue<") == 0)
    {
        type = "EnumValue"; // ns-3.41 and later: EnumValue<T>
    }
    auto kind = kinds.find(type);
    m_kind = kind == kinds.end() ? Kind::OTHER : kind->second;
    NS_ABORT_MSG_IF(unit == Unit::BYTES && m_kind != Kind::UNSIGNED,
                    "AttributeAlias --" << name << ": bytes need a whole-number attribute");
    NS_ABORT_MSG_IF(unit == Unit::PACKETS && m_kind != Kind::QUEUE,
                    "AttributeAlias --" << name << ": packets need a QueueSize attribute");
    NS_ABORT_MSG_IF(unit == Unit::NEVER && m_kind != Kind::TIME,
                    "AttributeAlias --" << name << ": never needs a Time attribute");
    auto& originals = OriginalDefaults();
    auto found = originals.find(path);
    if (found == originals.end())
    {
        found = originals.emplace(path, m_info.initialValue->Copy()).first;
    }
    m_original = found->second;
    Config::SetDefault(m_path, *m_original);
}

const std::string&
AttributeAlias::GetName() const
{
    return m_name;
}

const std::string&
AttributeAlias::GetPath() const
{
    return m_path;
}

std::vector<std::string>
AttributeAlias::EnumNames() const
{
    std::vector<std::string> names;
    std::istringstream is(m_info.checker->GetUnderlyingTypeInformation());
    std::string name;
    while (std::getline(is, name, '|'))
    {
        names.push_back(name);
    }
    return names;
}

std::string
AttributeAlias::GetAllowed() const
{
    const std::string info = m_info.checker->GetUnderlyingTypeInformation();
    std::string min;
    std::string max;
    const bool bounded = SplitBounds(info, min, max);
    switch (m_kind)
    {
    case Kind::UNSIGNED:
        if (m_unit == Unit::BYTES)
        {
            return "bytes, e.g. 512KiB; " +
                   OptionParser::FormatBytes(std::strtoull(min.c_str(), nullptr, 10)) + " to " +
                   OptionParser::FormatBytes(std::strtoull(max.c_str(), nullptr, 10));
        }
        return bounded ? min + " to " + max : info;
    case Kind::SIGNED:
    case Kind::REAL:
        return bounded ? min + " to " + max : info;
    case Kind::BOOLEAN:
        return "true or false";
    case Kind::TIME: {
        const std::string never = m_unit == Unit::NEVER ? ", or never" : "";
        long double lo = 0;
        long double hi = 0;
        if (!bounded || !OptionParser::ReadPrintedTime(min, lo) ||
            !OptionParser::ReadPrintedTime(max, hi))
        {
            return "a Time, e.g. 10us" + never;
        }
        const std::string low = OptionParser::FormatTime(FemtoSeconds(static_cast<int64_t>(lo)));
        if (hi >= 9.0e18L)
        {
            return "a Time, at least " + low + never;
        }
        return "a Time, " + low + " to " +
               OptionParser::FormatTime(FemtoSeconds(static_cast<int64_t>(hi))) + never;
    }
    case Kind::RATE:
        return "a DataRate, e.g. 400Gbps";
    case Kind::QUEUE:
        return m_unit == Unit::PACKETS ? "packets" : "a queue size, e.g. 100p or 150000B";
    case Kind::ENUM: {
        std::vector<std::string> names = EnumNames();
        std::transform(names.begin(), names.end(), names.begin(), Lower);
        return OptionParser::Join(names, " or ");
    }
    case Kind::OTHER:
        break;
    }
    return info;
}

std::string
AttributeAlias::GetHelp() const
{
    return m_info.help + " (" + GetAllowed() + "; attribute " + m_path + ")";
}

Ptr<AttributeValue>
AttributeAlias::ParseWhole(const std::string& text, std::string& error) const
{
    const std::string option = "--" + m_name;
    std::string min;
    std::string max;
    const std::string info = m_info.checker->GetUnderlyingTypeInformation();
    const bool bounded = SplitBounds(info, min, max);
    if (m_kind == Kind::SIGNED)
    {
        int64_t v = 0;
        const int64_t lo = bounded ? std::strtoll(min.c_str(), nullptr, 10) : INT64_MIN;
        const int64_t hi = bounded ? std::strtoll(max.c_str(), nullptr, 10) : INT64_MAX;
        return OptionParser::ParseInteger(option, text, lo, hi, v, error) ? Create<IntegerValue>(v)
                                                                          : nullptr;
    }
    const uint64_t lo = bounded ? std::strtoull(min.c_str(), nullptr, 10) : 0;
    const uint64_t hi = bounded ? std::strtoull(max.c_str(), nullptr, 10) : UINT64_MAX;
    uint64_t v = 0;
    if (m_unit != Unit::BYTES)
    {
        return OptionParser::ParseUnsigned(option, text, lo, hi, v, error)
                   ? Create<UintegerValue>(v)
                   : nullptr;
    }
    if (!OptionParser::ParseBytes(option, text, v, error))
    {
        return nullptr;
    }
    if (v < lo || v > hi)
    {
        error = option + ": " + text +
                " is out of range; allowed: " + OptionParser::FormatBytes(lo) + " to " +
                OptionParser::FormatBytes(hi);
        return nullptr;
    }
    return Create<UintegerValue>(v);
}

Ptr<AttributeValue>
AttributeAlias::ParseTimeValue(const std::string& text, std::string& error) const
{
    const std::string option = "--" + m_name;
    if (m_unit == Unit::NEVER && text == "never")
    {
        return Create<TimeValue>(Time::Max());
    }
    Time t;
    if (!OptionParser::ParseTime(option, text, t, error))
    {
        return nullptr;
    }
    Ptr<AttributeValue> v = Create<TimeValue>(t);
    if (!m_info.checker->Check(*v))
    {
        error = option + ": " + text + " is out of range; allowed: " + GetAllowed();
        return nullptr;
    }
    return v;
}

Ptr<AttributeValue>
AttributeAlias::ParseEnum(const std::string& text, std::string& error) const
{
    std::vector<std::string> lower;
    for (const std::string& name : EnumNames())
    {
        if (Lower(name) == Lower(text))
        {
            return m_info.checker->CreateValidValue(StringValue(name));
        }
        lower.push_back(Lower(name));
    }
    OptionParser::ParseChoice("--" + m_name, text, lower, error);
    return nullptr;
}

Ptr<AttributeValue>
AttributeAlias::Parse(const std::string& text, std::string& error) const
{
    const std::string option = "--" + m_name;
    Ptr<AttributeValue> v;
    switch (m_kind)
    {
    case Kind::UNSIGNED:
    case Kind::SIGNED:
        v = ParseWhole(text, error);
        break;
    case Kind::REAL: {
        std::string min;
        std::string max;
        double d = 0;
        const double big = std::numeric_limits<double>::max();
        const bool bounded = SplitBounds(m_info.checker->GetUnderlyingTypeInformation(), min, max);
        const double lo = bounded ? std::strtod(min.c_str(), nullptr) : -big;
        const double hi = bounded ? std::strtod(max.c_str(), nullptr) : big;
        v = OptionParser::ParseDouble(option, text, std::max(lo, -big), std::min(hi, big), d, error)
                ? Create<DoubleValue>(d)
                : nullptr;
        break;
    }
    case Kind::BOOLEAN: {
        bool b = false;
        v = OptionParser::ParseBool(option, text, b, error) ? Create<BooleanValue>(b) : nullptr;
        break;
    }
    case Kind::TIME:
        return ParseTimeValue(text, error);
    case Kind::RATE: {
        DataRate rate;
        v = OptionParser::ParseRate(option, text, rate, error) ? Create<DataRateValue>(rate)
                                                               : nullptr;
        break;
    }
    case Kind::QUEUE: {
        uint64_t n = 0;
        std::string number = text;
        const char unit = text.empty() ? 'p' : text.back();
        if (m_unit != Unit::PACKETS && (unit == 'p' || unit == 'B'))
        {
            number.pop_back();
        }
        if (!OptionParser::ParseUnsigned(option, number, 0, UINT32_MAX, n, error))
        {
            return nullptr;
        }
        const QueueSizeUnit qu = (m_unit == Unit::PACKETS || unit != 'B') ? QueueSizeUnit::PACKETS
                                                                          : QueueSizeUnit::BYTES;
        v = Create<QueueSizeValue>(QueueSize(qu, static_cast<uint32_t>(n)));
        break;
    }
    case Kind::ENUM:
        return ParseEnum(text, error);
    case Kind::OTHER:
        v = m_info.checker->CreateValidValue(StringValue(text));
        break;
    }
    if (!v && error.empty())
    {
        error = option + ": '" + text + "' is not allowed; allowed: " + GetAllowed();
    }
    if (v && !m_info.checker->Check(*v))
    {
        error = option + ": " + text + " is out of range; allowed: " + GetAllowed();
        return nullptr;
    }
    return v;
}

bool
AttributeAlias::Set(const std::string& text, std::string& error)
{
    NS_LOG_FUNCTION(this << text);
    error.clear();
    Ptr<AttributeValue> v = Parse(text, error);
    if (!v)
    {
        return false;
    }
    Config::SetDefault(m_path, *v);
    return true;
}

Ptr<AttributeValue>
AttributeAlias::GetValue() const
{
    TypeId::AttributeInformation info;
    m_tid.LookupAttributeByName(m_attribute, &info);
    return info.initialValue->Copy();
}

Ptr<const AttributeValue>
AttributeAlias::GetOriginalValue() const
{
    return m_original;
}

std::string
AttributeAlias::Format(const AttributeValue& value) const
{
    switch (m_kind)
    {
    case Kind::UNSIGNED: {
        const uint64_t v = dynamic_cast<const UintegerValue&>(value).Get();
        return m_unit == Unit::BYTES ? OptionParser::FormatBytes(v) : std::to_string(v);
    }
    case Kind::TIME: {
        const Time t = dynamic_cast<const TimeValue&>(value).Get();
        return m_unit == Unit::NEVER && t == Time::Max() ? "never" : OptionParser::FormatTime(t);
    }
    case Kind::RATE:
        return OptionParser::FormatRate(dynamic_cast<const DataRateValue&>(value).Get());
    case Kind::QUEUE: {
        const QueueSize q = dynamic_cast<const QueueSizeValue&>(value).Get();
        if (m_unit == Unit::PACKETS && q.GetUnit() == QueueSizeUnit::PACKETS)
        {
            return std::to_string(q.GetValue());
        }
        return value.SerializeToString(m_info.checker);
    }
    case Kind::ENUM:
        return Lower(value.SerializeToString(m_info.checker));
    default:
        return value.SerializeToString(m_info.checker);
    }
}

std::string
AttributeAlias::GetText() const
{
    return Format(*GetValue());
}

uint64_t
AttributeAlias::GetUnsigned() const
{
    Ptr<AttributeValue> v = GetValue();
    switch (m_kind)
    {
    case Kind::UNSIGNED:
        return DynamicCast<UintegerValue>(v)->Get();
    case Kind::BOOLEAN:
        return DynamicCast<BooleanValue>(v)->Get() ? 1 : 0;
    case Kind::QUEUE:
        return DynamicCast<QueueSizeValue>(v)->Get().GetValue();
    default:
        NS_FATAL_ERROR("AttributeAlias --" << m_name << ": " << m_path << " is not a count");
    }
}

Time
AttributeAlias::GetTime() const
{
    NS_ABORT_MSG_UNLESS(m_kind == Kind::TIME,
                        "AttributeAlias --" << m_name << ": " << m_path << " is not a Time");
    return DynamicCast<TimeValue>(GetValue())->Get();
}

void
AttributeAlias::Record(ExperimentReport& report) const
{
    Ptr<AttributeValue> v = GetValue();
    switch (m_kind)
    {
    case Kind::UNSIGNED:
        if (m_unit != Unit::BYTES)
        {
            report.SetConfig(m_name, DynamicCast<UintegerValue>(v)->Get());
            return;
        }
        break;
    case Kind::SIGNED:
        report.SetConfig(m_name, DynamicCast<IntegerValue>(v)->Get());
        return;
    case Kind::REAL:
        report.SetConfig(m_name, DynamicCast<DoubleValue>(v)->Get());
        return;
    case Kind::BOOLEAN:
        report.SetConfig(m_name, DynamicCast<BooleanValue>(v)->Get());
        return;
    case Kind::QUEUE:
        if (m_unit == Unit::PACKETS &&
            DynamicCast<QueueSizeValue>(v)->Get().GetUnit() == QueueSizeUnit::PACKETS)
        {
            report.SetConfig(m_name, static_cast<uint64_t>(GetUnsigned()));
            return;
        }
        break;
    default:
        break;
    }
    report.SetConfig(m_name, Format(*v));
}

} // namespace ns3
