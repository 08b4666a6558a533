/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// OptionParser::AddValue: command-line options whose values are parsed strictly.

#include "option-parser.h"

#include "ns3/callback.h"

#include <functional>
#include <limits>
#include <sstream>
#include <type_traits>

namespace ns3
{

namespace
{

/**
 * Add an option whose value a function parses; exits with the function's message on a bad
 * value.
 * \param cmd the command line.
 * \param name the option's name.
 * \param help its help text.
 * \param def the default shown by --help.
 * \param parse converts a value (option name, text, error) and says whether it could.
 */
void
AddParsed(CommandLine& cmd,
          const std::string& name,
          const std::string& help,
          const std::string& def,
          std::function<bool(const std::string&, const std::string&, std::string&)> parse)
{
    cmd.AddValue(name,
                 help,
                 RepsCommandLineCallback([name, parse](const std::string& text) {
                     std::string error;
                     if (!parse("--" + name, text, error))
                     {
                         OptionParser::Exit(error);
                     }
                     return true;
                 }),
                 def);
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
 * Add an option holding a whole number of type T, parsed over T's whole range.
 * \param cmd the command line.
 * \param name the option's name.
 * \param help its help text.
 * \param value the variable it sets.
 */
template <typename T>
void
AddWholeNumber(CommandLine& cmd, const std::string& name, const std::string& help, T& value)
{
    T* target = &value;
    AddParsed(cmd,
              name,
              help,
              Show(value),
              [target](const std::string& o, const std::string& t, std::string& e) {
                  const T lo = std::numeric_limits<T>::min();
                  const T hi = std::numeric_limits<T>::max();
                  bool ok = false;
                  if constexpr (std::is_signed_v<T>)
                  {
                      int64_t v = 0;
                      ok = OptionParser::ParseInteger(o, t, lo, hi, v, e);
                      *target = ok ? static_cast<T>(v) : *target;
                  }
                  else
                  {
                      uint64_t v = 0;
                      ok = OptionParser::ParseUnsigned(o, t, lo, hi, v, e);
                      *target = ok ? static_cast<T>(v) : *target;
                  }
                  return ok;
              });
}

} // namespace

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       bool& value)
{
    bool* target = &value;
    AddParsed(cmd,
              name,
              help,
              value ? "true" : "false",
              [target](const std::string& o, const std::string& t, std::string& e) {
                  return ParseBool(o, t, *target, e);
              });
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       uint32_t& value)
{
    AddWholeNumber(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       int32_t& value)
{
    AddWholeNumber(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       uint64_t& value)
{
    AddWholeNumber(cmd, name, help, value);
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       double& value)
{
    double* target = &value;
    AddParsed(cmd,
              name,
              help,
              Show(value),
              [target](const std::string& o, const std::string& t, std::string& e) {
                  const double big = std::numeric_limits<double>::max();
                  if (!ParseDouble(o, t, -big, big, *target, e))
                  {
                      e = o + ": '" + t + "' is not a finite number (e.g. 0.5, 2, 1e-3)";
                      return false;
                  }
                  return true;
              });
}

void
OptionParser::AddValue(CommandLine& cmd,
                       const std::string& name,
                       const std::string& help,
                       std::string& value)
{
    // ns-3 rejects an empty value of a string with its help text; here it is a value (often
    // meaning "none"), which the option's own check accepts or rejects.
    std::string* target = &value;
    std::istringstream first(value);
    std::string def;
    first >> def; // as ns-3 shows the default of a string: its first word
    AddParsed(cmd,
              name,
              help,
              def,
              [target](const std::string&, const std::string& t, std::string&) {
                  *target = t;
                  return true;
              });
}

} // namespace ns3
