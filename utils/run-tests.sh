#!/usr/bin/env bash
# Builds the reps module standalone (against Debian's ns-3) and runs every test through CTest:
# each ns-3 TestSuite (one CTest entry per suite), the GoogleTest unit tests and the check that
# CMakeLists.txt and wscript agree. Installs missing Debian packages first.
#
# Usage: utils/run-tests.sh [-R REGEX] [-j JOBS]
#   -R REGEX  run only the tests whose name matches REGEX (as ctest -R)
#   -j JOBS   build jobs (default: number of cores)
# Environment: REPS_BUILD_DIR (default: build/ in the repository).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() { reps_usage "$0"; }

filter=()
while [ $# -gt 0 ]; do
    case "$1" in
        -R) [ $# -ge 2 ] || reps_die "-R needs a regular expression"; filter=(-R "$2"); shift 2 ;;
        -j) [ $# -ge 2 ] || reps_die "-j needs a number of jobs"
            [[ "$2" =~ ^[1-9][0-9]*$ ]] || reps_die "-j takes a positive number, not '$2'"
            export REPS_JOBS="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; reps_die "unknown option '$1'" ;;
    esac
done

reps_install_packages "${REPS_PACKAGES[@]}"
reps_build_standalone
build_dir="${REPS_BUILD_DIR:-$REPS_ROOT/build}"
cd "$build_dir"
reps_log "running the tests"
ctest --output-on-failure -j "${REPS_JOBS:-$(nproc)}" "${filter[@]}"
