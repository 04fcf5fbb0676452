# How the release binary is built; sourced by scripts/setup, scripts/manpages, scripts/package,
# scripts/demo and (through scripts/lib/bench.py) the benchmarks, so that all of them build
# and measure the binary that ships (SwiftPM rebuilds everything when the flags differ).
# `swift package` (the man-page plugin) takes these flags too, which is why the static runtime
# is asked for as `-Xswiftc -static-stdlib` (what --static-swift-stdlib passes) rather than
# with --static-swift-stdlib.
#   -static-stdlib          the Swift runtime inside the binary: no Swift toolchain where it runs
#   --disable-local-rpath   no $ORIGIN RUNPATH: /usr/bin/clawnet loads libraries only from the system
#   -z now                  bind every symbol at start, so the GOT can be read-only (full RELRO)
release_build_flags=(-c release -Xswiftc -static-stdlib --disable-local-rpath -Xlinker -z -Xlinker now)
# The release, as `clawnet --version` prints it.
release_version=$(sed -n 's/^ *static let release = "\(.*\)"$/\1/p' Sources/Commands/Support/Version.swift)

release_build() { # release_build: builds the release binary (its output on stderr) and prints its path
    swift build "${release_build_flags[@]}" --product clawnet >&2
    echo "$(swift build "${release_build_flags[@]}" --show-bin-path)/clawnet"
}
