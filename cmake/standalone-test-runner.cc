/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Test runner for the standalone build: every TestSuite linked into this program, driven by
 * ns-3's own TestRunner (the same options as ns-3's test-runner: --suite, --list,
 * --fullness, --verbose, ...).
 */

#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
