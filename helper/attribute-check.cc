/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-check.h"

#include "ns3/nstime.h"
#include "ns3/string.h"

#include <cstdlib>
#include <iostream>
#include <regex>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * Split ns-3's description of a bounded checker ("uint32_t 68:65535", "Time +1ns:+1e+09ns").
 * \param info the description
 * \param [out] min the lower bound's text
 * \param [out] max the upper bound's text
 * \return whether it had the shape "<type> <min>:<max>"
 */
bool
SplitBounds(const std::string& info, std::string& min, std::string& max)
{
    const std::size_t space = info.find(' ');
    const std::size_t colon = info.find(':', space == std::string::npos ? 0 : space);
    if (space == std::string::npos || colon == std::string::npos)
    {
        return false;
    }
    min = info.substr(space + 1, colon - space - 1);
    max = info.substr(colon + 1);
    return !min.empty() && !max.empty();
}

/**
 * \param text a time as ns-3 prints it ("+1e+09ns")
 * \return it in the unit that reads best ("+1s")
 */
std::string
ReadableTime(const std::string& text)
{
    std::ostringstream os;
    os << Time(text).As(Time::AUTO);
    return os.str();
}

/**
 * Whether ns-3 can read a text as a Time: Time(std::string) aborts on anything else.
 * \param text the text
 * \return true when it is a number with an optional unit ns-3 knows
 */
bool
ReadableAsTime(const std::string& text)
{
    static const std::regex time(
        R"(\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?(s|ms|us|ns|ps|fs|min|h|d|y)?\s*)");
    return std::regex_match(text, time);
}

} // namespace

std::string
AttributeCheck::Allowed(Ptr<const AttributeChecker> checker)
{
    const std::string kind = checker->GetValueTypeName();
    const std::string info =
        checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : kind;
    std::string min;
    std::string max;
    const bool bounded = SplitBounds(info, min, max);
    if (kind == "ns3::UintegerValue" || kind == "ns3::IntegerValue" || kind == "ns3::DoubleValue")
    {
        return bounded ? min + " to " + max : info;
    }
    if (kind == "ns3::TimeValue" && bounded)
    {
        // An unbounded maximum is the largest Time, printed rounded ("+9.22337e+18ns").
        if (Time(max).GetDouble() >= 0.999 * Time::Max().GetDouble())
        {
            return "a Time, at least " + ReadableTime(min);
        }
        return "a Time, " + ReadableTime(min) + " to " + ReadableTime(max);
    }
    if (kind == "ns3::BooleanValue")
    {
        return "true or false";
    }
    if (kind.rfind("ns3::EnumValue", 0) == 0 || info.find('|') != std::string::npos)
    {
        return std::regex_replace(info, std::regex("\\|"), ", ");
    }
    return info;
}

std::string
AttributeCheck::Check(const std::string& who,
                      TypeId tid,
                      const std::string& name,
                      const AttributeValue& value,
                      Ptr<AttributeValue>& valid)
{
    valid = nullptr;
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        return who + ": " + tid.GetName() + " has no attribute " + name;
    }
    const std::string attribute = tid.GetName() + "::" + name;
    const auto* text = dynamic_cast<const StringValue*>(&value);
    if (text && info.checker->GetValueTypeName() == "ns3::TimeValue" &&
        !ReadableAsTime(text->Get()))
    {
        return who + ": " + attribute + " = '" + text->Get() +
               "' is not a time; allowed: " + Allowed(info.checker);
    }
    // An enum name not in the checker's list: ns-3.41+ asserts while converting it, so the
    // name is looked up first (GetUnderlyingTypeInformation() lists "A|B|C").
    if (text && info.checker->GetValueTypeName().rfind("ns3::EnumValue", 0) == 0)
    {
        const std::string names = "|" + info.checker->GetUnderlyingTypeInformation() + "|";
        if (names.find("|" + text->Get() + "|") == std::string::npos)
        {
            return who + ": " + attribute + " = " + text->Get() +
                   " is not allowed; allowed: " + Allowed(info.checker);
        }
    }
    // Converts a StringValue like ObjectFactory does, and checks the range.
    valid = info.checker->CreateValidValue(value);
    if (valid)
    {
        return "";
    }
    Ptr<AttributeValue> sameKind = info.checker->Create();
    if (!text && !info.checker->Copy(value, *sameKind))
    {
        return who + ": " + attribute + " takes a " + info.checker->GetValueTypeName() +
               ", not the value given; allowed: " + Allowed(info.checker);
    }
    const std::string given = value.SerializeToString(info.checker);
    const std::string kind = info.checker->GetValueTypeName();
    const bool ranged = kind == "ns3::UintegerValue" || kind == "ns3::IntegerValue" ||
                        kind == "ns3::DoubleValue" || kind == "ns3::TimeValue";
    return who + ": " + attribute + " = " + (given.empty() ? "(the value given)" : given) +
           (ranged ? " is out of range" : " is not allowed") +
           "; allowed: " + Allowed(info.checker);
}

std::string
AttributeCheck::SetOn(const std::string& who,
                      ObjectFactory& factory,
                      const std::string& name,
                      const AttributeValue& value)
{
    Ptr<AttributeValue> valid;
    std::string error = Check(who, factory.GetTypeId(), name, value, valid);
    if (error.empty())
    {
        factory.Set(name, *valid);
    }
    return error;
}

void
AttributeCheck::Exit(const std::string& message)
{
    std::cerr << "error: " << message << std::endl;
    std::exit(1);
}

} // namespace ns3
