import DNSSD
import Doctor

/// Doctor's table in its short form, the default (`--all` lists every check): what `tailscale
/// status` and `avahi-browse` users expect, one line for this machine when nothing is wrong
/// with it, its warnings and failures with their fixes, one line per Gateway, and Gateways
/// that fail the same way (the same check, the same words but for their address) with their
/// fix once. Lines are wrapped to `width`, never inside a `command`.
struct DoctorBrief {
    let result: DoctorResult
    let terminal: Terminal
    let width: Int

    /// Where a check's words start: "  FAIL  ".
    static let indent = 8

    func lines() -> [String] {
        let machine = result.checks
        var out = [terminal.paint("This machine", .bold) + ": " + Self.counts(machine) + " (--all lists every check)"]
        for check in machine where check.status >= .warn {
            let text = CheckText(check)
            out += entry(check.status, "\(check.id) \(text.message)", fix: text.fix)
        }
        if !result.gateways.isEmpty {
            out += ["", terminal.paint("Gateways", .bold) + ": \(result.gateways.count) checked"]
            for group in Self.groups(result.gateways) { out += lines(group) }
        }
        out += diagnosis()
        return out
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
            let worst = gateway.checks.map(\.status).max() ?? .skip
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
        var shape = text.replacing(target, with: "\u{1}")
        if let colon = target.lastIndex(of: ":") {
            let port = target[target.index(after: colon)...].prefix { $0.isNumber }
            if !port.isEmpty { shape = shape.replacing(String(port), with: "\u{2}") }
        }
        return shape
    }

    func lines(_ group: Group) -> [String] {
        let first = group.gateways[0]
        guard let check = group.check else { return entry(group.status, Self.name(first) + ": " + Self.passed(first.checks), fix: nil) }
        let text = CheckText(check)
        guard group.gateways.count > 1 else {
            return entry(group.status, "\(Self.name(first)) \(check.id): \(text.message)", fix: text.fix)
        }
        let targets = group.gateways.map(\.target).joined(separator: ", ")
        return entry(group.status, "\(check.id) on \(group.gateways.count) Gateways: \(targets)", fix: nil)
            + entry(group.status, "as \(first.target): \(text.message)", fix: text.fix, marked: false)
    }

    /// A Gateway that neither failed nor warned: everything passed, or what was skipped and why
    /// (`gw.tcp` not tried: no Gateway runs on this machine).
    static func passed(_ checks: [Check]) -> String {
        // `--check` of machine checks only: nothing of the Gateway ran, and nothing passed.
        guard !checks.isEmpty else { return "not checked (--check names none of its checks)" }
        guard let skipped = checks.first(where: { $0.status == .skip }) else { return "every check passed" }
        let passes = checks.filter { $0.status == .pass }.count
        let skips = checks.filter { $0.status == .skip }.count
        return "\(passes) passed, \(skips) skipped (\(skipped.id): \(CheckText(skipped).message))"
    }

    static func name(_ gateway: DoctorResult.Gateway) -> String {
        guard let beacon = gateway.beacon else { return gateway.target }
        return "\(gateway.target) (\(beacon.instance.displayName))"
    }

    /// Each cause once, with the number of Gateways it explains the same way.
    func diagnosis() -> [String] {
        guard !result.diagnosis.isEmpty else { return [] }
        var out = ["", terminal.paint("Diagnosis", .bold)]
        var seen: [String: Int] = [:]
        var order: [(Diagnosis, Int)] = []
        for diagnosis in result.diagnosis {
            let text = DiagnosisText(diagnosis)
            let target = diagnosis.evidence.compactMap(\.target).first ?? ""
            let key = "\(diagnosis.id)|" + Self.shape(text.cause + "|" + text.fix, of: target)
            if let at = seen[key] {
                order[at].1 += 1
            } else {
                seen[key] = order.count
                order.append((diagnosis, 1))
            }
        }
        let room = width - 5
        for (number, (diagnosis, count)) in order.enumerated() {
            let text = DiagnosisText(diagnosis)
            let label = "  \(number + 1). "
            out += TextWrap.lines(text.cause, first: room, rest: room).enumerated().map { $0 == 0 ? label + $1 : "     " + $1 }
            if count > 1 { out.append("     (and \(Plural.counted(count - 1, "more Gateway")) the same way, listed above)") }
            if !text.fix.isEmpty {
                out += TextWrap.lines("fix: " + text.fix, first: room, rest: room - 5).enumerated().map {
                    $0 == 0 ? "     " + $1 : "          " + $1
                }
            }
        }
        return out
    }
}
