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

    public struct Report: Sendable, Encodable {
        public let schema = "clawnet.preflight.v1"
        public let ok: Bool
        public let exitCode: Int32
        public let requirements: [Result]
        public let elapsedMs: Int

        private enum CodingKeys: String, CodingKey { case schema, ok, exitCode, requirements, elapsedMs }
    }

    static func checks(for requirements: Set<Requirement>) -> Set<String> {
        var ids = Set<String>()
        if requirements.contains(.mdns) { ids.formUnion(["mdns.dbus", "mdns.daemon", "mdns.interfaces"]) }
        if requirements.contains(.wideArea) { ids.insert("dns.widearea") }
        if requirements.contains(.gateway) { ids.insert("gw.protocol") }
        return ids
    }

    public static func run(_ requirements: Set<Requirement>, options base: DoctorOptions, system: any SystemInspector) async -> Report {
        var options = base
        options.only = checks(for: requirements)
        let report = await Doctor.run(options, system: system)
        let results = Requirement.allCases.filter(requirements.contains).map { evaluate($0, report) }
        let ok = results.allSatisfy(\.ok)
        // 0: all good; 3: every unmet requirement lacks a prerequisite; 1: otherwise.
        let exitCode: Int32 = ok ? 0 : results.filter { !$0.ok }.allSatisfy(\.missingPrerequisite) ? 3 : 1
        return Report(ok: ok, exitCode: exitCode, requirements: results, elapsedMs: report.elapsedMs)
    }

    static func evaluate(_ requirement: Requirement, _ report: DoctorReport) -> Result {
        func check(_ id: String) -> Check? { report.checks.first { $0.id == id } }
        switch requirement {
        case .mdns:
            let failing = ["mdns.dbus", "mdns.daemon", "mdns.interfaces"].compactMap(check).first { $0.status == .fail || $0.status == .skip }
            if let failing {
                return Result(name: .mdns, ok: false, missingPrerequisite: failing.id != "mdns.interfaces", message: failing.message, fix: failing.fix)
            }
            return Result(name: .mdns, ok: true, missingPrerequisite: false, message: check("mdns.daemon")?.message ?? "mDNS works", fix: nil)
        case .wideArea:
            let domains = report.checks.filter { $0.id == "dns.widearea" }
            if let passing = domains.first(where: { $0.status == .pass }) {
                return Result(name: .wideArea, ok: true, missingPrerequisite: false, message: passing.message, fix: nil)
            }
            guard let first = domains.first, first.status != .skip else {
                return Result(name: .wideArea, ok: false, missingPrerequisite: true, message: domains.first?.message ?? "no wide-area domain configured",
                              fix: "set discovery.wideArea.domain in ~/.openclaw/openclaw.json, OPENCLAW_WIDE_AREA_DOMAIN, or --domain")
            }
            return Result(name: .wideArea, ok: false, missingPrerequisite: false, message: first.message, fix: first.fix)
        case .gateway:
            for gateway in report.gateways where gateway.checks.contains(where: { $0.id == "gw.protocol" && $0.status == .pass }) {
                return Result(name: .gateway, ok: true, missingPrerequisite: false, message: "\(gateway.target) answers with connect.challenge", fix: nil)
            }
            let firstFailure = report.gateways.lazy.compactMap { gateway in
                gateway.checks.first { $0.status == .fail }.map { (gateway.target, $0) }
            }.first
            guard let (target, failure) = firstFailure else {
                return Result(name: .gateway, ok: false, missingPrerequisite: false, message: "no Gateway found", fix: "run `clawnet doctor` for the details")
            }
            return Result(name: .gateway, ok: false, missingPrerequisite: false, message: "\(target): \(failure.message)", fix: failure.fix)
        }
    }
}
