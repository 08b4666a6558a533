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
 * names defined here instead of testing the version itself.
 */

#ifndef REPS_NS3_VERSION
/// waf-based builds (ns-3.35 and older) do not set the version; assume the oldest layout.
#define REPS_NS3_VERSION 335
#endif

#include "ns3/enum.h"
#include "ns3/test.h"

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
namespace reps
{

#if REPS_NS3_VERSION >= 342
/// Duration of a test case (TestCase::Duration from ns-3.42 on).
using TestDuration = TestCase::Duration;
constexpr TestDuration kQuick = TestCase::Duration::QUICK;         //!< Runs in well under a second.
constexpr TestDuration kExtensive = TestCase::Duration::EXTENSIVE; //!< A scenario check.
constexpr TestDuration kTakesForever = TestCase::Duration::TAKES_FOREVER; //!< Benchmark-sized.
#else
/// Duration of a test case (TestCase::TestDuration up to ns-3.41).
using TestDuration = TestCase::TestDuration;
constexpr TestDuration kQuick = TestCase::QUICK;                //!< Runs in well under a second.
constexpr TestDuration kExtensive = TestCase::EXTENSIVE;        //!< A scenario check.
constexpr TestDuration kTakesForever = TestCase::TAKES_FOREVER; //!< Benchmark-sized.
#endif

} // namespace reps
} // namespace ns3

#endif /* REPS_NS3_COMPAT_H */
