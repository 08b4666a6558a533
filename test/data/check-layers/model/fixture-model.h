/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Fixture of test/check-layers-test.py: a model header.

#ifndef FIXTURE_MODEL_H
#define FIXTURE_MODEL_H

#endif
