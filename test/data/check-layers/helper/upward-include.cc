/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fixture of test/check-layers-test.py: a helper that includes the experiment layer.

#include "ns3/fixture-experiment.h"
