# Shared by the utils/*.sh scripts: package installation and the standalone build.
# Sourced, not run. Every function is safe to call again (idempotent).

REPS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Debian packages the standalone build, its tests and the plots need.
# ns3 ships helper programs that the CMake package of libns3-dev refers to; tshark decodes the
# packet captures in the test of --pcap (with utils/reps-wireshark.lua); utils/sweep.py takes its
# statistics from numpy and scipy; the Python module (python/) is built with pybind11 and tested
# with pytest.
REPS_PACKAGES=(
    cmake g++ ninja-build pkg-config python3 python3-matplotlib python3-numpy python3-scipy
    libns3-dev ns3 libgsl-dev libsqlite3-dev libxml2-dev
    libgtest-dev googletest nlohmann-json3-dev tshark libboost-graph-dev
    pybind11-dev python3-pybind11 python3-dev python3-pytest
    libprotobuf-dev protobuf-compiler python3-protobuf
)

# Debian packages of ns-3's MPI module (in-tree builds configured with --enable-mpi).
REPS_MPI_PACKAGES=(libopenmpi-dev openmpi-bin)

reps_die() {
    echo "error: $*" >&2
    exit 2
}

reps_log() {
    echo "==> $*" >&2
}

# Runs a command as root: directly when root, else through sudo.
reps_as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        reps_die "need root (or sudo) to run: $*"
    fi
}

REPS_CMAKE_ARGS=()

REPS_APT_UPDATED=0
reps_apt_update_once() {
    if [ "$REPS_APT_UPDATED" -eq 0 ]; then
        reps_log "apt-get update"
        reps_as_root apt-get update -qq || reps_die "apt-get update failed"
        REPS_APT_UPDATED=1
    fi
}

# Installs those of the given Debian packages that are not installed yet.
reps_install_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    reps_log "installing missing Debian packages: ${missing[*]}"
    # A fresh machine may have no package lists yet: update once, then install.
    if ! reps_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
        reps_apt_update_once
        reps_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
            || reps_die "could not install: ${missing[*]}"
    fi
}

# Configures (when needed) and builds the standalone tree in $REPS_BUILD_DIR: every target, or
# only the given ones (and what they need).
reps_build_standalone() {
    local build_dir="${REPS_BUILD_DIR:-$REPS_ROOT/build}"
    local jobs="${REPS_JOBS:-$(nproc)}"
    local generator=()
    if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
        generator=(-G Ninja)
    fi
    local build_type="${REPS_BUILD_TYPE:-Release}"
    reps_log "configuring $build_dir ($build_type)"
    # REPS_CMAKE_ARGS (an array, set by the sourcing script) adds cache entries, e.g. the
    # sanitizer flags of run-tests.sh --sanitize.
    cmake -S "$REPS_ROOT" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE="$build_type" \
        "${REPS_CMAKE_ARGS[@]}" >/dev/null \
        || reps_die "cmake configure failed (see above)"
    local targets=()
    for t in "$@"; do targets+=(--target "$t"); done
    reps_log "building ${*:-everything} with $jobs jobs"
    cmake --build "$build_dir" -j "$jobs" "${targets[@]}" || reps_die "build failed (see above)"
}

# Prints the comment block at the top of a script (after the #! line) as its usage text.
reps_usage() {
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$1"
}
