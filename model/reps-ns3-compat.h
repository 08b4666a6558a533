/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_NS3_COMPAT_H
#define REPS_NS3_COMPAT_H

/**
 * \file
 * \ingroup reps
 * The one place where differences between ns-3 releases are handled.
 *
 * REPS_NS3_VERSION is 100 * major + minor of the ns-3 being built against (337 for ns-3.37),
 * set by CMake (cmake/reps-version.cmake) or by wscript. Code elsewhere in the module uses the
 * names defined here instead of testing the version itself; the test suites' names (test case
 * durations) are in test/reps-test-compat.h, which is not installed.
 */

#ifndef REPS_NS3_VERSION
/// waf-based builds (ns-3.35 and older) do not set the version; assume the oldest layout.
#define REPS_NS3_VERSION 335
#endif

#include "ns3/callback.h"
#include "ns3/enum.h"

#include <string>

/**
 * \ingroup reps
 * MakeEnumAccessor for an enum attribute of type \p type held in \p member: ns-3.41 made
 * EnumValue a template and MakeEnumAccessor needs the enum type spelled out.
 */
#if REPS_NS3_VERSION >= 341
#define REPS_MAKE_ENUM_ACCESSOR(type, member) ns3::MakeEnumAccessor<type>(member)
#else
#define REPS_MAKE_ENUM_ACCESSOR(type, member) ns3::MakeEnumAccessor(member)
#endif

namespace ns3
{

/**
 * \ingroup reps
 * The callback that CommandLine::AddValue(name, help, callback, default) calls with an
 * option's value: ns-3.38 passes the value as a const reference.
 */
#if REPS_NS3_VERSION >= 338
using RepsCommandLineCallback = Callback<bool, const std::string&>;
#else
using RepsCommandLineCallback = Callback<bool, std::string>;
#endif

} // namespace ns3

#endif /* REPS_NS3_COMPAT_H */
