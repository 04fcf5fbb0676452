# shellcheck shell=bash
# Shared by clawnet's shell scripts (scripts/testbed, scripts/demo, scripts/test, ...).
# Sourced, not executed:   . "$(dirname "$0")/lib/common.sh"

# The test bed's folder. CLAWNET_TESTBED_DIR is its one name everywhere: the scripts, the
# test bed's env file and the tests (set it, with CLAWNET_TESTBED_PREFIX, to run several test
# beds side by side).
# shellcheck disable=SC2034 # used by the scripts that source this file
TB=${CLAWNET_TESTBED_DIR:-/tmp/clawnet-testbed}

# How long stop_pid waits after TERM before it sends KILL. 5 s: what exits cleanly on TERM
# needs time for it on a loaded 2-core machine (avahi-daemon and `clawnet advertise` send
# their mDNS goodbyes, which the demo waits for; a KILL leaves the beacon cached on the
# other hosts), and only a process that hangs waits this long.
STOP_GRACE_SECONDS=5

usage() { # usage: the help of the script that sourced this file, which is its header comment
    # From line 2 to the first line that is not a comment, without the "# ": the header stays
    # the one text. The scripts set self=$(realpath "$0") before they cd, so that it is found.
    sed -n '2,${/^#/!q;s/^# \{0,1\}//;p;}' "${self:-$0}"
}

die() { # die MESSAGE: "SCRIPT: MESSAGE" on stderr, exit 1
    echo "${0##*/}: $*" >&2
    exit 1
}

as_root() { # as_root SCRIPT ARGS...: re-run SCRIPT (an absolute path) as root with sudo
    [ "$(id -u)" = 0 ] && return 0
    command -v sudo >/dev/null || die "needs root, and sudo is not installed: run it as root"
    # Debian's sudo replaces PATH with its secure_path even with -E, and a per-user Swift
    # (swiftly, ~/.local) would vanish: env puts this PATH back.
    exec sudo -E env PATH="$PATH" "$@"
}

give_back_to_sudo_user() { # after a run through sudo: the build folders belong to the user again
    # Run as root in the user's checkout, swift build, setup's venv and the fuzz build leave
    # root's files there, and the user's next `scripts/setup` or `swift build` fails on them.
    # Run from the checkout's top folder; a plain root run (CI) has no SUDO_UID.
    [ -n "${SUDO_UID:-}" ] && [ "$SUDO_UID" != 0 ] || return 0
    local path
    for path in .build .swiftpm Package.resolved .venv Fuzz/.build Fuzz/.swiftpm Fuzz/Package.resolved; do
        if [ -e "$path" ] || [ -L "$path" ]; then chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$path" || true; fi
    done
}

running() { # running PID: the process exists and has not exited
    # A process that has exited stays a zombie until its parent reaps it, and kill -0 still
    # finds it: here PID 1 adopts the test bed's daemons and reaps only every second or two.
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) } # the fields after "PID (COMMAND) ": the state comes first
    [ "${stat:0:1}" != Z ]
}

stop_pid() { # stop_pid PID: TERM, wait up to STOP_GRACE_SECONDS, then KILL
    local pid=$1 _
    running "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq $((STOP_GRACE_SECONDS * 10))); do
        running "$pid" || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

wait_for_line() { # wait_for_line FILE PATTERN SECONDS: until a line of FILE matches PATTERN
    local _
    for _ in $(seq $(($3 * 20))); do
        grep -q -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.05
    done
    echo "${0##*/}: no '$2' in $1 within $3 s:" >&2
    cat "$1" >&2 || true
    return 1
}
