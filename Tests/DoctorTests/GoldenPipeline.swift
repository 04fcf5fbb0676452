import DNSSD
import Foundation
import Host

@testable import Doctor
@testable import Output
@testable import Probes

/// A scene through doctor's stages after probing, as `Doctor.run` takes them: the checks of
/// each Gateway and of the machine, the relaxations, the diagnosis, the report.
extension GoldenScene {
    func result() -> DoctorResult {
        let facts = MachineFacts.gather(system)
        let only = only.map(CheckID.closure)
        let anyDiscovered = !discovery.beacons.isEmpty
        let results = gateways.map { gateway -> GatewayResult in
            if let unknown = gateway.unknown { return Doctor.unknownTarget(try! DoctorTarget(unknown)) }
            var checks = GatewayChecks.run(
                gateway.report, dnsProblem: gateway.dnsProblem, pin: gateway.pin,
                pinSource: gateway.pinFromConfig ? "gateway.remote.tlsFingerprint" : "--pin", budget: Golden.budget, routes: facts.routes,
                now: Golden.now)
            if gateway.isLocalFallback && anyDiscovered {
                checks = Doctor.relaxLocalFallback(checks, label: gateway.report.target.label, configured: facts.config.exists)
            }
            return GatewayResult(
                target: gateway.report.target, beacon: gateway.beacon, checks: checks, tcp: gateway.report.tcp,
                served: gateway.report.tlsFacts?.fingerprint)
        }
        var machine = MachineChecks.run(facts, discovery: discovery, multicast: multicast)
        if explicitTargets { machine = Doctor.relaxUnneeded(machine, needed: Doctor.dependencies(of: results)) }
        let diagnosis = DiagnosisRules.diagnose(MachineEvidence(checks: machine, facts: facts, discovery: discovery), gateways: results)
        var result = Doctor.result(machine: machine, gateways: results, diagnosis: diagnosis, only: only, elapsed: .milliseconds(1234))
        result.snippets = ZoneSnippets.make(results, discovery: discovery, facts: facts)
        return result
    }

    /// Preflight's answer for `requirements` from this scene (its `only` is preflight's).
    func preflight(_ requirements: Set<Preflight.Requirement>) -> PreflightReport {
        var scene = self
        scene.only = Preflight.checks(for: requirements, pinned: gateways.contains { $0.pin != nil })
        let doctor = scene.result()
        let results = Preflight.Requirement.allCases.filter(requirements.contains).map { Preflight.evaluate($0, doctor) }
        return PreflightReport(requirements: results, elapsed: .milliseconds(321))
    }
}
