# How the release binary is built; sourced by scripts/setup, scripts/manpages and
# scripts/package so that the three share one build (SwiftPM rebuilds everything when the
# flags differ). `swift package` (the man-page plugin) takes these flags too, which is why
# the static runtime is asked for as `-Xswiftc -static-stdlib` (what --static-swift-stdlib
# passes) rather than with --static-swift-stdlib.
#   -static-stdlib          the Swift runtime inside the binary: no Swift toolchain where it runs
#   --disable-local-rpath   no $ORIGIN RUNPATH: /usr/bin/clawnet loads libraries only from the system
#   -z now                  bind every symbol at start, so the GOT can be read-only (full RELRO)
release_build_flags=(-c release -Xswiftc -static-stdlib --disable-local-rpath -Xlinker -z -Xlinker now)
# The release, as `clawnet --version` prints it.
release_version=$(sed -n 's/^ *static let release = "\(.*\)"$/\1/p' Sources/clawnet/Support/Version.swift)
