/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "option-registry.h"

#include "experiment-report.h"
#include "option-parser.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

void
OptionRegistry::Add(const std::string& name, const std::string& help, Target target, Check check)
{
    NS_ABORT_MSG_IF(Find(name), "OptionRegistry: --" << name << " is registered twice");
    m_options.push_back({name, help, target, nullptr});
    if (check)
    {
        m_checks.push_back(std::move(check));
    }
}

std::function<double()>
OptionRegistry::Fixed(double v)
{
    return [v]() { return v; };
}

void
OptionRegistry::CheckRange(const std::string& option, double value, double min, double max)
{
    OptionParser::CheckRangeOrExit(option, value, min, max);
}

void
OptionRegistry::AddChoice(const std::string& name,
                          const std::string& help,
                          std::string* target,
                          const std::vector<std::string>& allowed)
{
    Add(name, help, target, [name, target, allowed]() {
        OptionParser::ChoiceOrExit("--" + name, *target, allowed);
    });
}

void
OptionRegistry::AddTime(const std::string& name,
                        const std::string& help,
                        std::string* text,
                        Time* parsed)
{
    Add(name, help, text, [name, text, parsed]() {
        *parsed = OptionParser::TimeOrExit("--" + name, *text);
    });
}

void
OptionRegistry::AddRate(const std::string& name,
                        const std::string& help,
                        std::string* text,
                        DataRate* parsed)
{
    Add(name, help, text, [name, text, parsed]() {
        *parsed = OptionParser::RateOrExit("--" + name, *text);
    });
}

void
OptionRegistry::AddBytes(const std::string& name,
                         const std::string& help,
                         std::string* text,
                         uint64_t* parsed,
                         uint64_t min)
{
    Add(name, help, text, [name, text, parsed, min]() {
        *parsed = OptionParser::BytesOrExit("--" + name, *text, min);
    });
}

void
OptionRegistry::AddAttribute(const std::string& name,
                             const std::string& path,
                             AttributeAlias::Unit unit)
{
    NS_ABORT_MSG_IF(Find(name), "OptionRegistry: --" << name << " is registered twice");
    m_aliases.emplace_back(name, path, unit);
    m_options.push_back({name, "", Target{}, &m_aliases.back()});
}

const OptionRegistry::Option*
OptionRegistry::Find(const std::string& name) const
{
    auto it = std::find_if(m_options.begin(), m_options.end(), [&name](const Option& o) {
        return o.name == name;
    });
    return it == m_options.end() ? nullptr : &*it;
}

bool
OptionRegistry::Set(const std::string& name, const std::string& text, std::string& error)
{
    const Option* o = Find(name);
    if (!o)
    {
        error = "--" + name + ": not an option; allowed: " + OptionParser::Join(GetNames());
        return false;
    }
    if (o->alias)
    {
        return o->alias->Set(text, error);
    }
    return std::visit(
        [&](auto* value) { return OptionParser::ParseValue("--" + name, text, *value, error); },
        o->target);
}

const AttributeAlias&
OptionRegistry::GetAlias(const std::string& name) const
{
    const Option* o = Find(name);
    NS_ABORT_MSG_UNLESS(o && o->alias, "OptionRegistry: --" << name << " names no attribute");
    return *o->alias;
}

std::vector<const AttributeAlias*>
OptionRegistry::GetAliases() const
{
    std::vector<const AttributeAlias*> aliases;
    for (const AttributeAlias& a : m_aliases)
    {
        aliases.push_back(&a);
    }
    return aliases;
}

void
OptionRegistry::AddCheck(Check check)
{
    m_checks.push_back(std::move(check));
}

void
OptionRegistry::AddToCommandLine(CommandLine& cmd) const
{
    for (const Option& o : m_options)
    {
        // Numbers and booleans are parsed strictly (OptionParser::ParseValue), not by ns-3's
        // stream extraction, which takes "1.5" or "1e30" for 1.
        if (o.alias)
        {
            AttributeAlias* alias = o.alias;
            OptionParser::AddParsedValue(
                cmd,
                o.name,
                alias->GetHelp(),
                alias->GetText(),
                [alias](const std::string&, const std::string& text, std::string& error) {
                    return alias->Set(text, error);
                });
            continue;
        }
        std::visit([&cmd, &o](auto* value) { OptionParser::AddValue(cmd, o.name, o.help, *value); },
                   o.target);
    }
}

void
OptionRegistry::CheckAll() const
{
    for (const Check& check : m_checks)
    {
        check();
    }
}

void
OptionRegistry::FillConfig(ExperimentReport& report) const
{
    for (const Option& o : m_options)
    {
        if (o.alias)
        {
            o.alias->Record(report);
            continue;
        }
        std::visit([&report, &o](auto* value) { report.SetConfig(o.name, *value); }, o.target);
    }
}

std::vector<std::string>
OptionRegistry::GetNames() const
{
    std::vector<std::string> names;
    for (const Option& o : m_options)
    {
        names.push_back(o.name);
    }
    return names;
}

} // namespace ns3
