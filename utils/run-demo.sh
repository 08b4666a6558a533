#!/usr/bin/env bash
# Builds the reps module standalone (against Debian's ns-3) and runs the headline example with
# defaults that finish in well under a minute, printing its table. Installs missing Debian
# packages first.
#
# Usage: utils/run-demo.sh [example options...]
#   Every argument goes to the example (try --help). REPS_DEMO names another example program.
# Environment: REPS_BUILD_DIR (default: build/ in the repository).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

for arg in "$@"; do
    case "$arg" in
        -h|--help|--help=*) ;;
        --*) ;;
        *) reps_die "example options have the form --name=value, not '$arg' (see utils/run-demo.sh --help)" ;;
    esac
done

reps_install_packages "${REPS_PACKAGES[@]}"
build_dir="${REPS_BUILD_DIR:-$REPS_ROOT/build}"
# Only the libraries and the example run here: the test suites are built by run-tests.sh.
demo="${REPS_DEMO:-reps-lb-comparison}"
[[ "$demo" =~ ^reps-[a-z0-9-]+$ ]] || reps_die "REPS_DEMO must name an example program (reps-...), not '$demo'"
reps_build_standalone "$demo"
[ -x "$build_dir/examples/$demo" ] || reps_die "no example program '$demo' in $build_dir/examples"
reps_log "running $demo $*"
exec "$build_dir/examples/$demo" "$@"
