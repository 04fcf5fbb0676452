import DNSSD
import Foundation
import Host

@testable import Doctor
@testable import Output
@testable import Probes

/// A scene through doctor's stage after probing (`Doctor.report`, as `Doctor.run` takes it):
/// each Gateway judged as doctor and watch judge it (`GatewayJudgement`), the machine's
/// checks, the relaxations, the diagnosis, the report.
extension GoldenScene {
    func result() -> DoctorResult {
        var options = DoctorOptions()
        options.targets = explicitTargets ? [try! DoctorTarget("named")] : []
        options.noLocal = !multicast
        options.only = only
        let probed = gateways.filter { $0.unknown == nil }.map { gateway in
            var target = Doctor.Target(probe: gateway.report.target, beacon: gateway.beacon, dnsProblem: gateway.dnsProblem)
            target.pin = gateway.pin.map { Pin($0, source: gateway.pinFromConfig ? .remoteConfig : .flag) }
            target.isLocalFallback = gateway.isLocalFallback
            target.foundTLS = gateway.foundTLS
            return (target, gateway.report)
        }
        let unknown = gateways.compactMap(\.unknown).map { try! DoctorTarget($0) }
        let network = RecordedNetwork(now: Golden.now)
        let doctor = Doctor(options, facts: MachineFacts.gather(system), io: network.io(), deadline: Deadline(Golden.budget))
        var result = doctor.report(probed, unknown: unknown, discovery: discovery, budget: Golden.budget)
        result.elapsed = .milliseconds(1234)
        return result
    }

    /// Preflight's answer for `requirements` from this scene (its `only` is preflight's).
    func preflight(_ requirements: Set<Preflight.Requirement>) -> PreflightReport {
        var scene = self
        scene.only = Preflight.checks(for: requirements)
        let doctor = scene.result()
        let results = Preflight.Requirement.allCases.filter(requirements.contains).map { Preflight.evaluate($0, doctor) }
        return PreflightReport(requirements: results, elapsed: .milliseconds(321))
    }
}
