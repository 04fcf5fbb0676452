import Foundation

/// A folder of its own under the temporary directory, removed with the value that holds it.
/// A suite that keeps one as a property gets a fresh folder per test (Swift Testing makes a
/// suite instance per test) and leaves nothing behind in /tmp.
package final class ScratchFolder: Sendable {
    package let path: String

    package init(_ prefix: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    }

    /// A new subfolder (made, with its parents): each call its own.
    package func make(_ subpath: String = "") throws -> String {
        let folder = "\(path)/\(UUID().uuidString)\(subpath.isEmpty ? "" : "/" + subpath)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
