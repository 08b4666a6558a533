/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "path-selector-names.h"

#include "option-parser.h"

#include "ns3/log.h"
#include "ns3/path-selector.h"

#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathSelectorNames");

const std::vector<PathSelectorNames::Entry>&
PathSelectorNames::GetTable()
{
    static const std::vector<Entry> table = {
        {"ecmp", "ns3::EcmpPathSelector"},
        {"ops", "ns3::OpsPathSelector"},
        {"flowlet", "ns3::FlowletPathSelector"},
        {"reps", "ns3::RepsPathSelector"},
        {"mp", "ns3::MpPathSelector"},
        {"plb", "ns3::PlbPathSelector"},
        {"bitmap", "ns3::BitmapPathSelector"},
        {"mprdma", "ns3::MprdmaPathSelector"},
    };
    return table;
}

std::vector<std::string>
PathSelectorNames::GetAvailableNames()
{
    std::vector<std::string> names;
    for (const Entry& e : GetTable())
    {
        TypeId tid;
        if (TypeId::LookupByNameFailSafe(e.second, &tid))
        {
            names.push_back(e.first);
        }
    }
    return names;
}

bool
PathSelectorNames::Lookup(const std::string& name, Choice& choice, std::string& error)
{
    NS_LOG_FUNCTION(name);
    std::string allowed = OptionParser::Join(GetAvailableNames()) +
                          ", or the TypeId of a PathSelector subclass (ns3::...)";
    for (const Entry& e : GetTable())
    {
        if (name == e.first)
        {
            TypeId tid;
            if (!TypeId::LookupByNameFailSafe(e.second, &tid))
            {
                error = "'" + name + "' (" + e.second +
                        ") is not built into this version of the module; allowed: " + allowed;
                return false;
            }
            choice.name = e.first;
            choice.tid = tid;
            return true;
        }
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid))
    {
        error = "unknown path selector '" + name + "'; allowed: " + allowed;
        return false;
    }
    if (!tid.IsChildOf(PathSelector::GetTypeId()) || !tid.HasConstructor())
    {
        error = "'" + name + "' is not a PathSelector that can be created; allowed: " + allowed;
        return false;
    }
    choice.name = GetShortName(tid);
    choice.tid = tid;
    return true;
}

bool
PathSelectorNames::ParseList(const std::string& option,
                             const std::string& text,
                             std::vector<Choice>& choices,
                             std::string& error)
{
    NS_LOG_FUNCTION(option << text);
    std::vector<Choice> out;
    std::set<std::string> seen;
    std::vector<std::string> items = OptionParser::SplitList(text);
    if (items.empty())
    {
        error = option +
                ": no path selector given; allowed: " + OptionParser::Join(GetAvailableNames());
        return false;
    }
    for (const std::string& item : items)
    {
        Choice c;
        std::string why;
        if (!Lookup(item, c, why))
        {
            error = option + ": " + why;
            return false;
        }
        if (!seen.insert(c.name).second)
        {
            error = option + ": '" + item + "' is listed twice";
            return false;
        }
        out.push_back(c);
    }
    choices = out;
    return true;
}

std::vector<PathSelectorNames::Choice>
PathSelectorNames::ParseListOrExit(const std::string& option, const std::string& text)
{
    std::vector<Choice> choices;
    std::string error;
    if (!ParseList(option, text, choices, error))
    {
        OptionParser::Exit(error);
    }
    return choices;
}

std::string
PathSelectorNames::GetShortName(TypeId tid)
{
    for (const Entry& e : GetTable())
    {
        if (tid.GetName() == e.second)
        {
            return e.first;
        }
    }
    return tid.GetName();
}

} // namespace ns3
