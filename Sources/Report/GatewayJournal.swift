import FoundationEssentials
import Glibc
import Host

/// The Gateway's recent journal lines, read with `journalctl` (each run bounded by SystemTool):
/// its system units, and the user units of the Gateway's user (`GatewayUser`). `journalctl
/// --user-unit` matches only the caller's own user units, and clawnet runs as root while the
/// Gateway runs as its user (`systemctl --user`), so user units are matched by field, and only
/// on entries whose `_UID` (set by journald, not by the sender) is that user's or root's: any
/// local user can run a unit of the same name, or log a line with `USER_UNIT=` set to it.
struct GatewayJournal {
    /// The Gateway's units: `openclaw-gateway.service`, or `openclaw-gateway-<profile>.service`
    /// (follows openclaw/openclaw src/daemon/constants.ts resolveGatewaySystemdServiceName).
    static let unitPrefix = "openclaw-gateway"
    static let canonicalUnit = "openclaw-gateway.service"
    /// Journal lines kept per scope (system units, user units).
    static let lines = 200
    /// Every name seen in the journal is read (anyone may log lines under made-up names, so a
    /// small cap would let them push the Gateway's own name out), up to this many: two matches a
    /// name, about 100 bytes, stay far below the kernel's limit on arguments (ARG_MAX, 2 MiB).
    /// The canonical name and the user's own unit files come first; a note counts names left out.
    static let maxUserUnits = 4096
    /// What `journalctl -F` may print: about as many names as are read.
    static let namesLimit = 256 << 10

    let tool: String
    /// A journal folder to read instead of the machine's (`journalctl --directory`).
    let directory: String?
    let user: GatewayUser

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
        let (units, notes) = userUnits(source)
        let owners = Set([user.uid, 0]).sorted().map { "_UID=\($0)" }
        text += "# user units of \(Ownership.user(user.uid)) and of root only: lines others log under these names are left out\n"
        text += notes.map { "# \($0)\n" }.joined()
        // Matches on one field are alternatives, on different fields all required; "+" joins two
        // such groups. The user manager's own lines about a unit (started, exited, restarting)
        // carry USER_UNIT, its processes' lines _SYSTEMD_USER_UNIT.
        let byProcess = owners + units.map { "_SYSTEMD_USER_UNIT=\($0)" }
        let byManager = owners + units.map { "USER_UNIT=\($0)" }
        text += section(source + common + byProcess + ["+"] + byManager)
        return .success(text)
    }

    /// One journalctl run, headed by its arguments.
    private func section(_ arguments: [String]) -> String {
        let output = SystemTool.output(tool, arguments).map { String(decoding: $0, as: UTF8.self) }
        return "# journalctl \(arguments.joined(separator: " "))\n" + (output ?? "(journalctl failed or did not finish in time)\n")
    }

    /// The user units to read: the canonical name and the user's own unit files first, then
    /// names seen in the journal (of any user); and notes on the names that were not read.
    private func userUnits(_ source: [String]) -> (units: [String], notes: [String]) {
        var units = [Self.canonicalUnit]
        for name in unitFiles() where !units.contains(name) { units.append(name) }
        var seen: Set<String> = []
        var notes: [String] = []
        for field in ["_SYSTEMD_USER_UNIT", "USER_UNIT"] {
            guard let run = SystemTool.run(tool, source + ["--no-pager", "-F", field], limit: Self.namesLimit),
                run.end == .exited(0) || run.end == .tooMuchOutput
            else {
                notes.append("the values of \(field) in the journal could not be listed (journalctl -F failed)")
                continue
            }
            var lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n")
            if run.end == .tooMuchOutput {
                lines = lines.dropLast()
                notes.append(
                    "the journal holds more values of \(field) than \(Self.namesLimit >> 10) KiB: only those listed first were read")
            }
            for line in lines where Self.isGatewayUnit(line) { seen.insert(String(line)) }
        }
        let others = seen.subtracting(units).sorted()
        let room = max(0, Self.maxUserUnits - units.count)
        if others.count > room {
            notes.append(
                "\(others.count - room) more user-unit names \(Self.unitPrefix)* seen in the journal were not read "
                    + "(at most \(Self.maxUserUnits))")
        }
        return (units + others.prefix(room), notes)
    }

    /// The Gateway units among the user's unit files (`openclaw gateway install` writes
    /// ~/.config/systemd/user/openclaw-gateway[-profile].service: src/daemon/systemd.ts).
    private func unitFiles() -> [String] {
        guard let home = user.account?.home else { return [] }
        let folder = home + "/.config/systemd/user"
        var status = stat()
        guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, user.counts(owner: status.st_uid) else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { Self.isGatewayUnit(Substring($0)) }.sorted().prefix(Self.maxUserUnits).map { $0 }
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
