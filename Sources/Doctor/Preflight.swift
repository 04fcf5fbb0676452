import DNSSD

/// `clawnet preflight`: can this machine discover and reach a Gateway? A yes or no per
/// requirement, from the doctor checks that decide it.
public enum Preflight {
    public enum Requirement: String, Sendable, CaseIterable, Codable {
        case mdns
        case wideArea = "wide-area"
        case gateway
    }

    public struct Result: Sendable, Encodable {
        public let name: Requirement
        public let ok: Bool
        /// Could not even be tried: a prerequisite is missing (no Avahi, no domain).
        public let missingPrerequisite: Bool
        public let message: String
        public let fix: String?
    }

    /// The checks each requirement is decided by (with a pin, the certificate must match it).
    static func checks(for requirements: Set<Requirement>, pinned: Bool = false) -> Set<CheckID> {
        var ids = Set<CheckID>()
        if requirements.contains(.mdns) { ids.formUnion(mdnsChecks) }
        if requirements.contains(.wideArea) { ids.insert(.dnsWideArea) }
        if requirements.contains(.gateway) { ids.formUnion(pinned ? [.gwProtocol, .gwPin] : [.gwProtocol]) }
        return ids
    }

    static let mdnsChecks: [CheckID] = [.mdnsDBus, .mdnsDaemon, .mdnsInterfaces]

    /// One result per requirement, in a fixed order, and how long it took.
    public static func run(_ requirements: Set<Requirement>, options base: DoctorOptions, system: any SystemInspector) async -> (
        [Result], Duration
    ) {
        var options = base
        options.only = checks(for: requirements, pinned: options.pin != nil)
        let doctor = await Doctor.run(options, system: system)
        return (Requirement.allCases.filter(requirements.contains).map { evaluate($0, doctor) }, doctor.elapsed)
    }

    static func evaluate(_ requirement: Requirement, _ doctor: DoctorResult) -> Result {
        func check(_ id: CheckID) -> Check? { doctor.checks.first { $0.id == id } }
        switch requirement {
        case .mdns:
            if let failing = mdnsChecks.compactMap(check).first(where: { $0.status == .fail || $0.status == .skip }) {
                return Result(
                    name: .mdns, ok: false, missingPrerequisite: failing.id != .mdnsInterfaces, message: failing.message, fix: failing.fix)
            }
            return Result(name: .mdns, ok: true, missingPrerequisite: false, message: check(.mdnsDaemon)?.message ?? "mDNS works", fix: nil)
        case .wideArea:
            let domains = doctor.checks.filter { $0.id == .dnsWideArea }
            if let passing = domains.first(where: { $0.status == .pass }) {
                return Result(name: .wideArea, ok: true, missingPrerequisite: false, message: passing.message, fix: nil)
            }
            guard let first = domains.first, first.status != .skip else {
                return Result(
                    name: .wideArea, ok: false, missingPrerequisite: true,
                    message: domains.first?.message ?? "no wide-area domain configured",
                    fix: "set discovery.wideArea.domain in ~/.openclaw/openclaw.json, OPENCLAW_WIDE_AREA_DOMAIN, or --domain")
            }
            return Result(name: .wideArea, ok: false, missingPrerequisite: false, message: first.message, fix: first.fix)
        case .gateway:
            for gateway in doctor.gateways
            where gateway.checks.contains(where: { $0.id == .gwProtocol && $0.status == .pass })
                && !gateway.checks.contains(where: { $0.status == .fail })
            {
                return Result(
                    name: .gateway, ok: true, missingPrerequisite: false, message: "\(gateway.target) answers with connect.challenge",
                    fix: nil)
            }
            let firstFailure = doctor.gateways.lazy.compactMap { gateway in
                gateway.checks.first { $0.status == .fail }.map { (gateway.target, $0) }
            }.first
            guard let (target, failure) = firstFailure else {
                return Result(
                    name: .gateway, ok: false, missingPrerequisite: false, message: "no Gateway found",
                    fix: "run `clawnet doctor` for the details")
            }
            return Result(name: .gateway, ok: false, missingPrerequisite: false, message: "\(target): \(failure.message)", fix: failure.fix)
        }
    }
}
