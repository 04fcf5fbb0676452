/// SOA serials as OpenClaw writes them: `YYYYMMDDnn` (UTC): the same day counts up, a new day
/// starts at `<today>01`, and a serial never goes down in RFC 1982 arithmetic (a serial from
/// the future, or another scheme, is simply incremented).
public enum SerialPolicy {
    public struct Day: Sendable, Equatable {
        public let year: Int, month: Int, day: Int
        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// The UTC day of a Unix time (days-from-civil inverse, proleptic Gregorian).
        public init(unixSeconds: Int64) {
            let days = Int(floorDivide(unixSeconds, 86_400)) + 719_468
            let era = (days >= 0 ? days : days - 146_096) / 146_097
            let dayOfEra = days - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
            month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        }

        var number: UInt32 { UInt32(year * 10_000 + month * 100 + day) }
    }

    public static func next(after previous: UInt32?, today: Day) -> UInt32 {
        let first = today.number * 100 + 1
        guard let previous else { return first }
        let candidate = previous / 100 == today.number ? previous &+ 1 : first
        return isNewer(candidate, than: previous) ? candidate : previous &+ 1
    }

    /// RFC 1982 serial number arithmetic for 32-bit serials: a is newer than b when it is
    /// ahead of b by less than half the number space.
    public static func isNewer(_ a: UInt32, than b: UInt32) -> Bool {
        a != b && (a &- b) < 0x8000_0000
    }

    /// True for a serial in the `YYYYMMDDnn` scheme with a plausible date.
    public static func isDateSerial(_ serial: UInt32) -> Bool {
        let date = serial / 100
        let (year, month, day) = (date / 10_000, date / 100 % 100, date % 100)
        return (1990...2200).contains(year) && (1...12).contains(month) && (1...31).contains(day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
