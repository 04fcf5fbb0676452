import ArgumentParser
import Discovery

/// A duration on the command line: `5`, `5s`, `1.5s`, `500ms`, `2m`.
struct DurationArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        let text = argument.lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400 else { return nil }
        duration = .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    var description: String {
        let milliseconds = duration.milliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    static var defaultValueDescription: String { "5s" }
}


extension Duration {
    /// "1.23" (seconds, two decimals) for human output.
    var secondsText: String {
        let hundredths = (milliseconds + 5) / 10
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100).\(fraction.count == 1 ? "0" + fraction : fraction)"
    }
}
