#!/usr/bin/env bash
# Proves the in-tree build: the module copied to contrib/reps of an ns-3 source tree builds with
# ns-3's own build system, every reps test suite passes under ./test.py, the examples listed in
# test/examples-to-run.py pass under ./test.py, and one example runs with ./ns3 run; the
# Python module (build/bindings/python/reps) passes its tests.
#
# Usage: utils/check-in-tree.sh [options] [NS3_DIR]
#   NS3_DIR        an ns-3 source tree (ns-3.37 or newer) to use. Its contrib/reps is replaced
#                  by a copy of this module, and it is reconfigured with the modules reps needs.
#                  Without it, Debian's ns-3.37 source package is fetched once (a deb-src entry
#                  is derived from the machine's apt sources) and unpacked into a cache directory
#                  outside the repository, reused by later runs.
#   -j JOBS        build jobs (default: number of cores)
#   --no-mpi       configure without ns-3's MPI module (by default Debian's Open MPI is installed,
#                  ns-3 is configured with --enable-mpi and a 2-rank run of a tiny fabric is
#                  compared with the sequential one by utils/check-mpi.py)
#   -h, --help     this text
# Environment: REPS_CACHE_DIR (default: ${XDG_CACHE_HOME:-~/.cache}/reps).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() { reps_usage "$0"; }

ns3_dir=""
jobs="$(nproc)"
mpi=1
while [ $# -gt 0 ]; do
    case "$1" in
        -j) [ $# -ge 2 ] || reps_die "-j needs a number of jobs"
            [[ "$2" =~ ^[1-9][0-9]*$ ]] || reps_die "-j takes a positive number, not '$2'"
            jobs="$2"; shift 2 ;;
        --no-mpi) mpi=0; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) usage >&2; reps_die "unknown option '$1'" ;;
        *) [ -z "$ns3_dir" ] || reps_die "only one NS3_DIR may be given (got '$ns3_dir' and '$1')"
           ns3_dir="$1"; shift ;;
    esac
done

# The modules reps links against, plus csma: ns-3's own test runner links CsmaHelper.
modules="reps;core;network;internet;point-to-point;traffic-control;applications;flow-monitor;stats;csma"

# Adds deb-src entries mirroring the machine's Debian "deb" entries (never a fixed host).
add_deb_src() {
    local out=/etc/apt/sources.list.d/reps-deb-src.sources
    [ -f "$out" ] && return 0
    local tmp
    tmp="$(mktemp)"
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        # deb822 stanzas: keep those of type deb whose suites are Debian's, as deb-src.
        awk 'BEGIN{RS=""; ORS="\n\n"}
             /(^|\n)Types:[^\n]*deb([ \n]|$)/ && /(^|\n)URIs:/ && !/deb-src/ {
                 gsub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print }' "$f" >>"$tmp"
    done
    local lists=()
    [ -f /etc/apt/sources.list ] && lists+=(/etc/apt/sources.list)
    for f in /etc/apt/sources.list.d/*.list; do [ -f "$f" ] && lists+=("$f"); done
    if [ ${#lists[@]} -gt 0 ]; then
        # One-line format: "deb [opts] URI suite components" becomes a deb822 deb-src stanza.
        grep -hE '^[[:space:]]*deb[[:space:]]' "${lists[@]}" 2>/dev/null | grep -v '\[.*\]' |
            awk '{printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $2, $3;
                  for (i = 4; i <= NF; i++) printf " %s", $i; printf "\n\n"}' >>"$tmp" || true
    fi
    [ -s "$tmp" ] || reps_die "no Debian 'deb' entry in the apt sources to derive a deb-src entry from"
    reps_log "adding deb-src entries derived from the apt sources ($out)"
    reps_as_root install -m 0644 "$tmp" "$out"
    rm -f "$tmp"
    REPS_APT_UPDATED=0
}

fetch_debian_ns3() {
    local cache="${REPS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reps}"
    local tree="$cache/ns3-3.37/ns-3.37"
    if [ -x "$tree/ns3" ] && [ -f "$tree/VERSION" ]; then
        ns3_dir="$tree"
        return 0
    fi
    reps_install_packages dpkg-dev
    add_deb_src
    reps_apt_update_once
    mkdir -p "$cache"
    reps_log "fetching Debian's ns-3.37 source package into $cache"
    (cd "$cache" && rm -rf ns3-3.37 && apt-get source -qq ns3) || reps_die "apt-get source ns3 failed"
    [ -x "$tree/ns3" ] || reps_die "Debian's ns3 source package did not unpack an ns-3 tree at $tree"
    ns3_dir="$tree"
}

if [ -n "$ns3_dir" ]; then
    [ -d "$ns3_dir" ] || reps_die "NS3_DIR '$ns3_dir' does not exist"
    ns3_dir="$(cd "$ns3_dir" && pwd)"
    [ -x "$ns3_dir/ns3" ] && [ -d "$ns3_dir/contrib" ] && [ -f "$ns3_dir/test.py" ] \
        || reps_die "NS3_DIR '$ns3_dir' is not an ns-3 source tree (no ns3, test.py or contrib/)"
else
    fetch_debian_ns3
fi

# One check at a time per ns-3 tree (the cached one is shared by every checkout of the module):
# a second run would replace contrib/reps and relink the module under the first one's tests.
exec 9>"$ns3_dir/.reps-check-in-tree.lock"
if ! flock -n 9; then
    reps_log "waiting for another check-in-tree.sh run in $ns3_dir to finish"
    flock 9
fi
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# What ns-3 itself needs to build (Debian names), plus the module's own libraries.
reps_install_packages cmake g++ ninja-build python3 libgsl-dev libsqlite3-dev libxml2-dev \
    nlohmann-json3-dev libboost-graph-dev
# The Chakra trace reader (its schema compiled by protoc) and the trace generator.
reps_install_packages libprotobuf-dev protobuf-compiler python3-protobuf
# The module's Python package (pybind11) and its tests.
reps_install_packages python3-dev pybind11-dev python3-pybind11 python3-pytest
# ns-3's MPI module (distributed runs, --systems): Debian's Open MPI.
mpi_flags=()
if [ "$mpi" -eq 1 ]; then
    reps_install_packages "${REPS_MPI_PACKAGES[@]}"
    modules="$modules;mpi"
    mpi_flags=(--enable-mpi)
fi

reps_log "copying the module to $ns3_dir/contrib/reps"
rm -rf "$ns3_dir/contrib/reps"
mkdir -p "$ns3_dir/contrib/reps"
# -m: the copy gets the time of the copy, not the checkout's, so that objects left in the tree
# by an earlier copy of another version are rebuilt rather than taken as up to date.
tar -C "$REPS_ROOT" --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./results \
    -cf - . | tar -C "$ns3_dir/contrib/reps" -xmf -

cd "$ns3_dir"
# ns-3 points build/include/ns3/<header> at the module's source file and keeps that stub when
# the file moves to another folder of the module: drop the module's stubs, configure writes them
# again from the current file lists.
if [ -d build/include/ns3 ]; then
    grep -l "contrib/reps/" build/include/ns3/*.h 2>/dev/null | xargs -r rm -f
fi
reps_log "configuring ns-3 at $ns3_dir with: $modules"
# Warnings are errors, as in ns-3's own CI: --enable-werror gives -Wall -Werror (and, from
# ns-3.42 on, -Wpedantic) everywhere; REPS_PEDANTIC adds -Wpedantic to the module's own code
# (ns-3.37's own code is not pedantic-clean), so that a build on ns-3.37 already rejects what
# newer releases reject.
./ns3 configure --enable-examples --enable-tests "${mpi_flags[@]}" --enable-modules="$modules" \
    --filter-module-examples-and-tests=reps --enable-warnings --enable-werror \
    -- -DREPS_PEDANTIC=ON >"$logs/configure.log" 2>&1 \
    || { tail -40 "$logs/configure.log"; reps_die "./ns3 configure failed"; }
reps_log "building (-j $jobs); the first build of ns-3 takes about 15 minutes on 2 cores"
# ns-3.37's ./ns3 caps its jobs at one less than the cores (one job on a 2-core machine),
# whatever -j says; CMake builds ns-3's own cmake-cache folder with the jobs asked for.
cmake --build cmake-cache -j "$jobs" || reps_die "the build of ns-3 (cmake --build cmake-cache) failed"

runner="$(find build/utils -maxdepth 1 -name 'ns3*-test-runner*' -type f | head -1)"
[ -n "$runner" ] || reps_die "no test runner under $ns3_dir/build/utils"
suites="$("$runner" --print-test-name-list | grep '^reps-' || true)"
[ -n "$suites" ] || reps_die "the ns-3 test runner has no reps-* suite"
failed=0
for suite in $suites; do
    reps_log "./test.py -s $suite"
    ./test.py --no-build --nocolor -s "$suite" || failed=1
done

# The examples of test/examples-to-run.py: each program through ./test.py -e (its defaults),
# then each listed command line as test.py would run it.
entries="$(python3 -c '
import sys
scope = {}
exec(open(sys.argv[1]).read(), scope)
for entry in scope.get("cpp_examples", []):
    if eval(entry[1], {"True": True, "False": False}):
        print(entry[0])
' contrib/reps/test/examples-to-run.py)"
[ -n "$entries" ] || reps_die "contrib/reps/test/examples-to-run.py lists no example"
for example in $(echo "$entries" | awk '{print $1}' | sort -u); do
    reps_log "./test.py -e $example"
    out="$(./test.py --no-build --nocolor -e "$example" 2>&1)" || failed=1
    echo "$out" | tail -3
    echo "$out" | grep -q "^\[1/1\] PASS" || failed=1
done
while IFS= read -r entry; do
    reps_log "./ns3 run \"$entry\""
    ./ns3 run --no-build "$entry" >"$logs/example.log" 2>&1 || { tail -20 "$logs/example.log"; failed=1; }
done <<<"$entries"

# The Python module, built next to ns-3's own package (build/bindings/python/reps): its tests,
# those that need the standalone build's examples skipped.
if [ -f build/bindings/python/reps/__init__.py ]; then
    reps_log "the Python module: contrib/reps/python/tests (pytest)"
    PYTHONPATH=build/bindings/python /usr/bin/python3 -m pytest -q -p no:cacheprovider \
        contrib/reps/python/tests || failed=1
else
    reps_log "the Python module was not built (build/bindings/python/reps)"; failed=1
fi

# A distributed run: 2 ranks of a tiny fabric against the sequential run (same flows, same
# completion times to the nanosecond, same counters).
if [ "$mpi" -eq 1 ]; then
    example="$(find build -name 'ns3*-reps-lb-comparison*' -type f -perm -u+x | head -1)"
    if [ -z "$example" ]; then
        reps_log "no reps-lb-comparison program under $ns3_dir/build"; failed=1
    else
        reps_log "2 MPI ranks against the sequential run (utils/check-mpi.py)"
        python3 contrib/reps/utils/check-mpi.py --np 2 "$example" --leaves=4 --hostsPerLeaf=2 \
            --spines=2 --flowSize=256KiB --lb=ecmp,ops,reps --sampleInterval=0 || failed=1
        # Two planes: ECMP's run is identical (the per-plane results gathered from both ranks
        # included); the sprayers' simultaneous arrivals at a spine may be ordered the other
        # way round (see the manual), measured at most 84 ns apart on this fabric.
        reps_log "2 MPI ranks on a 2-plane fabric"
        python3 contrib/reps/utils/check-mpi.py --np 2 "$example" --planes=2 --leaves=4 \
            --hostsPerLeaf=2 --spines=2 --flowSize=256KiB --lb=ecmp --sampleInterval=0 || failed=1
        python3 contrib/reps/utils/check-mpi.py --np 2 --tolerance-ns 200 "$example" --planes=2 \
            --leaves=4 --hostsPerLeaf=2 --spines=2 --flowSize=256KiB --lb=ops,reps,mrc \
            --sampleInterval=0 || failed=1
    fi
fi

# ns-3's monolithic build (--enable-monolib, the manual's fastest build) compiles every module's
# sources again from ns-3's src folder: CMake must generate it. Generated into a scratch folder
# (artifacts included), with ns-3's lock file, which every configure rewrites, put back.
reps_log "generating ns-3's monolithic build (--enable-monolib) in a scratch folder"
mono="$(mktemp -d)"
lock=".lock-ns3_linux_build"
[ -f "$lock" ] && cp "$lock" "$mono/lock"
cmake -S . -B "$mono/cache" -G Ninja -DNS3_MONOLIB=ON -DNS3_EXAMPLES=ON \
    -DNS3_OUTPUT_DIRECTORY="$mono/build" -DNS3_ENABLED_MODULES="$modules" \
    -DNS3_FILTER_MODULE_EXAMPLES_AND_TESTS=reps >"$logs/monolib.log" 2>&1 \
    || { tail -20 "$logs/monolib.log"; reps_log "CMake cannot generate the monolithic build"; failed=1; }
[ -f "$mono/lock" ] && cp "$mono/lock" "$lock"
rm -rf "$mono"

[ "$failed" -eq 0 ] || reps_die "in-tree check failed (see above)"
reps_log "in-tree check passed in $ns3_dir"
