extension Duration {
    /// Whole milliseconds, rounded down.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Seconds for people, rounded half up: `secondsText(fractionDigits: 1)` is "2.5",
    /// with 2 "2.50".
    package func secondsText(fractionDigits: Int) -> String {
        let scale = Int64([1, 10, 100, 1000][max(0, min(3, fractionDigits))])
        let units = (milliseconds * scale + 500) / 1000
        guard scale > 1 else { return "\(units)" }
        let fraction = String(units % scale)
        return "\(units / scale)." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
    }

    /// As a user would type it back (`--timeout`): `5s`, `500ms`.
    package var argumentText: String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
