import Foundation
import TestSupport
import Testing

/// Every task clawnet starts is a child of a task group (or `async let`) that awaits it: none
/// outlives the scope that started it, so a stop (a signal, `--timeout`, stdout gone) ends all
/// of them through `runUntilStopped`, `withDeadline` or the group they belong to, and a timer
/// is a child task too, never a dispatch queue's.
@Suite("structured concurrency: no loose task, no dispatch queue")
struct StructuredConcurrencyTests {
    /// What starts work no scope awaits: `Task { }`, `Task(...)`, `Task.detached`, a `Task<...>`
    /// held to cancel by hand, a dispatch queue (not `group.addTask`, `scheduleTask`, `Task.sleep`).
    nonisolated(unsafe) static let loose = /(^|[^A-Za-z0-9_.])(Task\s*(\{|\(|<|\.detached)|DispatchQueue)/

    @Test("no file in Sources starts a task no scope awaits, or uses a dispatch queue")
    func noLooseTasks() throws {
        let sources = packageRoot + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "Sources was not read: \(files.count) files")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: "\(sources)/\(file)", encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if line.firstMatch(of: Self.loose) != nil { found.append("\(file):\(number + 1): \(line)") }
            }
        }
        #expect(found.isEmpty, "loose tasks or dispatch queues: \(found)")
    }

    @Test("the pattern finds what it is meant to, and not a child task, a timer on an event loop or a sleep")
    func patternFinds() {
        let loose = [
            "Task { await x() }", "let t = Task(operation: body)", "Task.detached { }", "var task: Task<Void, Never>?",
            "DispatchQueue.global().asyncAfter(deadline: .now())",
        ]
        let fine = [
            "group.addTask { await x() }", "loop.scheduleTask(in: .seconds(1)) { }", "try await Task.sleep(for: .seconds(1))",
            "await withDiscardingTaskGroup { group in }", "guard !Task.isCancelled",
        ]
        #expect(loose.filter { $0.firstMatch(of: Self.loose) == nil }.isEmpty, "missed: \(loose)")
        #expect(fine.filter { $0.firstMatch(of: Self.loose) != nil }.isEmpty, "found by mistake: \(fine)")
    }
}
