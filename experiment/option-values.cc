/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// OptionParser::AddValue, ParseValue, AddParsedValue: command-line options whose values are
// parsed strictly.

#include "option-parser.h"

#include "ns3/callback.h"
#include "ns3/reps-ns3-compat.h"

#include <limits>
#include <sstream>
#include <type_traits>

namespace ns3
{

namespace
{

/**
 * Read a whole number of type T over T's whole range.
 * \param option the option, for the message.
 * \param text the value.
 * \param value the variable.
 * \param [out] error the message, when refused.
 * \return whether the value was taken.
 */
template <typename T>
bool
ParseWholeNumber(const std::string& option, const std::string& text, T& value, std::string& error)
{
    const T lo = std::numeric_limits<T>::min();
    const T hi = std::numeric_limits<T>::max();
    bool ok = false;
    if constexpr (std::is_signed_v<T>)
    {
        int64_t v = 0;
        ok = OptionParser::ParseInteger(option, text, lo, hi, v, error);
        value = ok ? static_cast<T>(v) : value;
    }
    else
    {
        uint64_t v = 0;
        ok = OptionParser::ParseUnsigned(option, text, lo, hi, v, error);
        value = ok ? static_cast<T>(v) : value;
    }
    return ok;
}

/**
 * \param v a value.
 * \return it as ns-3's CommandLine shows a default.
 */
template <typename T>
std::string
Show(const T& v)
{
    std::ostringstream os;
    os << v;
    return os.str();
}

/**
 * Add an option that ParseValue() reads into a variable.
 * \param cmd the command line.
 * \param name the option's name.
 * \param help its help text.
 * \param value the variable; its value now is the default --help shows.
 */
template <typename T>
void
AddVariable(CommandLine& cmd, const std::string& name, const std::string& help, T& value)
{
    T* target = &value;
    OptionParser::AddParsedValue(
        cmd,
        name,
        help,
        OptionParser::ShowDefault(value),
        [target](const std::string& o, const std::string& t, std::string& e) {
            return OptionParser::ParseValue(o, t, *target, e);
        });
}

} // namespace

void
OptionParser::AddParsedValue(CommandLine& cmd,
                             const std::string& name,
                             const std::string& help,
                             const std::string& def,
                             ValueParser parse)
{
    cmd.AddValue(name,
                 help,
                 RepsCommandLineCallback([name, parse](RepsCommandLineArgument text) {
                     std::string error;
                     if (!parse("--" + name, text, error))
                     {
                         OptionParser::Exit(error);
                     }
                     return true;
                 }),
                 def);
}

bool
OptionParser::ParseValue(const std::string& o, const std::string& t, bool& v, std::string& e)
{
    return ParseBool(o, t, v, e);
}

bool
OptionParser::ParseValue(const std::string& o, const std::string& t, uint32_t& v, std::string& e)
{
    return ParseWholeNumber(o, t, v, e);
}

bool
OptionParser::ParseValue(const std::string& o, const std::string& t, int32_t& v, std::string& e)
{
    return ParseWholeNumber(o, t, v, e);
}

bool
OptionParser::ParseValue(const std::string& o, const std::string& t, uint64_t& v, std::string& e)
{
    return ParseWholeNumber(o, t, v, e);
}

bool
OptionParser::ParseValue(const std::string& o, const std::string& t, double& v, std::string& e)
{
    const double big = std::numeric_limits<double>::max();
    if (!ParseDouble(o, t, -big, big, v, e))
    {
        e = o + ": '" + t + "' is not a finite number (e.g. 0.5, 2, 1e-3)";
        return false;
    }
    return true;
}

bool
OptionParser::ParseValue(const std::string&, const std::string& t, std::string& v, std::string&)
{
    // ns-3 rejects an empty value of a string with its help text; here it is a value (often
    // meaning "none"), which the option's own check accepts or rejects.
    v = t;
    return true;
}

std::string
OptionParser::ShowDefault(bool value)
{
    return value ? "true" : "false";
}

std::string
OptionParser::ShowDefault(uint32_t value)
{
    return Show(value);
}

std::string
OptionParser::ShowDefault(int32_t value)
{
    return Show(value);
}

std::string
OptionParser::ShowDefault(uint64_t value)
{
    return Show(value);
}

std::string
OptionParser::ShowDefault(double value)
{
    return Show(value);
}

std::string
OptionParser::ShowDefault(const std::string& value)
{
    std::istringstream first(value);
    std::string def;
    first >> def; // as ns-3 shows the default of a string: its first word
    return def;
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       bool& value)
{
    AddVariable(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       uint32_t& value)
{
    AddVariable(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       int32_t& value)
{
    AddVariable(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       uint64_t& value)
{
    AddVariable(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       double& value)
{
    AddVariable(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       std::string& value)
{
    AddVariable(cmd, name, help, value);
}

} // namespace ns3
