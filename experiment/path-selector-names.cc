/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "path-selector-names.h"

#include "option-parser.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/path-selector.h"
#include "ns3/port-selector.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathSelectorNames");

namespace
{

/**
 * \param object a path selector.
 * \return its short name.
 */
std::string
PathSelectorName(Ptr<Object> object)
{
    return DynamicCast<PathSelector>(object)->GetName();
}

/**
 * \param object a congestion controller.
 * \return its short name.
 */
std::string
CongestionControlName(Ptr<Object> object)
{
    return DynamicCast<RdmaCongestionControl>(object)->GetName();
}

/**
 * \param table names and TypeIds, sorted by name.
 * \return the names, each once.
 */
std::vector<std::string>
UniqueNames(const std::vector<PathSelectorNames::Entry>& table)
{
    std::vector<std::string> names;
    for (const PathSelectorNames::Entry& e : table)
    {
        if (names.empty() || names.back() != e.first)
        {
            names.push_back(e.first);
        }
    }
    return names;
}

/**
 * Find a short name or a TypeId name among the subclasses of \p base.
 * \param table the subclasses of \p base and their short names.
 * \param base the base class.
 * \param kind what the base class is, for messages ("path selector").
 * \param name the name looked up.
 * \param [out] found the short name and TypeId.
 * \param [out] error why \p name is not one, and what is allowed.
 * \return whether it was found.
 */
bool
Resolve(const std::vector<PathSelectorNames::Entry>& table,
        TypeId base,
        const std::string& kind,
        const std::string& name,
        PathSelectorNames::Entry& found,
        std::string& error)
{
    const std::string baseName = base.GetName().substr(base.GetName().rfind(':') + 1);
    std::string allowed = OptionParser::Join(UniqueNames(table)) + ", or the TypeId of a " +
                          baseName + " subclass (ns3::...)";
    std::vector<std::string> matches;
    for (const PathSelectorNames::Entry& e : table)
    {
        if (e.first == name)
        {
            matches.push_back(e.second.GetName());
            found = e;
        }
    }
    if (matches.size() > 1)
    {
        error = "'" + name + "' is the name of several " + kind + "s (" +
                OptionParser::Join(matches) + "); give the TypeId instead";
        return false;
    }
    if (matches.size() == 1)
    {
        return true;
    }
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid))
    {
        error = "unknown " + kind + " '" + name + "'; allowed: " + allowed;
        return false;
    }
    if (!tid.IsChildOf(base) || !tid.HasConstructor())
    {
        error = "'" + name + "' is not a " + baseName + " that can be created; allowed: " + allowed;
        return false;
    }
    found = PathSelectorNames::Entry(tid.GetName(), tid);
    for (const PathSelectorNames::Entry& e : table)
    {
        if (e.second == tid)
        {
            found.first = e.first;
        }
    }
    return true;
}

/**
 * \param choice a path selector.
 * \return one made with the attributes' defaults (those of Config::SetDefault and of --ns3::...
 *         options included), to ask for its Validate().
 */
Ptr<PathSelector>
MakeSelector(const PathSelectorNames::Choice& choice)
{
    ObjectFactory factory;
    factory.SetTypeId(choice.tid);
    return factory.Create<PathSelector>();
}

/**
 * \param selector a path selector.
 * \param space an entropy space.
 * \return Validate() of the selector with that EntropySpace, on one plane.
 */
std::string
ValidateSpace(Ptr<PathSelector> selector, uint32_t space)
{
    selector->SetAttribute("EntropySpace", UintegerValue(space));
    return selector->Validate(PathSelectorContext());
}

/**
 * \param selector a path selector.
 * \return the largest entropy space its EntropyBase leaves.
 */
uint32_t
MaxSpace(Ptr<PathSelector> selector)
{
    return 65536 - selector->GetEntropyBase();
}

/**
 * \param selector a path selector.
 * \return the smallest entropy space it accepts, found by bisection (a selector that accepts a
 *         space accepts every larger one, see PathSelector::DoValidate()), or 0 when it accepts
 *         none (another of its attributes is wrong).
 */
uint32_t
MinSpace(Ptr<PathSelector> selector)
{
    uint32_t lo = 1;
    uint32_t hi = MaxSpace(selector);
    if (!ValidateSpace(selector, hi).empty())
    {
        return 0;
    }
    while (lo < hi)
    {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (ValidateSpace(selector, mid).empty())
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    return hi;
}

} // namespace

std::vector<PathSelectorNames::Entry>
PathSelectorNames::GetSubclassNames(TypeId base, std::string (*nameOf)(Ptr<Object> object))
{
    NS_LOG_FUNCTION(base.GetName());
    std::vector<Entry> table;
    for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (!tid.IsChildOf(base) || !tid.HasConstructor())
        {
            continue;
        }
        ObjectFactory factory;
        factory.SetTypeId(tid);
        Ptr<Object> object = factory.Create();
        table.emplace_back(nameOf(object), tid);
        object->Dispose();
    }
    std::sort(table.begin(), table.end(), [](const Entry& a, const Entry& b) {
        return a.first != b.first ? a.first < b.first : a.second.GetName() < b.second.GetName();
    });
    return table;
}

std::vector<PathSelectorNames::Entry>
PathSelectorNames::GetTable()
{
    return GetSubclassNames(PathSelector::GetTypeId(), &PathSelectorName);
}

std::vector<std::string>
PathSelectorNames::GetAvailableNames()
{
    return UniqueNames(GetTable());
}

bool
PathSelectorNames::Lookup(const std::string& name, Choice& choice, std::string& error)
{
    NS_LOG_FUNCTION(name);
    Entry found;
    if (!Resolve(GetTable(), PathSelector::GetTypeId(), "path selector", name, found, error))
    {
        return false;
    }
    choice.name = found.first;
    choice.tid = found.second;
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
            error = option + ": '" + item + "' is listed twice; each path selector is allowed once";
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

uint32_t
PathSelectorNames::GetMinEntropySpace(const Choice& choice)
{
    return MinSpace(MakeSelector(choice));
}

void
PathSelectorNames::CheckEntropySpaceOrExit(const std::string& option,
                                           const Choice& choice,
                                           uint32_t evSpace)
{
    Ptr<PathSelector> selector = MakeSelector(choice);
    const std::string why = ValidateSpace(selector, evSpace);
    if (why.empty())
    {
        return;
    }
    const uint32_t min = MinSpace(selector);
    const uint32_t max = MaxSpace(selector);
    if (min == 0 || (evSpace >= min && evSpace <= max))
    {
        OptionParser::Exit(option + ": " + choice.name + " refuses " + std::to_string(evSpace) +
                           " EVs with its attributes: " + why);
    }
    OptionParser::Exit(option + ": " + std::to_string(evSpace) + " is too " +
                       (evSpace < min ? "small" : "large") + " for " + choice.name + " (" + why +
                       "); allowed with " + choice.name + ": " + std::to_string(min) + " to " +
                       std::to_string(max));
}

std::string
PathSelectorNames::GetShortName(TypeId tid)
{
    for (const Entry& e : GetTable())
    {
        if (e.second == tid)
        {
            return e.first;
        }
    }
    return tid.GetName();
}

std::vector<PathSelectorNames::Entry>
CongestionControlNames::GetTable()
{
    return PathSelectorNames::GetSubclassNames(RdmaCongestionControl::GetTypeId(),
                                               &CongestionControlName);
}

std::vector<std::string>
CongestionControlNames::GetAvailableNames()
{
    return UniqueNames(GetTable());
}

bool
CongestionControlNames::Lookup(const std::string& name, TypeId& tid, std::string& error)
{
    NS_LOG_FUNCTION(name);
    PathSelectorNames::Entry found;
    if (!Resolve(GetTable(),
                 RdmaCongestionControl::GetTypeId(),
                 "congestion control",
                 name,
                 found,
                 error))
    {
        return false;
    }
    tid = found.second;
    return true;
}

std::string
PortSelectorNames::GetShortName(TypeId tid)
{
    const std::string suffix = "PortSelector";
    std::string name = tid.GetName().substr(tid.GetName().rfind(':') + 1);
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    {
        name.erase(name.size() - suffix.size());
    }
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return name;
}

std::vector<PathSelectorNames::Entry>
PortSelectorNames::GetTable()
{
    // Named from the TypeId alone: creating a selector would draw an automatic random stream.
    std::vector<PathSelectorNames::Entry> table;
    for (uint32_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid.IsChildOf(PortSelector::GetTypeId()) && tid.HasConstructor())
        {
            table.emplace_back(GetShortName(tid), tid);
        }
    }
    std::sort(table.begin(),
              table.end(),
              [](const PathSelectorNames::Entry& a, const PathSelectorNames::Entry& b) {
                  return a.first != b.first ? a.first < b.first
                                            : a.second.GetName() < b.second.GetName();
              });
    return table;
}

std::vector<std::string>
PortSelectorNames::GetAvailableNames()
{
    return UniqueNames(GetTable());
}

bool
PortSelectorNames::Lookup(const std::string& name, TypeId& tid, std::string& error)
{
    NS_LOG_FUNCTION(name);
    PathSelectorNames::Entry found;
    if (!Resolve(GetTable(), PortSelector::GetTypeId(), "port selector", name, found, error))
    {
        return false;
    }
    tid = found.second;
    return true;
}

} // namespace ns3
