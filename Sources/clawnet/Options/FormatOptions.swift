import ArgumentParser
import Output

/// A result's formats: every one has table and json (browse adds jsonl).
protocol OutputFormatChoice: ExpressibleByArgument, CaseIterable, Equatable, Sendable {
    static var table: Self { get }
    static var json: Self { get }
}

extension ReportFormat: OutputFormatChoice {}
extension BrowseFormat: OutputFormatChoice {}

/// How a command words --format in its help (its schema, and that table is the default), and
/// which formats it has.
protocol FormatWording {
    associatedtype Format: OutputFormatChoice
    static var formatHelp: String { get }
}

/// `--format FORMAT` and `--json`, the same as `--format json`.
struct FormatOptions<Wording: FormatWording>: ParsableArguments {
    // Optional, not `= .table`: `--format table` given beside --json must be seen to be refused.
    @Option(name: .customLong("format"), help: ArgumentHelp(Wording.formatHelp, valueName: "FORMAT"))
    var format: Wording.Format?

    @Flag(name: .customLong("json"), help: "The same as --format json.")
    var json = false

    /// What prints: --json is --format json; table when neither is given.
    var chosen: Wording.Format { json ? .json : format ?? .table }

    /// `--json --format table` contradicts itself: a usage error naming both, never one of them
    /// chosen in silence.
    func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.defaultValueDescription) contradict each other: give one of them")
        }
    }
}
