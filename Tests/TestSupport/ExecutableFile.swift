import Foundation

/// Writes `text` to `path` as a program (mode 0755), through a child shell. A file this test
/// process held open for writing would be inherited by any process a parallel test spawned at
/// that moment, and exec of the file would then fail with ETXTBSY ("Text file busy"); the
/// child's descriptor ends with the child.
package func writeExecutable(_ text: String, to path: String) throws {
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", #"printf '%s' "$TEXT" > "$1" && chmod 755 "$1""#, "sh", path]
    shell.environment = ["PATH": "/usr/bin:/bin", "TEXT": text]
    let errors = Pipe()
    shell.standardError = errors
    try shell.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    shell.waitUntilExit()
    guard shell.terminationStatus == 0 else {
        throw ExecutableFileError(description: "writing \(path): exit \(shell.terminationStatus): \(said)")
    }
}

package struct ExecutableFileError: Error, CustomStringConvertible {
    package let description: String
}
