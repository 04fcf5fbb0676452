import DNSSD

/// `clawnet preflight`: can this machine discover and reach a Gateway? A yes or no per
/// requirement, from the doctor checks that decide it.
package enum Preflight {
    package enum Requirement: String, Sendable, CaseIterable, Codable {
        case mdns
        case wideArea = "wide-area"
        case gateway
    }

    package struct Result: Sendable {
        package let name: Requirement
        package let ok: Bool
        /// Could not even be tried: a prerequisite is missing (no Avahi, no domain).
        package let missingPrerequisite: Bool
        /// What decided it, for the words.
        package let finding: Finding

        package init(name: Requirement, ok: Bool, missingPrerequisite: Bool = false, _ finding: Finding) {
            self.name = name
            self.ok = ok
            self.missingPrerequisite = missingPrerequisite
            self.finding = finding
        }
    }

    /// What decided a requirement.
    package enum Finding: Sendable, Equatable {
        /// The check that decided it (its fix shown when the requirement is not met).
        case check(Check)
        /// mDNS holds, and no avahi-daemon check says how.
        case mdnsWorks
        /// No wide-area domain to check (the skipped dns.widearea check, when there is one).
        case noDomain(Check?)
        /// This Gateway answers with connect.challenge and failed nothing.
        case gatewayAnswers(target: String)
        /// The first failure of the first Gateway that failed one.
        case gatewayFailed(target: String, Check)
        case noGateway
    }

    /// The checks each requirement is decided by. The certificate must match the pin, or else
    /// the fingerprint its beacon advertises, as doctor and watch judge it: a Gateway whose
    /// certificate is not the one it advertises is not a yes.
    static func checks(for requirements: Set<Requirement>) -> Set<CheckID> {
        var ids = Set<CheckID>()
        if requirements.contains(.mdns) { ids.formUnion(mdnsChecks) }
        if requirements.contains(.wideArea) { ids.insert(.dnsWideArea) }
        if requirements.contains(.gateway) { ids.formUnion([.gwProtocol, .gwPin]) }
        return ids
    }

    static let mdnsChecks: [CheckID] = [.mdnsDBus, .mdnsDaemon, .mdnsInterfaces]

    /// One result per requirement, in a fixed order, and how long it took: doctor's run,
    /// asked only the checks that decide them.
    package static func run(_ requirements: Set<Requirement>, options base: DoctorOptions, system: any SystemInspector, io: DoctorIO)
        async -> ([Result], Duration)
    {
        var options = base
        options.only = checks(for: requirements)
        // What is required fails on its own, whatever TARGETs are given and whether they need it.
        options.required = options.only ?? []
        let doctor = await Doctor.run(options, system: system, io: io)
        return (Requirement.allCases.filter(requirements.contains).map { evaluate($0, doctor) }, doctor.elapsed)
    }

    static func evaluate(_ requirement: Requirement, _ doctor: DoctorResult) -> Result {
        switch requirement {
        case .mdns: mdns(doctor)
        case .wideArea: wideArea(doctor)
        case .gateway: gateway(doctor)
        }
    }

    static func mdns(_ doctor: DoctorResult) -> Result {
        func check(_ id: CheckID) -> Check? { doctor.checks.first { $0.id == id } }
        if let failing = mdnsChecks.compactMap(check).first(where: { $0.status == .fail || $0.status == .skip }) {
            return Result(name: .mdns, ok: false, missingPrerequisite: failing.id != .mdnsInterfaces, .check(failing))
        }
        return Result(name: .mdns, ok: true, check(.mdnsDaemon).map(Finding.check) ?? .mdnsWorks)
    }

    static func wideArea(_ doctor: DoctorResult) -> Result {
        let domains = doctor.checks.filter { $0.id == .dnsWideArea }
        if let passing = domains.first(where: { $0.status == .pass }) { return Result(name: .wideArea, ok: true, .check(passing)) }
        guard let first = domains.first, first.status != .skip else {
            return Result(name: .wideArea, ok: false, missingPrerequisite: true, .noDomain(domains.first))
        }
        return Result(name: .wideArea, ok: false, .check(first))
    }

    static func gateway(_ doctor: DoctorResult) -> Result {
        for gateway in doctor.gateways
        where gateway.checks.contains(where: { $0.id == .gwProtocol && $0.status == .pass })
            && !gateway.checks.contains(where: { $0.status == .fail })
        {
            return Result(name: .gateway, ok: true, .gatewayAnswers(target: gateway.target))
        }
        let firstFailure = doctor.gateways.lazy.compactMap { gateway in
            gateway.checks.first { $0.status == .fail }.map { (gateway.target, $0) }
        }.first
        guard let (target, failure) = firstFailure else { return Result(name: .gateway, ok: false, .noGateway) }
        return Result(name: .gateway, ok: false, .gatewayFailed(target: target, failure))
    }
}
