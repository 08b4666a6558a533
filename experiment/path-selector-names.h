/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_PATH_SELECTOR_NAMES_H
#define REPS_PATH_SELECTOR_NAMES_H

#include "ns3/object.h"
#include "ns3/type-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * The short names used on command lines and in results ("ecmp", "ops", "flowlet", "reps") of
 * the path selectors, and their TypeIds. The names come from the classes themselves: every
 * TypeId registered with ns-3 that derives from ns3::PathSelector and has a constructor is
 * created once and asked for PathSelector::GetName(). A selector registered by TypeId outside
 * the module (in an example or a research script) is therefore found by its short name too. A
 * full TypeId name ("ns3::MyPathSelector") is accepted as well.
 *
 * Names are listed in alphabetical order.
 */
class PathSelectorNames
{
  public:
    /// A short name and the TypeId it names.
    typedef std::pair<std::string, TypeId> Entry;

    /// A path selector picked on the command line.
    struct Choice
    {
        std::string name; //!< Short name (GetName() of the selector).
        TypeId tid;       //!< Its TypeId.
    };

    /**
     * \return every constructible PathSelector subclass registered with ns-3 and its short
     *         name, sorted by name (then by TypeId name).
     */
    static std::vector<Entry> GetTable();

    /// \return the short names of GetTable(), sorted, each once.
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
     * The smallest entropy space a path selector accepts, asked of the selector itself
     * (PathSelector::Validate() of one made with the attributes' defaults, on one plane): the
     * selectors that spray over a set of distinct EVs (bitmap, mp, mrc) need at least their
     * Paths or PathCount; the others need 1.
     * \param choice the selector.
     * \return the smallest EntropySpace it accepts, or 0 when it accepts none (another of its
     *         attributes is wrong).
     */
    static uint32_t GetMinEntropySpace(const Choice& choice);

    /**
     * Exit with a message unless a path selector accepts an entropy space: the selector's own
     * sentence (PathSelector::Validate()) and the spaces allowed with it.
     * \param option the option that gives the space, for the message (e.g. "--evSpace").
     * \param choice the selector.
     * \param evSpace the space.
     */
    static void CheckEntropySpaceOrExit(const std::string& option,
                                        const Choice& choice,
                                        uint32_t evSpace);

    /**
     * \param tid a path selector's TypeId.
     * \return its short name (GetName() of an instance), or its TypeId name when it cannot be
     *         created.
     */
    static std::string GetShortName(TypeId tid);

    /**
     * The constructible subclasses of \p base registered with ns-3, each created once (and
     * disposed of) and named by \p nameOf.
     * \param base an abstract or concrete base TypeId (itself excluded).
     * \param nameOf gives an instance's short name.
     * \return the names and TypeIds, sorted by name then TypeId name.
     */
    static std::vector<Entry> GetSubclassNames(TypeId base,
                                               std::string (*nameOf)(Ptr<Object> object));
};

/**
 * \ingroup reps
 * The short names of the RDMA congestion controllers ("window", "dcqcn", "nscc", "none"), from
 * RdmaCongestionControl::GetName() of every registered subclass, as PathSelectorNames does for
 * path selectors.
 */
class CongestionControlNames
{
  public:
    /// \return every constructible RdmaCongestionControl subclass and its short name, sorted.
    static std::vector<PathSelectorNames::Entry> GetTable();

    /// \return the short names of GetTable(), sorted, each once.
    static std::vector<std::string> GetAvailableNames();

    /**
     * \param name a short name or a TypeId name.
     * \param [out] tid the controller's TypeId.
     * \param [out] error why \p name is not one (lists the allowed names).
     * \return whether \p name is a congestion controller.
     */
    static bool Lookup(const std::string& name, TypeId& tid, std::string& error);
};

/**
 * \ingroup reps
 * The words of --forwarding ("hash", "random", "adaptive", "dlb", "glb") and the switch port
 * selectors they name, derived from the registered TypeIds: every constructible subclass of
 * ns3::PortSelector is named by its class name, lower case, without "PortSelector"
 * (ns3::DlbPortSelector is "dlb"). A port selector registered outside the module (in an
 * example or a research script) is therefore found by its word too; a full TypeId name is
 * accepted as well. No selector is created to find its name.
 */
class PortSelectorNames
{
  public:
    /**
     * \return every constructible PortSelector subclass registered with ns-3 and its word,
     *         sorted by word (then by TypeId name).
     */
    static std::vector<PathSelectorNames::Entry> GetTable();

    /// \return the words of GetTable(), sorted, each once.
    static std::vector<std::string> GetAvailableNames();

    /**
     * \param tid a TypeId
     * \return its word: the class name without the namespace and the "PortSelector" suffix,
     *         in lower case (the whole class name when nothing else is left)
     */
    static std::string GetShortName(TypeId tid);

    /**
     * \param name a word or a TypeId name.
     * \param [out] tid the port selector's TypeId.
     * \param [out] error why \p name is not one (lists the allowed names).
     * \return whether \p name is a port selector.
     */
    static bool Lookup(const std::string& name, TypeId& tid, std::string& error);
};

} // namespace ns3

#endif /* REPS_PATH_SELECTOR_NAMES_H */
