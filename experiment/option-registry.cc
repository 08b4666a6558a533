/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "option-registry.h"

#include "experiment-report.h"
#include "option-parser.h"

namespace ns3
{

void
OptionRegistry::Add(const std::string& name, const std::string& help, Target target, Check check)
{
    m_options.push_back({name, help, target});
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
OptionRegistry::AddCheck(Check check)
{
    m_checks.push_back(std::move(check));
}

void
OptionRegistry::AddToCommandLine(CommandLine& cmd) const
{
    for (const Option& o : m_options)
    {
        // Numbers and booleans are parsed strictly (OptionParser::AddValue), not by ns-3's
        // stream extraction, which takes "1.5" or "1e30" for 1.
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
