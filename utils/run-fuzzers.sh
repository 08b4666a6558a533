#!/usr/bin/env bash
# Builds the libFuzzer targets of test/fuzz/ with clang 14 (AddressSanitizer and
# UndefinedBehaviorSanitizer, linked against Debian's ns-3 libraries) into build-fuzz/, and
# runs each for a while on a copy of its seed corpus (test/fuzz/corpus/TARGET/). Prints the
# executions each target reached and ends with "N passed, M failed"; exits non-zero when a
# target crashed, naming the input that reproduces it. Installs missing Debian packages first.
#
# Usage: utils/run-fuzzers.sh [-t SECONDS | -r RUNS] [TARGET...]
#   -t SECONDS   how long each target runs (default: 60), exploring with a random seed
#   -r RUNS      instead: this many inputs per target from the fixed seed 1, so that the same
#                build and corpus try the same inputs every time (what CI runs)
#   -h, --help   this text
#   TARGET       a target's name, the file test/fuzz/TARGET-fuzz.cc (default: every target)
# A target's file names the module sources it needs on lines "reps-fuzz-sources: FILE..."
# (as many such lines as it likes); each must be listed in CMakeLists.txt. To replay a reproducer:
#   build-fuzz/bin/TARGET-fuzz REPRODUCER
# Environment: REPS_FUZZ_DIR (default: build-fuzz/ in the repository).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() { reps_usage "$0"; }

seconds=60
runs=""
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        -t) [ $# -ge 2 ] || reps_die "-t needs a number of seconds"
            [[ "$2" =~ ^[1-9][0-9]*$ ]] || reps_die "-t takes a positive number of seconds, not '$2'"
            seconds="$2"; shift 2 ;;
        -r) [ $# -ge 2 ] || reps_die "-r needs a number of inputs"
            [[ "$2" =~ ^[1-9][0-9]*$ ]] || reps_die "-r takes a positive number of inputs, not '$2'"
            runs="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        -*) usage >&2; reps_die "unknown option '$1'" ;;
        *) [[ "$1" =~ ^[a-z0-9-]+$ ]] || reps_die "a target is a name like 'option-parser', not '$1'"
           targets+=("$1"); shift ;;
    esac
done

fuzz_src="$REPS_ROOT/test/fuzz"
if [ ${#targets[@]} -eq 0 ]; then
    for f in "$fuzz_src"/*-fuzz.cc; do
        name="$(basename "$f" -fuzz.cc)"
        targets+=("$name")
    done
fi
for t in "${targets[@]}"; do
    [ -f "$fuzz_src/$t-fuzz.cc" ] || reps_die "no fuzz target '$t' (no test/fuzz/$t-fuzz.cc)"
done

# clang 14 and its libFuzzer runtime (libclang_rt.fuzzer, in libclang-rt-14-dev).
reps_install_packages clang-14 libclang-rt-14-dev libns3-dev
CXX=clang++-14
command -v "$CXX" >/dev/null 2>&1 || reps_die "$CXX not found after installing clang-14"

out="${REPS_FUZZ_DIR:-$REPS_ROOT/build-fuzz}"
mkdir -p "$out/bin"

# Prints the module sources a target's file names on its "reps-fuzz-sources:" lines, on one line.
fuzz_sources() {
    sed -n 's/^.*reps-fuzz-sources:\(.*\)$/\1/p' "$1" | tr '\n' ' '
}

# Builds one target unless its program is newer than every file it is made of.
build_target() {
    local t="$1" src="$fuzz_src/$1-fuzz.cc" bin="$out/bin/$1-fuzz"
    local sources=() includes=() inputs=("$src") s dir
    read -r -a sources <<<"$(fuzz_sources "$src")"
    [ ${#sources[@]} -gt 0 ] || reps_die "test/fuzz/$t-fuzz.cc has no 'reps-fuzz-sources:' line"
    for s in "${sources[@]}"; do
        # The module's one file list: a target only names sources the build already lists.
        grep -Eq "^[[:space:]]*$s[[:space:]]*$" "$REPS_ROOT/CMakeLists.txt" \
            || reps_die "test/fuzz/$t-fuzz.cc: $s is not a source listed in CMakeLists.txt"
        dir="$(dirname "$s")"
        [[ " ${includes[*]} " == *" -I$REPS_ROOT/$dir "* ]] || includes+=("-I$REPS_ROOT/$dir")
        inputs+=("$REPS_ROOT/$s" "$REPS_ROOT/$dir"/*.h)
    done
    if [ -x "$bin" ] && [ -z "$(find "${inputs[@]}" -newer "$bin" 2>/dev/null | head -n 1)" ]; then
        return 0
    fi
    reps_log "building $t-fuzz (${sources[*]})"
    # NS3_ASSERT_ENABLE compiles ns-3's assertions (Buffer::Iterator's bounds among them) in.
    "$CXX" -std=c++17 -g -O1 -fno-omit-frame-pointer \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -DNS3_ASSERT_ENABLE "${includes[@]}" \
        "$src" "${sources[@]/#/$REPS_ROOT/}" \
        -lns3-network -lns3-core -o "$bin" \
        || reps_die "building $t-fuzz failed (see above)"
}

for t in "${targets[@]}"; do
    build_target "$t"
done

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

passed=0
failed=0
failures=()
for t in "${targets[@]}"; do
    corpus="$out/corpus/$t"
    artifacts="$out/artifacts/$t"
    log="$out/logs/$t.log"
    rm -rf "$corpus"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    if [ -d "$fuzz_src/corpus/$t" ]; then
        cp "$fuzz_src/corpus/$t"/* "$corpus"/ 2>/dev/null || true
    fi
    if [ -n "$runs" ]; then
        budget=(-runs="$runs" -seed=1)
        what="$runs inputs from seed 1"
    else
        budget=(-max_total_time="$seconds")
        what="${seconds}s"
    fi
    reps_log "fuzzing $t for $what ($(find "$corpus" -type f | wc -l) seed inputs)"
    status=0
    "$out/bin/$t-fuzz" "${budget[@]}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1 || status=$?
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    if [ "$status" -eq 0 ]; then
        echo "$t: passed, ${execs:-?} executions ($what), corpus $(find "$corpus" -type f | wc -l) inputs"
        passed=$((passed + 1))
    else
        reproducer="$(sed -n 's/^.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)"
        tail -n 40 "$log" >&2
        echo "$t: FAILED (exit $status) after ${execs:-?} executions; reproducer: ${reproducer:-none written}; log: $log"
        failures+=("$t: ${reproducer:-$log}")
        failed=$((failed + 1))
    fi
done

for f in "${failures[@]+"${failures[@]}"}"; do
    echo "failed: $f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
