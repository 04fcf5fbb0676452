#!/bin/sh
# build-info.sh PACKAGE_DIR OUTPUT_DIR: writes OUTPUT_DIR/BuildInfo.swift with the git commit
# PACKAGE_DIR is checked out at, and whether tracked files differ from it. Without git, or
# outside a checkout of this package (a tarball, even one unpacked inside another repository),
# the commit is nil and `clawnet --version` says "unknown commit".
set -u
package=$1
output=$2
mkdir -p "$output"

commit=nil
modified=false
if command -v git >/dev/null 2>&1; then
    top=$(git -C "$package" rev-parse --show-toplevel 2>/dev/null || true)
    if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$package" && pwd -P)" ]; then
        hash=$(git -C "$package" rev-parse --verify -q HEAD 2>/dev/null || true)
        if [ -n "$hash" ]; then
            commit="\"$hash\""
            [ -z "$(git -C "$package" status --porcelain --untracked-files=no 2>/dev/null)" ] || modified=true
        fi
    fi
fi

text="// Written by Plugins/BuildInfo/build-info.sh at build time; not in git.
enum BuildInfo {
    /// The git commit this binary was built from; nil when the source was not a git checkout.
    static let commit: String? = $commit
    /// Tracked files differed from that commit.
    static let modified = $modified
}"
file="$output/BuildInfo.swift"
[ "$(cat "$file" 2>/dev/null)" = "$text" ] || printf '%s\n' "$text" >"$file"
