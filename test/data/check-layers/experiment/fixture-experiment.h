/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fixture of test/check-layers-test.py: an experiment header.

#ifndef FIXTURE_EXPERIMENT_H
#define FIXTURE_EXPERIMENT_H

#endif
