import DNSSD

/// SOA serials as OpenClaw writes them: `YYYYMMDDnn` (UTC): the same day counts up, a new day
/// starts at `<today>01`, and a serial never goes down in RFC 1982 arithmetic (a serial from
/// the future, or another scheme, is simply incremented).
package enum SerialPolicy {
    package typealias Day = UTCDay

    package static func next(after previous: UInt32?, today: Day) -> UInt32 {
        let first = number(of: today) * 100 + 1
        guard let previous else { return first }
        let candidate = previous / 100 == number(of: today) ? previous &+ 1 : first
        return isNewer(candidate, than: previous) ? candidate : previous &+ 1
    }

    /// RFC 1982 serial number arithmetic for 32-bit serials: a is newer than b when it is
    /// ahead of b by less than half the number space.
    package static func isNewer(_ a: UInt32, than b: UInt32) -> Bool {
        a != b && (a &- b) < 0x8000_0000
    }

    /// True for a serial in the `YYYYMMDDnn` scheme with a plausible date.
    package static func isDateSerial(_ serial: UInt32) -> Bool {
        let date = serial / 100
        let (year, month, day) = (date / 10_000, date / 100 % 100, date % 100)
        return (1990...2200).contains(year) && (1...12).contains(month) && (1...31).contains(day)
    }

    private static func number(of day: Day) -> UInt32 { UInt32(day.year * 10_000 + day.month * 100 + day.day) }
}
