import Doctor
import RegexBuilder

/// The causes as doctor's short form numbers them: each cause once (with how many Gateways it
/// explains the same way), and for every check that shows a cause, the number it points to. In
/// the short form a fix is printed once: under the cause that explains a check, not under the check.
struct BriefCauses {
    /// A cause and how many Gateways it explains in the same words.
    struct Cause {
        let diagnosis: Diagnosis
        let text: DiagnosisText
        var count: Int
        /// The first Gateway's target, as `text` words it, and the ports of every Gateway.
        let target: String
        var ports: Set<String>

        /// The fix of every Gateway it explains: the first one's, with `<port>` for its port
        /// when they differ in port (`clawnet doctor wss://<host>:<port>`).
        var fix: String {
            guard ports.count > 1, let port = DoctorBrief.port(of: target) else { return text.fix }
            return text.fix.replacing(
                Regex {
                    ":\(port)"
                    NegativeLookahead { .digit }
                }, with: ":<port>")
        }
    }

    private(set) var causes: [Cause] = []
    /// The 1-based number of each cause a check (of a Gateway, by its target) shows.
    private var numbers: [Diagnosis.Evidence: Set<Int>] = [:]

    init(_ diagnoses: [Diagnosis]) {
        var seen: [String: Int] = [:]
        for diagnosis in diagnoses {
            let text = DiagnosisText(diagnosis)
            let target = diagnosis.evidence.compactMap(\.target).first ?? ""
            let key = "\(diagnosis.id)|" + DoctorBrief.shape(text.cause + "|" + text.fix, of: target)
            let index: Int
            let port = DoctorBrief.port(of: target).map { [$0] } ?? []
            if let at = seen[key] {
                causes[at].count += 1
                causes[at].ports.formUnion(port)
                index = at
            } else {
                index = causes.count
                seen[key] = index
                causes.append(Cause(diagnosis: diagnosis, text: text, count: 1, target: target, ports: Set(port)))
            }
            for evidence in diagnosis.evidence { numbers[evidence, default: []].insert(index + 1) }
        }
    }

    /// "see Diagnosis 1", "see Diagnosis 1, 3": where the fix of `check` is, for the checks of these targets (nil:
    /// this machine's); nil when no cause names the check, which then keeps its own fix.
    func pointer(_ check: CheckID, targets: [String?]) -> String? {
        let found = targets.reduce(into: Set<Int>()) { found, target in
            found.formUnion(numbers[Diagnosis.Evidence(check, target: target)] ?? [])
        }
        guard !found.isEmpty else { return nil }
        return "see Diagnosis " + found.sorted().map(String.init).joined(separator: ", ")
    }
}
