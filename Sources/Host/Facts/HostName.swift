import Glibc

/// This machine's host name, as gethostname(2) gives it.
package enum HostName {
    /// The fallback OpenClaw uses when there is no usable name.
    package static let fallback = "openclaw"

    package static func current() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return fallback }
        return String(nulTerminated: buffer)
    }

    /// The first label of a host name (`studio` of `studio.example.com`); nil when empty.
    package static func label(of name: String) -> String? {
        name.split(separator: ".").first.map(String.init)
    }

    /// The first label of `name`, or OpenClaw's fallback when it has none.
    package static func labelOrFallback(of name: String) -> String {
        label(of: name) ?? fallback
    }
}
