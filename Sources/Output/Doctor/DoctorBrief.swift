import DNSSD
import Doctor

/// Doctor's table in its short form, the default (`--all` lists every check): what `tailscale
/// status` and `avahi-browse` users expect, one line for this machine when nothing is wrong
/// with it, its warnings and failures with their fixes, one line per Gateway, and Gateways
/// that fail the same way (the same check, the same words but for their address) together.
/// A fix is printed once: a check that a cause explains points to its number, and the cause
/// carries the fix; a check no cause names keeps its own. Lines are wrapped to `width`, never
/// inside a `command`.
struct DoctorBrief {
    let result: DoctorResult
    let terminal: Terminal
    let width: Int

    /// Where a check's words start: "  FAIL  ".
    static let indent = 8

    func lines() -> [String] {
        let causes = BriefCauses(result.diagnosis)
        let machine = result.checks
        var out: [String] = []
        // `--check` of Gateway checks only: nothing of this machine was checked, nothing to count.
        if !machine.isEmpty || result.gateways.isEmpty {
            out = [terminal.paint("This machine", .bold) + ": " + Self.counts(machine) + " (--all lists every check)"]
        }
        for check in machine where check.status >= .warn {
            out += entry(check, words: "\(check.id) \(CheckText(check).message)", targets: [nil], causes)
        }
        if !result.gateways.isEmpty {
            if !out.isEmpty { out.append("") }
            out.append(terminal.paint("Gateways", .bold) + ": \(result.gatewaysChecked) checked")
            for group in Self.groups(result.gateways) { out += lines(group, causes) }
        }
        return out + diagnosis(causes)
    }

    /// "12 passed, 3 skipped": how the checks went, in one line.
    static func counts(_ checks: [Check]) -> String {
        let words: [(Check.Status, String)] = [(.fail, "failed"), (.warn, "warned"), (.pass, "passed"), (.skip, "skipped")]
        let parts = words.compactMap { status, word in
            let count = checks.filter { $0.status == status }.count
            return count == 0 ? nil : "\(count) \(word)"
        }
        return parts.isEmpty ? "nothing checked" : parts.joined(separator: ", ")
    }

    /// A check's line: its words and where its fix is (a cause's number), else its own fix.
    func entry(_ check: Check, words: String, targets: [String?], _ causes: BriefCauses, marked: Bool = true) -> [String] {
        if let pointer = causes.pointer(check.id, targets: targets) {
            return entry(check.status, words + " (\(pointer))", fix: nil, marked: marked)
        }
        return entry(check.status, words, fix: CheckText(check).fix, marked: marked)
    }

    /// A mark (unless not `marked`: more words of the line above), words wrapped under it, and
    /// the fix wrapped under them.
    func entry(_ status: Check.Status, _ words: String, fix: String?, marked: Bool = true) -> [String] {
        let room = width - Self.indent
        let pad = String(repeating: " ", count: Self.indent)
        var out = TextWrap.lines(words, first: room, rest: room).enumerated().map { index, line in
            index == 0 && marked ? "  \(StatusMark.mark(status, terminal))  \(line)" : pad + line
        }
        if let fix, !fix.isEmpty, status >= .warn {
            out += TextWrap.lines("fix: " + fix, first: room, rest: room - 5).enumerated().map { index, line in
                index == 0 ? pad + line : pad + "     " + line
            }
        }
        return out
    }

    /// Gateways that ended the same way, in the order they were checked.
    struct Group {
        let status: Check.Status
        /// The check that decided (the first failure, else the first warning); nil when all passed.
        let check: Check?
        var gateways: [DoctorResult.Gateway]
    }

    static func groups(_ gateways: [DoctorResult.Gateway]) -> [Group] {
        var groups: [Group] = []
        var index: [String: Int] = [:]
        for gateway in gateways {
            let worst = gateway.status
            let check = worst >= .warn ? gateway.checks.first { $0.status == worst } : nil
            // A Gateway that passed has a line of its own; those that failed the same way share one.
            let key = check.map { "\(worst)|\($0.id)|" + shape(CheckText($0).message, of: gateway.target) } ?? "pass|\(gateway.target)"
            if let at = index[key] {
                groups[at].gateways.append(gateway)
            } else {
                index[key] = groups.count
                groups.append(Group(status: worst, check: check, gateways: [gateway]))
            }
        }
        return groups
    }

    /// `text` with the Gateway's own address and port taken out: what Gateways failing the same
    /// way have in common.
    static func shape(_ text: String, of target: String) -> String {
        let shape = text.replacing(target, with: "\u{1}")
        return port(of: target).map { shape.replacing($0, with: "\u{2}") } ?? shape
    }

    /// The port a target names ("20001" of `127.0.0.1:20001` or `wss://gw:20001/path`), if any.
    static func port(of target: String) -> String? {
        guard let colon = target.lastIndex(of: ":") else { return nil }
        let port = target[target.index(after: colon)...].prefix { $0.isNumber }
        return port.isEmpty ? nil : String(port)
    }

    func lines(_ group: Group, _ causes: BriefCauses) -> [String] {
        let first = group.gateways[0]
        guard let check = group.check else { return entry(group.status, Self.name(first) + ": " + Self.passed(first), fix: nil) }
        let message = CheckText(check).message
        let targets = group.gateways.map(\.target)
        guard group.gateways.count > 1 else {
            return entry(check, words: "\(Self.name(first)) \(check.id): \(message)", targets: targets, causes)
        }
        return entry(group.status, "\(check.id) on \(group.gateways.count) Gateways: \(targets.joined(separator: ", "))", fix: nil)
            + entry(check, words: "as \(first.target): \(message)", targets: targets, causes, marked: false)
    }

    /// A Gateway that neither failed nor warned: everything passed, or what was skipped and why
    /// (`gw.tls` not tried: needs a TCP connection); a vacant 127.0.0.1 only why.
    static func passed(_ gateway: DoctorResult.Gateway) -> String {
        let checks = gateway.checks
        // `--check` of machine checks only: nothing of the Gateway ran, and nothing passed.
        guard !checks.isEmpty else { return "not checked (--check names none of its checks)" }
        // A vacant 127.0.0.1 passed nothing worth counting: why nothing is there is all it says.
        if let vacant = checks.first(where: { $0.reason == .noLocalGateway }) { return CheckText(vacant).message }
        guard let skipped = checks.first(where: { $0.status == .skip }) else { return "every check passed" }
        let passes = checks.filter { $0.status == .pass }.count
        let skips = checks.filter { $0.status == .skip }.count
        return "\(passes) passed, \(skips) skipped (\(skipped.id): \(CheckText(skipped).message))"
    }

    static func name(_ gateway: DoctorResult.Gateway) -> String {
        guard let beacon = gateway.beacon else { return gateway.target }
        return "\(gateway.target) (\(beacon.instance.displayName))"
    }

    /// Each cause once, numbered as the checks point to it, with the number of Gateways it
    /// explains the same way, and its fix.
    func diagnosis(_ causes: BriefCauses) -> [String] {
        guard !causes.causes.isEmpty else { return [] }
        var out = ["", terminal.paint("Diagnosis", .bold)]
        let room = width - 5
        for (number, cause) in causes.causes.enumerated() {
            let label = "  \(number + 1). "
            out += TextWrap.lines(cause.text.cause, first: room, rest: room).enumerated().map { $0 == 0 ? label + $1 : "     " + $1 }
            if cause.count > 1 {
                out.append("     (and \(Plural.counted(cause.count - 1, "more Gateway")) the same way, listed above)")
            }
            if !cause.fix.isEmpty {
                out += TextWrap.lines("fix: " + cause.fix, first: room, rest: room - 5).enumerated().map {
                    $0 == 0 ? "     " + $1 : "          " + $1
                }
            }
        }
        return out
    }
}
