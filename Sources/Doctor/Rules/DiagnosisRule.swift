import Probes

/// A rule that names a cause: what it explains, declared as the failures (a check and the
/// reason it failed with) it can be the cause of, and how it finds the cause. Rules read typed
/// checks and evidence, never words; the words are written from what they find.
/// (After swift-certificates' verifier policies, which each declare what they cover.)
package struct DiagnosisRule: Sendable {
    /// A failure a rule explains.
    package struct Explained: Sendable, Hashable, CustomStringConvertible {
        package let check: CheckID
        package let reason: CheckReason

        package init(_ check: CheckID, _ reason: CheckReason) {
            self.check = check
            self.reason = reason
        }

        package var description: String { "\(check) \(reason)" }
    }

    enum Finder: Sendable {
        case machine(@Sendable (MachineResult) -> [Diagnosis])
        case gateway(@Sendable (GatewayResult, MachineResult) -> Diagnosis?)
        /// Each failure of this layer of a Gateway that no rule before it named.
        case layer(CheckID)
    }

    package let id: DiagnosisID
    package let explains: Set<Explained>
    /// The warnings (a check and the reason it warned with) whose cause it names: a working
    /// Gateway with something to fix, such as one a phone would refuse.
    package let warns: Set<Explained>
    let finder: Finder

    init(_ id: DiagnosisID, explains: [CheckID: Set<CheckReason>] = [:], warns: [CheckID: Set<CheckReason>] = [:], _ finder: Finder) {
        self.id = id
        self.explains = Set(explains.flatMap { check, reasons in reasons.map { Explained(check, $0) } })
        self.warns = Set(warns.flatMap { check, reasons in reasons.map { Explained(check, $0) } })
        self.finder = finder
    }

    /// A rule about this machine.
    static func machine(
        _ id: DiagnosisID, explains: [CheckID: Set<CheckReason>] = [:], warns: [CheckID: Set<CheckReason>] = [:],
        _ find: @escaping @Sendable (MachineResult) -> [Diagnosis]
    ) -> DiagnosisRule {
        DiagnosisRule(id, explains: explains, warns: warns, .machine(find))
    }

    /// A rule about one Gateway (and the machine it is reached from).
    static func gateway(
        _ id: DiagnosisID, explains: [CheckID: Set<CheckReason>] = [:], warns: [CheckID: Set<CheckReason>] = [:],
        _ find: @escaping @Sendable (GatewayResult, MachineResult) -> Diagnosis?
    ) -> DiagnosisRule {
        DiagnosisRule(id, explains: explains, warns: warns, .gateway(find))
    }

    /// A failing layer that no rule before it explained is its own cause.
    static func layer(_ layer: CheckID, _ id: DiagnosisID, explains reasons: Set<CheckReason>) -> DiagnosisRule {
        DiagnosisRule(id, explains: [layer: reasons], .layer(layer))
    }

    /// What the rule finds about `gateway` (nil: about the machine), after `found`.
    func apply(_ machine: MachineResult, _ gateway: GatewayResult?, after found: [Diagnosis]) -> [Diagnosis] {
        switch (finder, gateway) {
        case (.machine(let find), nil): return find(machine)
        case (.gateway(let find), let gateway?):
            // A cause adds nothing when causes before it already named every failure it shows
            // (a proxy's 502 named as such is not also "another program on the port").
            guard let diagnosis = find(gateway, machine) else { return [] }
            let named = Set(found.flatMap(\.evidence))
            let failures = diagnosis.evidence.filter { gateway.failing($0.check) != nil }
            return !failures.isEmpty && failures.allSatisfy(named.contains) ? [] : [diagnosis]
        case (.layer(let layer), let gateway?):
            let label = gateway.target.label
            let named = Set(found.flatMap(\.evidence))
            guard let check = gateway.failing(layer), !named.contains(.init(layer, target: label)) else { return [] }
            return [Diagnosis(id, .check(check, target: label), evidence: [.init(layer, target: label)])]
        default: return []
        }
    }
}

/// The rules, in the order their causes are reported. A failing check that no rule explains
/// still gets a cause, `check-failed`, naming the check: no failure ends a run without one.
package enum DiagnosisRules {
    package static let all: [DiagnosisRule] = machine + gateway

    package static func diagnose(_ machine: MachineResult, gateways: [GatewayResult]) -> [Diagnosis] {
        diagnose(machine) + gateways.flatMap { diagnose($0, on: machine) }
    }

    /// The causes about the machine alone: they need no Gateway's evidence (watch finds them
    /// once per setup, not once per probe).
    package static func diagnose(_ machine: MachineResult) -> [Diagnosis] {
        let found = self.machine.flatMap { $0.apply(machine, nil, after: []) }
        return found + unexplained(machine.checks, target: nil, explained: found)
    }

    /// The causes about one Gateway, reached from `machine`; the machine's own causes do not
    /// change them.
    package static func diagnose(_ result: GatewayResult, on machine: MachineResult) -> [Diagnosis] {
        var causes: [Diagnosis] = []
        for rule in gateway { causes += rule.apply(machine, result, after: causes) }
        return causes + unexplained(result.checks, target: result.target.label, explained: causes)
    }

    /// A failing check that no diagnosis names in its evidence gets a generic one that does.
    static func unexplained(_ checks: [Check], target: String?, explained: [Diagnosis]) -> [Diagnosis] {
        let named = Set(explained.flatMap(\.evidence))
        return checks.filter { $0.status == .fail && !named.contains(.init($0.id, target: target)) }.map { check in
            Diagnosis(.checkFailed, .check(check, target: target), evidence: [.init(check.id, target: target)])
        }
    }
}
