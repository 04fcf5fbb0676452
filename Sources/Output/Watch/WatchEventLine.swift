import DNSSD
import Doctor
import FoundationEssentials
import Watch

/// One event of `clawnet watch`: a text line (time, what changed, the Gateway, the detail), or
/// a line of `--format jsonl` (schema clawnet.watch-event.v2, in doctor's and browse's words).
/// Names and hosts come from the network: the text line shows them through SafeText.
package struct WatchEventLine: Encodable, Sendable {
    package let event: WatchEvent

    package init(_ event: WatchEvent) {
        self.event = event
    }

    package func json(_ lines: JSONOutput.LineEncoder) throws -> String { try lines.line(self) }

    package func text(_ terminal: Terminal) -> String {
        lines(terminal, width: nil)[0]
    }

    /// The text line; with a `width` (a terminal's, or COLUMNS) and wider than it, the Gateway
    /// and the detail go on under the change's name.
    package func lines(_ terminal: Terminal, width: Int?) -> [String] {
        let name = event.change.name
        let painted: String
        switch event.change {
        case .up, .steady: painted = terminal.paint(name, .green)
        case .down, .flapping, .certificateExpiring, .probeNotRun: painted = terminal.paint(name, .red)
        default: painted = name
        }
        let time = Self.time(event.date)
        let body = [gatewayText, SafeText.line(detail)].filter { !$0.isEmpty }.joined(separator: "  ")
        let (head, indent) = (time + "  " + painted + "  ", time.count + 2)
        let headWidth = indent + name.count + 2
        guard let width, headWidth + displayWidth(body) > width, width - headWidth >= TextWrap.narrowest / 2 else {
            return [body.isEmpty ? time + "  " + painted : head + body]
        }
        let wrapped = TextWrap.lines(body, first: width - headWidth, rest: width - indent)
        return [head + wrapped[0]] + wrapped.dropFirst().map { String(repeating: " ", count: indent) + $0 }
    }

    /// What a person knows the Gateway by: its URL and, when the URL does not already say it,
    /// its instance name in quotes, escaped (a manual target's name is its host:port, in the URL).
    var gatewayText: String {
        let gateway = event.gateway
        let label = SafeText.line(gateway.label)
        guard gateway.url != nil, !gateway.label.contains(gateway.instance) else { return label }
        return "\(label) \(QuotedText.line(gateway.instance))"
    }

    /// The change in words (the cause and fix of a down come from doctor's own words).
    var detail: String {
        switch event.change {
        case .appeared(let source), .disappeared(let source, nil): "source \(source.rawValue)"
        case .disappeared(let source, let forgetAt?):
            "source \(source.rawValue); no path lists it: probed until \(Self.time(forgetAt)), unless one lists it again"
        case .forgotten(let after): "no path listed it for \(after.argumentText): no longer watched"
        case .up, .steady: ""
        case .down(let check, let diagnosis, let finding):
            "\(check.rawValue) (\(check.title)): \(diagnosis)" + (finding.map { ": " + DiagnosisText($0).cause } ?? "")
        case .flapping(let changes, let window): "\(changes) up/down changes within \(window.argumentText)"
        case .certificateChanged(let from, let to, let pinned, let agrees):
            "sha256 \(from.short)… -> \(to.short)…" + (pinned ? " (this node pins the old one)" : "")
                + (agrees.map { $0 ? "; its beacon advertises the new one: a renewal" : "; its beacon advertises another" } ?? "")
        case .pinChanged(let from, let to): "pin \(from.map(\.short) ?? "none") -> \(to.map(\.short) ?? "none")"
        case .certificateExpiring(let notAfter): "notAfter \(Self.time(notAfter))"
        case .protocolChanged(let from, let to): "protocol \(from) -> \(to)"
        case .serverVersionChanged(let from, let to): "server \(from) -> \(to)"
        case .probeNotRun(let reason): "not probed: \(reason) (fix: \(Self.shortageFix))"
        }
    }

    /// What to do when watch itself runs out of descriptors.
    static let shortageFix =
        "raise watch's limit of open files (LimitNOFILE= in its unit, `ulimit -n`); the Gateway keeps its state and is probed "
        + "again within seconds"

    static func time(_ date: Date) -> String { date.formatted(.iso8601) }

    private enum Key: String, CodingKey {
        case event, time, gateway, source, check, diagnosis, cause, fix, changes, windowMs, from, to, pinned, beaconAgrees, notAfter,
            forgetAt
        case afterMs, error
    }

    /// An error about one Gateway (`probeNotRun`), in the fields a discovery path's error has.
    private enum ErrorKey: String, CodingKey { case source, kind, message, fix }

    /// browse's beacon names its id, instance and url; doctor names what it checked its target.
    private enum GatewayKey: String, CodingKey { case id, target, instance, instancePresentation, url }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(event.change.name, forKey: .event)
        try container.encode(Self.time(event.date), forKey: .time)
        var gateway = container.nestedContainer(keyedBy: GatewayKey.self, forKey: .gateway)
        try gateway.encode(event.gateway.id, forKey: .id)
        try gateway.encode(event.gateway.label, forKey: .target)
        try gateway.encode(event.gateway.exactInstance, forKey: .instance)
        try gateway.encodeIfPresent(event.gateway.instancePresentation, forKey: .instancePresentation)
        try gateway.encode(event.gateway.url, forKey: .url)
        switch event.change {
        case .appeared(let source): try container.encode(source.rawValue, forKey: .source)
        case .disappeared(let source, let forgetAt):
            try container.encode(source.rawValue, forKey: .source)
            try container.encodeIfPresent(forgetAt.map(Self.time), forKey: .forgetAt)
        case .forgotten(let after): try container.encode(Int(after.milliseconds), forKey: .afterMs)
        case .up, .steady: break
        case .down(let check, let diagnosis, let finding):
            // As doctor's JSON: the check's id, the diagnosis's id, and its cause and fix in words.
            try container.encode(check.rawValue, forKey: .check)
            try container.encode(diagnosis.rawValue, forKey: .diagnosis)
            if let words = finding.map(DiagnosisText.init) {
                try container.encode(words.cause, forKey: .cause)
                try container.encode(words.fix, forKey: .fix)
            }
        case .flapping(let changes, let window):
            try container.encode(changes, forKey: .changes)
            try container.encode(Int(window.milliseconds), forKey: .windowMs)
        case .certificateChanged(let from, let to, let pinned, let agrees):
            try container.encode(from.hex, forKey: .from)
            try container.encode(to.hex, forKey: .to)
            try container.encode(pinned, forKey: .pinned)
            try container.encodeIfPresent(agrees, forKey: .beaconAgrees)
        case .pinChanged(let from, let to):
            try container.encode(from?.hex, forKey: .from)
            try container.encode(to?.hex, forKey: .to)
        case .certificateExpiring(let notAfter): try container.encode(Self.time(notAfter), forKey: .notAfter)
        case .protocolChanged(let from, let to):
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
        case .serverVersionChanged(let from, let to):
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
        case .probeNotRun(let reason):
            var error = container.nestedContainer(keyedBy: ErrorKey.self, forKey: .error)
            try error.encode("probe", forKey: .source)
            try error.encode("localShortage", forKey: .kind)
            try error.encode(reason, forKey: .message)
            try error.encode(Self.shortageFix, forKey: .fix)
        }
    }
}
