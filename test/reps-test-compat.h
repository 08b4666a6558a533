/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPS_TEST_COMPAT_H
#define REPS_TEST_COMPAT_H

/**
 * \file
 * \ingroup reps-test
 * Test-only names for what differs between ns-3 releases (the test suites include it; it is
 * not installed with the module's headers). REPS_NS3_VERSION comes from reps-ns3-compat.h.
 */

#include "ns3/reps-ns3-compat.h"
#include "ns3/test.h"

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

#endif /* REPS_TEST_COMPAT_H */
