import Host

/// A number as OpenClaw writes it into its log or the environment: JavaScript's
/// Number.prototype.toString (ECMA-262 Number::toString), from the shortest digits that give the
/// number back (Swift's description has the same digits): `12300000000000000`, not `1.23e+16`;
/// `1e+21`, `1e-7`, `0.000001`.
enum JavaScriptNumber {
    static func text(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        let sign = number < 0 ? "-" : ""
        let (digits, point) = shortestDigits(abs(number))
        return sign + written(digits, point: point)
    }

    /// The digits d1...dk and n such that the number is 0.d1...dk × 10^n.
    static func shortestDigits(_ number: Double) -> (digits: [Character], point: Int) {
        let description = "\(number)"
        let parts = description.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0]
        let whole = mantissa.prefix { $0 != "." }
        let all = Array(mantissa.filter { $0 != "." })
        var point = whole.count + exponent
        var digits = all[...]
        while digits.first == "0" {
            digits = digits.dropFirst()
            point -= 1
        }
        while digits.last == "0" { digits = digits.dropLast() }
        return (Array(digits), point)
    }

    static func written(_ digits: [Character], point n: Int) -> String {
        let k = digits.count
        let text = String(digits)
        if k <= n && n <= 21 { return text + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return String(digits[..<n]) + "." + String(digits[n...]) }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + text }
        let exponent = n - 1
        let signed = exponent < 0 ? "-\(-exponent)" : "+\(exponent)"
        return k == 1 ? "\(text)e\(signed)" : "\(digits[0]).\(String(digits[1...]))e\(signed)"
    }
}
