/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "option-parser.h"

#include "ns3/global-value.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <iostream>
#include <limits>
#include <utility>

/**
 * \file
 * \ingroup reps
 * OptionParser::Parse() and OptionParser::CheckAttributeDefault(): attribute defaults given on
 * the command line ("--ns3::Type::Attribute=value"), checked before ns-3's CommandLine applies
 * them; and OptionParser::Exit(), where every refusal ends (or goes to the handler of
 * SetExitHandler()).
 */

namespace ns3
{

namespace
{

/**
 * \param tid a type
 * \return the names of its attributes and of its parents' attributes
 */
std::vector<std::string>
AttributeNames(TypeId tid)
{
    std::vector<std::string> names;
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            names.push_back(t.GetAttribute(i).name);
        }
        if (t == t.GetParent())
        {
            return names;
        }
    }
}

/**
 * Whether a value can be read as the attribute's kind of value, read with the module's own
 * parsers: ns-3 aborts on a malformed number or time rather than refusing it.
 * \param option the argument, for the parsers
 * \param kind the checker's value type name ("ns3::UintegerValue", ...)
 * \param value the text
 * \return false when it cannot be read (other kinds: true, the checker decides)
 */
bool
Readable(const std::string& option, const std::string& kind, const std::string& value)
{
    std::string ignored;
    if (kind == "ns3::UintegerValue")
    {
        uint64_t v = 0;
        return OptionParser::ParseUnsigned(option,
                                           value,
                                           0,
                                           std::numeric_limits<uint64_t>::max(),
                                           v,
                                           ignored);
    }
    if (kind == "ns3::IntegerValue")
    {
        int64_t v = 0;
        return OptionParser::ParseInteger(option,
                                          value,
                                          std::numeric_limits<int64_t>::min(),
                                          std::numeric_limits<int64_t>::max(),
                                          v,
                                          ignored);
    }
    if (kind == "ns3::DoubleValue")
    {
        double v = 0;
        return OptionParser::ParseDouble(option,
                                         value,
                                         std::numeric_limits<double>::lowest(),
                                         std::numeric_limits<double>::max(),
                                         v,
                                         ignored);
    }
    if (kind == "ns3::TimeValue")
    {
        // The checker judges the sign; the parser reads non-negative times.
        Time v;
        const bool negative = !value.empty() && value[0] == '-';
        return OptionParser::ParseTime(option, negative ? value.substr(1) : value, v, ignored);
    }
    if (kind == "ns3::DataRateValue")
    {
        DataRate v;
        return OptionParser::ParseRate(option, value, v, ignored);
    }
    return true;
}

} // namespace

bool
OptionParser::CheckAttributeDefault(const std::string& name,
                                    const std::string& value,
                                    std::string& error)
{
    const std::string option = "--" + name;
    const std::size_t cut = name.rfind("::");
    if (cut == std::string::npos || cut == 0 || cut + 2 >= name.size())
    {
        error = option + ": not an option of this program; allowed: its options (--help) or "
                         "an attribute default --ns3::<Type>::<Attribute>=<value>";
        return false;
    }
    const std::string type = name.substr(0, cut);
    const std::string attribute = name.substr(cut + 2);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        error = option + ": no type '" + type +
                "'; allowed: the name of a registered type with its namespace, e.g. "
                "ns3::MrcPathSelector (--PrintTypeIds lists them)";
        return false;
    }
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        const std::vector<std::string> names = AttributeNames(tid);
        error = option + ": " + type + " has no attribute '" + attribute + "'; allowed: " +
                (names.empty() ? std::string("none (it has no attributes)") : Join(names));
        return false;
    }
    if (!(info.flags & TypeId::ATTR_CONSTRUCT))
    {
        error = option + ": " + type + "::" + attribute +
                " cannot be given a default (it is not set at construction)";
        return false;
    }
    if (!Readable(option, info.checker->GetValueTypeName(), value) ||
        !info.checker->CreateValidValue(StringValue(value)))
    {
        error = option + ": '" + value +
                "' is not allowed; allowed: " + info.checker->GetUnderlyingTypeInformation();
        return false;
    }
    error.clear();
    return true;
}

void
OptionParser::PreferFastScheduler()
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env && std::string(env).find("SchedulerType=") != std::string::npos)
    {
        return;
    }
    GlobalValue::Bind("SchedulerType", StringValue(DEFAULT_SCHEDULER));
}

void
OptionParser::Parse(CommandLine& cmd, int argc, char* argv[])
{
    PreferFastScheduler();
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.size() < 3 || arg.compare(0, 2, "--") != 0)
        {
            continue;
        }
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
        const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (name.find("::") == std::string::npos)
        {
            continue; // the program's options, --help, --PrintAttributes=..., global values
        }
        StringValue global;
        if (GlobalValue::GetValueByNameFailSafe(name, global))
        {
            continue;
        }
        std::string error;
        if (!CheckAttributeDefault(name, value, error))
        {
            Exit(error);
        }
    }
    cmd.Parse(argc, argv);
}

namespace
{
/// \return the handler of SetExitHandler() (empty: exit)
OptionParser::ExitHandler&
ExitHandlerSlot()
{
    static OptionParser::ExitHandler handler;
    return handler;
}
} // namespace

void
OptionParser::SetExitHandler(ExitHandler handler)
{
    ExitHandlerSlot() = std::move(handler);
}

void
OptionParser::Exit(const std::string& message)
{
    if (ExitHandlerSlot())
    {
        ExitHandlerSlot()(message);
    }
    std::cerr << "error: " << message << std::endl;
    std::exit(1);
}

} // namespace ns3
