/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_OPTION_REGISTRY_H
#define REPS_OPTION_REGISTRY_H

#include "attribute-alias.h"

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace ns3
{

class ExperimentReport;

/**
 * \ingroup reps
 * The options of an experiment, each registered once: its name on the command line, its help
 * text (ending with the unit or the allowed values), the variable it sets, and the check that
 * converts and validates it. From that one list the registry adds the options to a
 * CommandLine, checks them in registration order, and records them in a report's
 * configuration, so that adding an option is one line of registration and one field.
 *
 * An option that is another name of one model attribute is registered with AddAttribute():
 * its help, default, type and range come from the attribute, and its value reaches the model
 * through Config::SetDefault() (AttributeAlias). Every option, alias or not, can also be given
 * by name with Set(), with the same checks and messages as on the command line.
 *
 * A check exits the program with a message naming the option and what is allowed
 * (OptionParser::Exit()); checks that involve several options are added with AddCheck(), in
 * the order in which they must run.
 */
class OptionRegistry
{
  public:
    /// The variable an option sets.
    using Target = std::variant<std::string*, bool*, uint32_t*, int32_t*, uint64_t*, double*>;
    /// A check: converts, validates, exits with a message on a bad value.
    using Check = std::function<void()>;

    /**
     * Register an option.
     * \param name the name (--name on the command line, and the key in the report)
     * \param help the help text
     * \param target the variable it sets
     * \param check its check, run by CheckAll() (none when empty)
     */
    void Add(const std::string& name, const std::string& help, Target target, Check check = {});

    /**
     * Register a number that must lie in [min, max]; the bounds are read when the check runs,
     * so they may depend on options checked before.
     * \tparam T uint32_t, int32_t or double
     * \param name the name
     * \param help the help text
     * \param target the variable
     * \param min smallest allowed value, when checked
     * \param max largest allowed value, when checked
     */
    template <typename T>
    void AddRange(const std::string& name,
                  const std::string& help,
                  T* target,
                  std::function<double()> min,
                  std::function<double()> max);

    /**
     * \param v a bound
     * \return a bound for AddRange() that is always \p v
     */
    static std::function<double()> Fixed(double v);

    /**
     * Register a word out of a fixed list.
     * \param name the name
     * \param help the help text
     * \param target the variable
     * \param allowed the allowed words
     */
    void AddChoice(const std::string& name,
                   const std::string& help,
                   std::string* target,
                   const std::vector<std::string>& allowed);

    /**
     * Register a time given as text (e.g. 10us), converted into \p parsed by the check.
     * \param name the name
     * \param help the help text
     * \param text the variable the command line sets
     * \param parsed where the check stores the time
     */
    void AddTime(const std::string& name, const std::string& help, std::string* text, Time* parsed);

    /**
     * Register a rate given as text (e.g. 400Gbps), converted into \p parsed by the check.
     * \param name the name
     * \param help the help text
     * \param text the variable the command line sets
     * \param parsed where the check stores the rate
     */
    void AddRate(const std::string& name,
                 const std::string& help,
                 std::string* text,
                 DataRate* parsed);

    /**
     * Register a size in bytes given as text (e.g. 8MiB), converted into \p parsed.
     * \param name the name
     * \param help the help text
     * \param text the variable the command line sets
     * \param parsed where the check stores the size
     * \param min smallest allowed size
     */
    void AddBytes(const std::string& name,
                  const std::string& help,
                  std::string* text,
                  uint64_t* parsed,
                  uint64_t min = 0);

    /**
     * Register an option that is another name of a model attribute (AttributeAlias).
     * \param name the name
     * \param path the attribute, "ns3::Type::Attribute", on the type that declares it
     * \param unit how a bare number is read (bytes, packets)
     */
    void AddAttribute(const std::string& name,
                      const std::string& path,
                      AttributeAlias::Unit unit = AttributeAlias::Unit::NONE);

    /**
     * Give an option a value, as the command line would.
     * \param name the option's name
     * \param text the value
     * \param [out] error the message naming the option and what is allowed, when refused
     * \return whether the value was taken
     */
    bool Set(const std::string& name, const std::string& text, std::string& error);

    /**
     * \param name an option registered with AddAttribute()
     * \return its alias (aborts when there is none: a programming error)
     */
    const AttributeAlias& GetAlias(const std::string& name) const;

    /// \return every option registered with AddAttribute(), in registration order
    std::vector<const AttributeAlias*> GetAliases() const;

    /**
     * Register a check that involves several options, run by CheckAll() after the checks
     * registered before it.
     * \param check the check
     */
    void AddCheck(Check check);

    /**
     * Add every option to a command line.
     * \param cmd the command line
     */
    void AddToCommandLine(CommandLine& cmd) const;

    /// Run every check in registration order.
    void CheckAll() const;

    /**
     * Record every option's value in a report's configuration.
     * \param report the report
     */
    void FillConfig(ExperimentReport& report) const;

    /// \return the names of the options, in registration order
    std::vector<std::string> GetNames() const;

  private:
    /**
     * Exit with a message unless min <= value <= max (OptionParser::CheckRangeOrExit).
     * \param option the option
     * \param value its value
     * \param min smallest allowed
     * \param max largest allowed
     */
    static void CheckRange(const std::string& option, double value, double min, double max);

    /// One option.
    struct Option
    {
        std::string name;      //!< Name.
        std::string help;      //!< Help text.
        Target target;         //!< Variable (plain options).
        AttributeAlias* alias; //!< The attribute it names, or null.
    };

    /**
     * \param name an option's name
     * \return the option, or null
     */
    const Option* Find(const std::string& name) const;

    std::vector<Option> m_options;        //!< The options.
    std::deque<AttributeAlias> m_aliases; //!< Aliases (stable addresses).
    std::vector<Check> m_checks;          //!< Every check, in order.
};

template <typename T>
void
OptionRegistry::AddRange(const std::string& name,
                         const std::string& help,
                         T* target,
                         std::function<double()> min,
                         std::function<double()> max)
{
    Add(name, help, target, [name, target, min, max]() {
        CheckRange("--" + name, static_cast<double>(*target), min(), max());
    });
}

} // namespace ns3

#endif /* REPS_OPTION_REGISTRY_H */
