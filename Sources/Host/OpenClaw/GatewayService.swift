/// The Gateway's systemd unit on a Linux Gateway host (`openclaw gateway install` makes the user
/// unit openclaw-gateway.service, Restart=always), as `systemctl --user show` prints it, with
/// recent lines of its journal. systemd does not run in the test bed: tests give recorded output.
package struct GatewayService: Sendable, Equatable {
    package static let unit = "openclaw-gateway.service"
    /// The properties read (`systemctl --user show openclaw-gateway.service -p ...`).
    package static let properties = ["NRestarts", "ExecMainStatus", "ExecMainCode", "ActiveState", "SubState", "Result"]
    /// Restarts since the unit was started that make a loop rather than a one-off.
    package static let loopThreshold = 3
    /// Journal lines kept: enough to see the crash, bounded whatever the journal holds.
    package static let journalLimit = 20

    package var restarts: Int?
    package var mainStatus: Int?
    /// ExecMainCode: 1 exited, 2 killed, 3 dumped core (the CLD_* codes of waitid(2)).
    package var mainCode: Int?
    package var activeState: String?
    package var subState: String?
    package var result: String?
    /// The last lines of the unit's journal, oldest first, each cut to a line's worth.
    package var journal: [String] = []

    /// Reads `KEY=value` lines of `systemctl show`, and the journal's text.
    package init(show: String, journal: String = "") {
        for line in show.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "NRestarts": restarts = Int(parts[1])
            case "ExecMainStatus": mainStatus = Int(parts[1])
            case "ExecMainCode": mainCode = Int(parts[1])
            case "ActiveState": activeState = parts[1]
            case "SubState": subState = parts[1]
            case "Result": result = parts[1]
            default: break
            }
        }
        self.journal = journal.split(whereSeparator: \.isNewline).suffix(Self.journalLimit).map { String($0.prefix(240)) }
    }

    /// systemd restarted it `loopThreshold` times or more, and it is not simply running.
    package var looping: Bool {
        (restarts ?? 0) >= Self.loopThreshold && !(activeState == "active" && subState == "running")
    }

    /// Words of the journal that name OpenClaw's own mDNS advertiser (the bonjour plugin and the
    /// @homebridge/ciao library it uses) or UDP 5353: the crash class users report beside Avahi.
    package static let advertiserWords = ["bonjour", "ciao", "mdns", "5353"]

    /// The journal lines that name the mDNS advertiser.
    package var advertiserLines: [String] {
        journal.filter { line in Self.advertiserWords.contains { line.lowercased().contains($0) } }
    }
}
