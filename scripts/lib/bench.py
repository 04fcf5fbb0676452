"""What the benchmark scripts share: the repository, the test bed (its folder, its env file,
commands on its hosts, bringing it up and down) and the clawnet binary they measure.

A bench script imports it with a path relative to itself:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import bench
"""
import contextlib
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTBED = os.path.join(REPO, "scripts", "testbed")
# The test bed's folder: the same variable and default as scripts/lib/common.sh.
TB_DIR = os.environ.get("CLAWNET_TESTBED_DIR", "/tmp/clawnet-testbed")


def require_root():
    """Exits with a message unless root (the test bed's network namespaces need it)."""
    if os.geteuid() != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: needs root (network namespaces)")


def clawnet_binary(given=None):
    """The clawnet executable to measure: `given` (--binary), else the release build that ships
    (scripts/lib/release-build.sh's release_build: the same flags as setup and the package)."""
    if given is not None:
        return given
    build = subprocess.run(["bash", "-c", ". scripts/lib/release-build.sh && release_build"], cwd=REPO, capture_output=True, text=True)
    if build.returncode != 0:
        sys.exit(f"the release build failed:\n{build.stderr}")
    return build.stdout.strip()


def testbed_env():
    """The test bed's env file (written by `scripts/testbed up`) as a dict."""
    with open(os.path.join(TB_DIR, "env")) as file:
        return dict(line.split("=", 1) for line in file.read().split())


def testbed_control(*arguments):
    """`scripts/testbed ARGUMENTS...`, e.g. ("avahi", "reload", "gw"); fails loudly."""
    subprocess.run([TESTBED, *arguments], check=True, stdout=subprocess.DEVNULL)


@contextlib.contextmanager
def running_testbed():
    """The test bed for the body of a `with`: a running one is used as it is; otherwise it is
    brought up first and down afterwards."""
    own = not os.path.exists(os.path.join(TB_DIR, "env"))
    if own:
        testbed_control("up")
    try:
        yield
    finally:
        if own:
            subprocess.run([TESTBED, "down"], stdout=subprocess.DEVNULL)


def in_namespace(host, command):
    """The command line that runs `command` in `host`'s network namespace (`ip netns exec`
    execs it: a Popen's pid is the command's own)."""
    return ["ip", "netns", "exec", testbed_env()[f"TB_{host.upper()}_NS"], *command]


def host_environment(host):
    """This process's environment with `host`'s D-Bus, for a command run `in_namespace(host, ...)`
    that talks to the host's avahi-daemon."""
    environment = dict(os.environ)
    bus = testbed_env().get(f"TB_{host.upper()}_BUS")
    if bus:
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus
    return environment
