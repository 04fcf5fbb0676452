import Foundation

/// The package root (Tests/TestSupport/PackageRoot.swift -> root): README, docs, scripts, the build.
package let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
