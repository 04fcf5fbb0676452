import Synchronization

/// What a `Terminal` made with `init(recordingTo:)` wrote, stream by stream, in order: a test
/// runs a command in-process and reads its output here, rendered exactly as it would reach the
/// standard streams.
public final class TerminalRecording: Sendable {
    public enum Stream: Sendable, Equatable {
        case out, err
    }

    private let writes = Mutex<[(stream: Stream, text: String)]>([])

    public init() {}

    func append(_ text: String, to stream: Stream) {
        writes.withLock { $0.append((stream, text)) }
    }

    /// Everything written to stdout.
    public var out: String { text(of: .out) }

    /// Everything written to stderr.
    public var err: String { text(of: .err) }

    /// Both streams interleaved as they were written, stdout and stderr marked apart.
    public var transcript: String {
        writes.withLock { $0.map { "[\($0.stream)] \($0.text)" }.joined() }
    }

    private func text(of stream: Stream) -> String {
        writes.withLock { $0.filter { $0.stream == stream }.map(\.text).joined() }
    }
}
