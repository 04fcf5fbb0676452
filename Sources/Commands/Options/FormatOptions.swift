import ArgumentParser
import Output

/// A command's formats: every one has table (for people).
protocol OutputFormatChoice: ExpressibleByArgument, CaseIterable, Equatable, Sendable {
    static var table: Self { get }
}

/// The formats of a command that prints one result: json among them, which --json names.
protocol JSONFormatChoice: OutputFormatChoice {
    static var json: Self { get }
}

extension ReportFormat: JSONFormatChoice {}
extension BrowseFormat: JSONFormatChoice {}

/// What `--json` is to a command: the same as --format json, or refused in words that name
/// the command's own spelling (watch prints a stream: --format jsonl).
enum JSONFlag<Format: OutputFormatChoice> {
    case same(as: Format)
    case refused(String)
}

/// How a command words --format in its help (its schema, and that table is the default),
/// which formats it has, and what --json is to it.
protocol FormatWording {
    associatedtype Format: OutputFormatChoice
    static var formatHelp: String { get }
    static var jsonFlag: JSONFlag<Format> { get }
    /// The help names the default format, table (watch's does: its formats are kinds of stream).
    static var showsDefaultFormat: Bool { get }
}

extension FormatWording {
    static var showsDefaultFormat: Bool { false }
}

extension FormatWording where Format: JSONFormatChoice {
    static var jsonFlag: JSONFlag<Format> { .same(as: .json) }
}

/// `--format FORMAT` and `--json`, the same as `--format json` where the command has json.
struct FormatOptions<Wording: FormatWording>: ParsableArguments {
    // Not the format itself: `--format table` given beside --json must be seen to be refused.
    @Option(name: .customLong("format"), help: ArgumentHelp(Wording.formatHelp, valueName: "FORMAT"))
    var format = GivenFormat<Wording>()

    @Flag(name: .customLong("json"), help: Self.jsonHelp)
    var json = false

    static var jsonHelp: ArgumentHelp {
        switch Wording.jsonFlag {
        case .same: "The same as --format json."
        case .refused: .hidden
        }
    }

    /// --format was given.
    var given: Bool { format.value != nil }

    /// What prints: --json is --format json; table when neither is given.
    var chosen: Wording.Format {
        if json, case .same(let format) = Wording.jsonFlag { return format }
        return format.value ?? .table
    }

    /// `--json --format table` contradicts itself: a usage error naming both, never one of them
    /// chosen in silence. Where --json is no format, it is refused in the command's words.
    func validate() throws {
        guard json else { return }
        switch Wording.jsonFlag {
        case .refused(let words): throw ValidationError(words)
        case .same(let json):
            if let format = format.value, format != json {
                throw ValidationError("--json and --format \(format.defaultValueDescription) contradict each other: give one of them")
            }
        }
    }
}

/// --format's value, or none given: the help shows table as the default only where the
/// command's words say so (an empty default is not shown).
struct GivenFormat<Wording: FormatWording>: ExpressibleByArgument {
    let value: Wording.Format?

    init() { value = nil }

    init?(argument: String) {
        guard let format = Wording.Format(argument: argument) else { return nil }
        value = format
    }

    var defaultValueDescription: String {
        Wording.showsDefaultFormat ? (value ?? .table).defaultValueDescription : ""
    }

    static var allValueStrings: [String] { Wording.Format.allValueStrings }

    static var defaultCompletionKind: CompletionKind { Wording.Format.defaultCompletionKind }
}
