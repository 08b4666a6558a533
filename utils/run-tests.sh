#!/usr/bin/env bash
# Builds the reps module standalone (against Debian's ns-3) and runs every test through CTest:
# each ns-3 TestSuite (one CTest entry per suite), the GoogleTest unit tests and the check that
# CMakeLists.txt and wscript agree. Installs missing Debian packages first.
#
# Usage: utils/run-tests.sh [--sanitize] [-R REGEX] [-j JOBS]
#   --sanitize  build the library, tests and examples with AddressSanitizer (leak checker
#               included) and UndefinedBehaviorSanitizer (gcc; -O1, in build-sanitize/) and run
#               every CTest entry under them, the ns-3 suites at QUICK fullness; the bad-input
#               matrix runs the cases of reps-two-host and reps-fabric-summary only (see below)
#   -R REGEX    run only the tests whose name matches REGEX (as ctest -R)
#   -j JOBS     build jobs (default: number of cores)
# Environment: REPS_BUILD_DIR (default: build/ in the repository, build-sanitize/ with
# --sanitize).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() { reps_usage "$0"; }

filter=()
sanitize=0
while [ $# -gt 0 ]; do
    case "$1" in
        --sanitize) sanitize=1; shift ;;
        -R) [ $# -ge 2 ] || reps_die "-R needs a regular expression"; filter=(-R "$2"); shift 2 ;;
        -j) [ $# -ge 2 ] || reps_die "-j needs a number of jobs"
            [[ "$2" =~ ^[1-9][0-9]*$ ]] || reps_die "-j takes a positive number, not '$2'"
            export REPS_JOBS="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; reps_die "unknown option '$1'" ;;
    esac
done

reps_install_packages "${REPS_PACKAGES[@]}"
if [ "$sanitize" -eq 1 ]; then
    # Debian's ns-3 libraries are not instrumented: the sanitizers check the module's code (and
    # what ns-3 inlines into it from its headers); the leak checker sees every allocation.
    export REPS_BUILD_DIR="${REPS_BUILD_DIR:-$REPS_ROOT/build-sanitize}"
    export REPS_BUILD_TYPE=RelWithDebInfo
    sanitizers="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
    REPS_CMAKE_ARGS=(
        "-DCMAKE_CXX_FLAGS=$sanitizers"
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1"
        "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"
        "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined"
        "-DCMAKE_MODULE_LINKER_FLAGS=-fsanitize=address,undefined"
        -DREPS_TEST_FULLNESS=QUICK
        # The Python tests load the instrumented extension into Debian's interpreter, which is
        # not instrumented: the ASan runtime is preloaded (python/CMakeLists.txt), and the C++
        # library after it, which the interpreter does not link (ASan must find __cxa_throw).
        "-DREPS_PYTHON_PRELOAD=$(${CXX:-g++} -print-file-name=libasan.so):$(${CXX:-g++} -print-file-name=libstdc++.so)"
    )
    suppressions="$REPS_ROOT/test/sanitizer"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_init_order=1:detect_stack_use_after_return=1"
    export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$suppressions/ubsan.supp"
fi
reps_build_standalone
build_dir="${REPS_BUILD_DIR:-$REPS_ROOT/build}"
cd "$build_dir"
reps_log "running the tests"
if [ "$sanitize" -eq 0 ]; then
    ctest --output-on-failure -j "${REPS_JOBS:-$(nproc)}" "${filter[@]}"
    exit 0
fi
# Under the sanitizers the bad-input matrix (1777 runs of the examples, each refused before the
# simulation starts) adds minutes and no new code path: it runs for the two examples whose
# options reach the model directly; the full matrix runs in the plain build.
status=0
ctest --output-on-failure -j "${REPS_JOBS:-$(nproc)}" -E '^reps-bad-inputs$' "${filter[@]}" || status=1
if [ ${#filter[@]} -eq 0 ]; then
    for example in reps-two-host reps-fabric-summary; do
        python3 "$REPS_ROOT/test/check-bad-inputs.py" "$build_dir/examples" --only "$example" \
            --timeout 30 --jobs "${REPS_JOBS:-$(nproc)}" || status=1
    done
fi
[ "$status" -eq 0 ] && reps_log "sanitizers: every test passed, nothing reported" \
    || reps_die "a test failed or a sanitizer reported (see above)"
