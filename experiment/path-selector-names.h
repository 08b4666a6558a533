/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PATH_SELECTOR_NAMES_H
#define REPS_PATH_SELECTOR_NAMES_H

#include "ns3/type-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The one table from the short names used on command lines and in results ("ecmp", "ops",
 * "flowlet", "reps") to the TypeIds of the path selectors. A name whose TypeId is not
 * registered (a selector not built into this version) is reported as such; a full TypeId name
 * of any PathSelector subclass ("ns3::MyPathSelector") is accepted too, so a new selector
 * needs one line in the table only to get a short name.
 */
class PathSelectorNames
{
  public:
    /// A short name and the name of its TypeId.
    typedef std::pair<std::string, std::string> Entry;

    /// A path selector picked on the command line.
    struct Choice
    {
        std::string name; //!< Short name (or the TypeId name if it has none).
        TypeId tid;       //!< Its TypeId.
    };

    /// \return the table, in the order of the paper's comparisons.
    static const std::vector<Entry>& GetTable();

    /// \return the short names whose TypeId is registered.
    static std::vector<std::string> GetAvailableNames();

    /**
     * \param name a short name or a TypeId name.
     * \param [out] choice the selector.
     * \param [out] error why \p name is not a usable path selector (lists the allowed names).
     * \return whether \p name is one.
     */
    static bool Lookup(const std::string& name, Choice& choice, std::string& error);

    /**
     * Parse a comma list of path selectors ("ecmp,ops,flowlet,reps"); the list must not be
     * empty nor name one twice.
     * \param option the option's name, for the message (e.g. "--lb").
     * \param text the list.
     * \param [out] choices the selectors, in order.
     * \param [out] error what is wrong and what is allowed.
     * \return whether every item is a path selector.
     */
    static bool ParseList(const std::string& option,
                          const std::string& text,
                          std::vector<Choice>& choices,
                          std::string& error);

    /**
     * ParseList, exiting with the message on error (see OptionParser::Exit).
     * \param option the option's name.
     * \param text the list.
     * \return the selectors.
     */
    static std::vector<Choice> ParseListOrExit(const std::string& option, const std::string& text);

    /**
     * \param tid a path selector's TypeId.
     * \return its short name, or its TypeId name if the table has none.
     */
    static std::string GetShortName(TypeId tid);
};

} // namespace ns3

#endif /* REPS_PATH_SELECTOR_NAMES_H */
