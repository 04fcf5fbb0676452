/// A UTC calendar day, proleptic Gregorian, without Foundation's calendars: zone serials
/// (`YYYYMMDDnn`) and certificate dates in reports need nothing more.
public struct UTCDay: Sendable, Equatable {
    package let year: Int, month: Int, day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day of a Unix time (the inverse of days-from-civil).
    package init(unixSeconds: Int64) {
        let days = Int(Self.floorDivide(unixSeconds, 86_400)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `2026-11-22 06:03Z`: the day of `unixSeconds` and its time to the minute.
    package static func timestamp(unixSeconds: Int64) -> String {
        let day = UTCDay(unixSeconds: unixSeconds)
        let rest = unixSeconds - floorDivide(unixSeconds, 86_400) * 86_400
        func two(_ value: some BinaryInteger) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day.year)-\(two(day.month))-\(two(day.day)) \(two(rest / 3600)):\(two(rest / 60 % 60))Z"
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
