/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_OPTION_PARSER_H
#define REPS_OPTION_PARSER_H

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup reps
 * Checks and converts command-line option values of the experiments: sizes with units, rates
 * and times with ns-3's units, numbers in a range, comma lists and choices. Each Parse* call
 * names the option in its error message and says what is allowed; the *OrExit variants print
 * that message to standard error and exit with status 1, as ns-3's CommandLine does for an
 * unknown option.
 *
 * A plain C++ type: it needs no simulator (rates and times use ns-3's DataRate and Time
 * parsers).
 */
class OptionParser
{
  public:
    /**
     * Parse a size in bytes: a non-negative number with an optional unit, B (bytes),
     * KB/MB/GB/TB (powers of 1000) or KiB/MiB/GiB/TiB (powers of 1024), the letters in any
     * case ("4096", "8MiB", "1MB", "4KiB", "1.5GB", "64kb"). The result must be a whole
     * number of bytes.
     * \param option the option's name, for the message (e.g. "--flowSize").
     * \param text the value.
     * \param [out] bytes the size.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is a size.
     */
    static bool ParseBytes(const std::string& option,
                           const std::string& text,
                           uint64_t& bytes,
                           std::string& error);

    /**
     * Parse a data rate with ns-3's DataRate units ("400Gbps", "100Mb/s", "1GBps", ...),
     * greater than zero.
     * \param option the option's name.
     * \param text the value.
     * \param [out] rate the rate.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is a rate.
     */
    static bool ParseRate(const std::string& option,
                          const std::string& text,
                          DataRate& rate,
                          std::string& error);

    /**
     * Parse a non-negative time with ns-3's Time units ("1us", "2.5ms", "500ns", "3s"; a bare
     * number is seconds), at most half of Time::Max() (146 years at ns-3's default resolution
     * of a nanosecond).
     * \param option the option's name.
     * \param text the value.
     * \param [out] time the time.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is a time.
     */
    static bool ParseTime(const std::string& option,
                          const std::string& text,
                          Time& time,
                          std::string& error);

    /**
     * Parse a number in [min, max].
     * \param option the option's name.
     * \param text the value.
     * \param min smallest allowed.
     * \param max largest allowed.
     * \param [out] value the number.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is such a number.
     */
    static bool ParseDouble(const std::string& option,
                            const std::string& text,
                            double min,
                            double max,
                            double& value,
                            std::string& error);

    /**
     * Parse a whole number in [min, max].
     * \param option the option's name.
     * \param text the value.
     * \param min smallest allowed.
     * \param max largest allowed.
     * \param [out] value the number.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is such a number.
     */
    static bool ParseUnsigned(const std::string& option,
                              const std::string& text,
                              uint64_t min,
                              uint64_t max,
                              uint64_t& value,
                              std::string& error);

    /**
     * Parse a whole number in [min, max], with an optional minus sign.
     * \param option the option's name.
     * \param text the value.
     * \param min smallest allowed.
     * \param max largest allowed.
     * \param [out] value the number.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is such a number.
     */
    static bool ParseInteger(const std::string& option,
                             const std::string& text,
                             int64_t min,
                             int64_t max,
                             int64_t& value,
                             std::string& error);

    /**
     * Parse a boolean: true, false, t, f, 1 or 0 in any case; an empty value (the option
     * given without a value) is true.
     * \param option the option's name.
     * \param text the value.
     * \param [out] value the boolean.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is a boolean.
     */
    static bool ParseBool(const std::string& option,
                          const std::string& text,
                          bool& value,
                          std::string& error);

    /**
     * \param t a time
     * \return it in the largest unit that writes it as a whole number (0, 10ms, 8us, 1500ns)
     */
    static std::string FormatTime(Time t);

    /**
     * \param bytes a size
     * \return it in the largest binary unit that writes it as a whole number (0, 512KiB, 1000)
     */
    static std::string FormatBytes(uint64_t bytes);

    /**
     * \param rate a rate
     * \return it in the largest decimal unit that writes it as a whole number (400Gbps)
     */
    static std::string FormatRate(DataRate rate);

    /**
     * \param text a Time as ns-3 prints it ("+1e+09ns", "-5us")
     * \param [out] fs it in femtoseconds
     * \return whether it could be read
     */
    static bool ReadPrintedTime(const std::string& text, long double& fs);

    /// Reads an option's value and says whether it could: (option, text, error).
    using ValueParser = std::function<bool(const std::string&, const std::string&, std::string&)>;

    /**
     * Add an option whose value a function reads; the program exits with the function's message
     * (Exit()) when it refuses the value.
     * \param cmd the command line.
     * \param name the option's name, without the dashes.
     * \param help its help text.
     * \param def the default --help shows.
     * \param parse reads a value: (--name, text, error) -> whether it was taken.
     */
    static void AddParsedValue(CommandLine& cmd,
                               const std::string& name,
                               const std::string& help,
                               const std::string& def,
                               ValueParser parse);

    /**
     * Read a value strictly into a variable of the option's type: the whole text must be a
     * number of the type (ParseUnsigned, ParseInteger, ParseDouble with the type's limits) or a
     * boolean (ParseBool); a string is taken as it is. The variable is unchanged on an error.
     * \param option the option, for the message.
     * \param text the value.
     * \param value the variable.
     * \param [out] error the message, when refused.
     * \return whether the value was taken.
     * @{
     */
    static bool ParseValue(const std::string& option,
                           const std::string& text,
                           bool& value,
                           std::string& error);
    static bool ParseValue(const std::string& option,
                           const std::string& text,
                           uint32_t& value,
                           std::string& error);
    static bool ParseValue(const std::string& option,
                           const std::string& text,
                           int32_t& value,
                           std::string& error);
    static bool ParseValue(const std::string& option,
                           const std::string& text,
                           uint64_t& value,
                           std::string& error);
    static bool ParseValue(const std::string& option,
                           const std::string& text,
                           double& value,
                           std::string& error);
    static bool ParseValue(const std::string& option,
                           const std::string& text,
                           std::string& value,
                           std::string& error);
    /** @} */

    /**
     * \param value a variable
     * \return its value as --help shows a default (a string: its first word)
     * @{
     */
    static std::string ShowDefault(bool value);
    static std::string ShowDefault(uint32_t value);
    static std::string ShowDefault(int32_t value);
    static std::string ShowDefault(uint64_t value);
    static std::string ShowDefault(double value);
    static std::string ShowDefault(const std::string& value);
    /** @} */

    /**
     * Add an option to a command line that parses its value strictly: the whole value must be
     * a number of the variable's type (ParseUnsigned, ParseInteger, ParseDouble with the
     * type's limits) or a boolean (ParseBool), else the program exits with a message naming
     * the option and what is allowed (Exit()). ns-3's own parsing of numbers reads a prefix
     * ("1.5" or "1e30" as 1) and wraps negative values of unsigned types; this one does not.
     * Strings are added as they are.
     * \param cmd the command line.
     * \param name the option's name, without the dashes.
     * \param help its help text.
     * \param value the variable it sets; its value now is the default shown by --help.
     * @{
     */
    static void AddValue(CommandLine& cmd,
                         const std::string& name,
                         const std::string& help,
                         bool& value);
    static void AddValue(CommandLine& cmd,
                         const std::string& name,
                         const std::string& help,
                         uint32_t& value);
    static void AddValue(CommandLine& cmd,
                         const std::string& name,
                         const std::string& help,
                         int32_t& value);
    static void AddValue(CommandLine& cmd,
                         const std::string& name,
                         const std::string& help,
                         uint64_t& value);
    static void AddValue(CommandLine& cmd,
                         const std::string& name,
                         const std::string& help,
                         double& value);
    static void AddValue(CommandLine& cmd,
                         const std::string& name,
                         const std::string& help,
                         std::string& value);
    /** @} */

    /**
     * Check that a value is one of the allowed words.
     * \param option the option's name.
     * \param text the value.
     * \param allowed the allowed words.
     * \param [out] error what is wrong and what is allowed.
     * \return whether \p text is one of them.
     */
    static bool ParseChoice(const std::string& option,
                            const std::string& text,
                            const std::vector<std::string>& allowed,
                            std::string& error);

    /**
     * Split a comma-separated list, trimming spaces around the items.
     * \param text the list ("ecmp, ops,reps").
     * \return the items; an empty text gives no item, an empty item stays (to be rejected).
     */
    static std::vector<std::string> SplitList(const std::string& text);

    /**
     * \param items words.
     * \param separator what goes between them.
     * \return them joined.
     */
    static std::string Join(const std::vector<std::string>& items,
                            const std::string& separator = ", ");

    /**
     * Check the attribute defaults given on a command line, then parse it. ns-3's CommandLine
     * takes "--ns3::Type::Attribute=value" as a default for every object of that type
     * created afterwards (Config::SetDefault) and answers a bad one with its whole --help;
     * this names the argument and what is allowed instead: the type, the attribute (listing
     * the type's attributes) and the value (the attribute's range or type). Global values
     * (--SchedulerType, --RngRun, ...) and the program's own options are left to ns-3.
     * \param cmd the program's command line, its options added.
     * \param argc as main() got it.
     * \param argv as main() got it.
     */
    static void Parse(CommandLine& cmd, int argc, char* argv[]);

    /// The event scheduler the module's programs use unless told otherwise.
    static constexpr const char* DEFAULT_SCHEDULER = "ns3::PriorityQueueScheduler";

    /**
     * Make ns-3's priority-queue scheduler (DEFAULT_SCHEDULER) the simulator's, unless the
     * environment (NS_GLOBAL_VALUE) names a SchedulerType. Called before the command line is
     * read, so that --SchedulerType still chooses another. Every scheduler of ns-3 runs events
     * in the same order (by time, then by insertion), so the results are the same bit for bit;
     * this one is the fastest on the module's fabrics (manual, "The fastest way to run it").
     */
    static void PreferFastScheduler();

    /**
     * Check one "Type::Attribute" default as Parse() does.
     * \param name the argument without its leading "--" ("ns3::MrcPathSelector::PathCount").
     * \param value its value.
     * \param[out] error what is wrong and what is allowed (empty when allowed).
     * \return whether the default is allowed.
     */
    static bool CheckAttributeDefault(const std::string& name,
                                      const std::string& value,
                                      std::string& error);

    /**
     * Refuse a configuration: print "error: <message>" to standard error and exit with status
     * 1, or, when a handler is set (SetExitHandler()), call it instead.
     * \param message what was wrong.
     */
    [[noreturn]] static void Exit(const std::string& message);

    /// What Exit() calls instead of exiting: it must throw (if it returns, Exit() exits).
    using ExitHandler = std::function<void(const std::string&)>;

    /**
     * Make Exit() call \p handler instead of exiting, so that a program that must survive a
     * refused configuration (the Python bindings raise ValueError) gets the message as an
     * exception; an empty handler restores the exit.
     * \param handler throws with the message it is given, or empty
     */
    static void SetExitHandler(ExitHandler handler);

    /**
     * ParseBytes, exiting on error.
     * \param option the option's name.
     * \param text the value.
     * \param min smallest allowed size.
     * \return the size.
     */
    static uint64_t BytesOrExit(const std::string& option,
                                const std::string& text,
                                uint64_t min = 0);

    /**
     * ParseRate, exiting on error.
     * \param option the option's name.
     * \param text the value.
     * \return the rate.
     */
    static DataRate RateOrExit(const std::string& option, const std::string& text);

    /**
     * ParseTime, exiting on error.
     * \param option the option's name.
     * \param text the value.
     * \return the time.
     */
    static Time TimeOrExit(const std::string& option, const std::string& text);

    /**
     * ParseChoice, exiting on error.
     * \param option the option's name.
     * \param text the value.
     * \param allowed the allowed words.
     * \return \p text.
     */
    static std::string ChoiceOrExit(const std::string& option,
                                    const std::string& text,
                                    const std::vector<std::string>& allowed);

    /**
     * Exit with a message unless min <= value <= max.
     * \param option the option's name.
     * \param value the value.
     * \param min smallest allowed.
     * \param max largest allowed.
     */
    static void CheckRangeOrExit(const std::string& option, double value, double min, double max);

    /**
     * Exit with a message unless a file can be written at \p path (created, or truncated if it
     * exists). Empty means none and "-" standard output; both pass.
     * \param option the option's name.
     * \param path the file.
     */
    static void CheckWritablePathOrExit(const std::string& option, const std::string& path);

    /**
     * Exit with a message unless files named \p prefix followed by a suffix can be created,
     * i.e. the prefix's folder exists and is writable (a probe file is created and removed).
     * Empty means none and passes.
     * \param option the option's name.
     * \param prefix the path prefix.
     */
    static void CheckWritablePrefixOrExit(const std::string& option, const std::string& prefix);
};

} // namespace ns3

#endif /* REPS_OPTION_PARSER_H */
