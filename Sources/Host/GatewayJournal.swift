import FoundationEssentials
import Glibc

/// The Gateway's recent journal lines, read with `journalctl` (each run bounded by SystemTool):
/// its system units, and its user units of every user. `journalctl --user-unit` matches only the
/// caller's own user units, and clawnet runs as root while the Gateway runs as its user
/// (`systemctl --user`), so user units are found by name (`-F`) and matched by field.
struct GatewayJournal {
    /// The Gateway's units: `openclaw-gateway.service`, or `openclaw-gateway-<profile>.service`
    /// (follows openclaw/openclaw src/daemon/constants.ts resolveGatewaySystemdServiceName).
    static let unitPrefix = "openclaw-gateway"
    /// Journal lines kept per scope (system units, user units).
    static let lines = 200
    /// More user units than any machine runs Gateways; the rest are left out.
    static let maxUserUnits = 16

    let tool: String
    /// A journal folder to read instead of the machine's (`journalctl --directory`).
    let directory: String?

    /// The text for the archive, or why there is none.
    func read() -> Result<String, GatewayJournalAbsence> {
        guard access(tool, X_OK) == 0 else { return .failure(.init(why: "\(tool) is not installed")) }
        if let directory {
            var status = stat()
            guard stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                return .failure(.init(why: "\(directory) (CLAWNET_JOURNAL_DIRECTORY) is not a folder"))
            }
        } else if access("/run/systemd/journal", F_OK) != 0 {
            return .failure(.init(why: "no systemd journal on this machine (/run/systemd/journal is missing)"))
        }
        let source = directory.map { ["--directory", $0] } ?? []
        let common = ["--no-pager", "-o", "short-iso", "-n", String(Self.lines)]
        var text = section(source + common + ["--unit=\(Self.unitPrefix)*"])
        let users = userUnits(source)
        if users.isEmpty {
            text += "# user units: none named \(Self.unitPrefix)* in the journal\n"
        } else {
            // Matches on different fields are joined with "+" (or); the user manager's own lines
            // about a unit (started, exited, restarting) carry USER_UNIT.
            let matches = users.flatMap { ["_SYSTEMD_USER_UNIT=\($0)", "+", "USER_UNIT=\($0)", "+"] }.dropLast()
            text += section(source + common + Array(matches))
        }
        return .success(text)
    }

    /// One journalctl run, headed by its arguments.
    private func section(_ arguments: [String]) -> String {
        let output = SystemTool.output(tool, arguments).map { String(decoding: $0, as: UTF8.self) }
        return "# journalctl \(arguments.joined(separator: " "))\n" + (output ?? "(journalctl failed or did not finish in time)\n")
    }

    /// The Gateway's user units named in the journal, of any user.
    private func userUnits(_ source: [String]) -> [String] {
        var units: Set<String> = []
        for field in ["_SYSTEMD_USER_UNIT", "USER_UNIT"] {
            guard let output = SystemTool.output(tool, source + ["--no-pager", "-F", field]) else { continue }
            for line in String(decoding: output, as: UTF8.self).split(separator: "\n") where Self.isGatewayUnit(line) {
                units.insert(String(line))
            }
        }
        return Array(units.sorted().prefix(Self.maxUserUnits))
    }

    /// `openclaw-gateway[-profile].service` in the characters systemd allows in a unit name: a name
    /// from the journal becomes an argument only when it is one.
    static func isGatewayUnit(_ name: Substring) -> Bool {
        guard name.hasPrefix(unitPrefix), name.hasSuffix(".service"), name.count <= 256 else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || "-_.@:\\".utf8.contains(byte)
        }
    }
}

/// Why the archive has no journal lines (for the manifest).
struct GatewayJournalAbsence: Error {
    let why: String
}
