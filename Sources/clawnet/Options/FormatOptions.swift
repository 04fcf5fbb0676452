import ArgumentParser
import Output

/// A result's formats: every one has table and json (browse adds jsonl).
protocol OutputFormatChoice: ExpressibleByArgument, CaseIterable, Equatable, Sendable {
    static var table: Self { get }
    static var json: Self { get }
}

extension ReportFormat: OutputFormatChoice {}
extension BrowseFormat: OutputFormatChoice {}

/// How a command words --format in its help (its schema), and which formats it has.
protocol FormatWording {
    associatedtype Format: OutputFormatChoice
    static var formatHelp: String { get }
}

/// `--format FORMAT` and `--json`, the same as `--format json`.
struct FormatOptions<Wording: FormatWording>: ParsableArguments {
    @Option(name: .customLong("format"), help: ArgumentHelp(Wording.formatHelp, valueName: "FORMAT"))
    var format: Wording.Format = .table

    @Flag(name: .customLong("json"), help: "The same as --format json.")
    var json = false

    /// What prints: --json is --format json.
    var chosen: Wording.Format { json ? .json : format }
}
