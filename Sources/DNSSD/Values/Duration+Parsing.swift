extension Duration {
    /// The longest duration clawnet takes on its command line: a day.
    package static let longestArgument = Duration.seconds(86_400)

    /// What `init(argument:)` accepts, for its messages.
    package static let argumentForms =
        "a number with its unit (h, m, s, ms, in either case): 500ms, 5s, 1.5s, 2m, 1m30s, 1h; more than 0 and at most 24 hours (86400s)"

    /// The units a duration is written in, longest first: a compound duration (`1h2m3s`,
    /// `1m30s`, `2s500ms`) gives each at most once, in this order, as Go's and systemd's do.
    private static let units: [(name: String, milliseconds: Double)] = [("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)]

    /// A duration as a user types it (`--timeout`): numbers of decimal digits (no sign, exponent,
    /// hex, `inf` or `nan`), each with its unit; more than 0 and at most `longestArgument`. A bare
    /// number is refused with both readings: OpenClaw's own `--timeout` counts milliseconds,
    /// clawnet's used to count seconds.
    package init(argument text: String) throws(DNSSDError) {
        let lowered = Substring(text.lowercased())
        if !lowered.isEmpty, lowered.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), lowered.contains(where: \.isNumber) {
            throw DNSSDError(.duration, "'\(text)' has no unit: did you mean \(text)ms or \(text)s? (\(Self.argumentForms))")
        }
        guard let total = Self.milliseconds(lowered) else {
            let sign = text.hasPrefix("-") ? " (a duration cannot be negative)" : ""
            throw DNSSDError(.duration, "'\(text)' is not a duration\(sign): give \(Self.argumentForms)")
        }
        guard total <= Double(Self.longestArgument.milliseconds) else {
            throw DNSSDError(.duration, "'\(text)' is longer than the longest duration clawnet takes, 24 hours (86400s)")
        }
        let duration = Duration.milliseconds(Int64(total.rounded()))
        guard duration > .zero else {
            throw DNSSDError(.duration, "'\(text)' is not a duration clawnet can wait for: give \(Self.argumentForms)")
        }
        self = duration
    }

    /// The milliseconds of `text` (lower-case), or nil when it is not numbers with units in order.
    private static func milliseconds(_ text: Substring) -> Double? {
        var rest = text
        var total = 0.0
        var nextUnit = 0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard number.contains(where: \.isNumber), number.filter({ $0 == "." }).count <= 1, let value = Double(number) else {
                return nil
            }
            rest = rest.dropFirst(number.count)
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard let index = units.indices.first(where: { units[$0].name == letters }), index >= nextUnit else { return nil }
            total += value * units[index].milliseconds
            nextUnit = index + 1
            rest = rest.dropFirst(letters.count)
        }
        return text.isEmpty ? nil : total
    }
}
