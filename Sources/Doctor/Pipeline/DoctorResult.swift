import DNSSD
import Probes

/// What doctor found: the machine's checks, each Gateway's, and the causes they add up to.
package struct DoctorResult: Sendable {
    package struct Gateway: Sendable {
        /// How the report names it: its URL, or what the user typed.
        package let target: String
        package let beacon: GatewayBeacon?
        package let checks: [Check]

        package init(target: String, beacon: GatewayBeacon?, checks: [Check]) {
            self.target = target
            self.beacon = beacon
            self.checks = checks
        }

        /// The implicit 127.0.0.1 target where nothing listens, while Gateways were found
        /// elsewhere: where a Gateway of this machine would be, not a Gateway (never counted).
        package var isVacant: Bool { checks.contains { $0.reason == .noLocalGateway } }

        /// The worst of its checks, as its line in the table is marked; skip when none ran, or vacant.
        package var status: Check.Status { isVacant ? .skip : checks.map(\.status).max() ?? .skip }
    }

    package let status: Check.Status
    package let checks: [Check]
    package let gateways: [Gateway]
    package let diagnosis: [Diagnosis]
    /// How many Gateways were checked: a vacant 127.0.0.1 is not one.
    package var gatewaysChecked: Int { gateways.filter { !$0.isVacant }.count }
    /// Records to add to a wide-area zone for verified Gateways it lacks or has stale.
    package var snippets: [ZoneSnippet] = []
    package var elapsed: Duration

    package init(status: Check.Status, checks: [Check], gateways: [Gateway], diagnosis: [Diagnosis], elapsed: Duration) {
        self.status = status
        self.checks = checks
        self.gateways = gateways
        self.diagnosis = diagnosis
        self.elapsed = elapsed
    }

    /// The report, keeping only the requested checks (and the causes they show): with machine
    /// checks only, no Gateway is reported (nor counted), as it was not checked.
    init(machine: [Check], gateways: [GatewayResult], diagnosis: [Diagnosis], only: Set<CheckID>?) {
        func wanted(_ id: CheckID) -> Bool { only?.contains(id) ?? true }
        let checks = machine.filter { wanted($0.id) }
        let gatewayChecked = CheckID.gateway.contains(where: wanted)
        let reports = (gatewayChecked ? gateways : []).map { result in
            Gateway(target: result.target.label, beacon: result.beacon, checks: result.checks.filter { wanted($0.id) })
        }
        let status = (checks + reports.flatMap(\.checks)).map(\.status).max() ?? .pass
        self.init(
            status: status == .skip ? .pass : status, checks: checks, gateways: reports,
            diagnosis: diagnosis.filter { $0.evidence.contains { wanted($0.check) } }, elapsed: .zero)
    }
}
