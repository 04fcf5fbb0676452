import DNSSD
import Doctor
import Probes

/// The words of openclaw.identity: which identity file breaks, who reads it, and what
/// OpenClaw's node host does with it (src/infra/device-identity.ts).
extension CheckText {
    static func identity(_ reason: CheckReason, _ evidence: IdentityEvidence) -> CheckText {
        let files = evidence.files
        switch reason {
        case .identityInvalid:
            guard let file = files.first(where: \.invalid), case .invalid(let why) = file.state else { break }
            return CheckText(
                "\(place(file)): \(why): OpenClaw's node host leaves the file as it is and uses a new key at every start, so the "
                    + "Gateway sees a new device, and a new pairing request, each time",
                fix: "move it aside (`mv -- \(ShellWord.quoted(file.path)) \(ShellWord.quoted(file.path + ".broken"))`), restart the "
                    + "node so it writes a new identity, and approve that device once on the Gateway host (`openclaw devices list`, "
                    + "`openclaw devices approve <requestId>`)")
        case .identityUnreadable:
            guard let file = files.first(where: \.unreadable) else { break }
            let who = file.deniedTo.isEmpty ? "the node host" : file.deniedTo.joined(separator: ", ")
            return CheckText(
                "\(place(file)) is \(ownership(file)): \(who) may not read it, so the node host uses a new key at every start (a new "
                    + "device and a new pairing request each time); sudo or another user made it",
                fix: "give it back to the node's user: `sudo chown -- \(file.deniedTo.first.map { ShellWord.quoted($0 + ":") } ?? "USER:") "
                    + "\(ShellWord.quoted(file.path))` and `chmod 600 \(ShellWord.operand(file.path))`, then restart the node")
        case .identityElsewhere:
            return CheckText(
                "the node is started in ways that read different identities: "
                    + files.map { "\(readers($0)) reads \($0.path) (\(device($0)))" }.joined(separator: "; ")
                    + ": the Gateway sees one device per identity, and approving one leaves the others asking",
                fix: "start the node one way only (`openclaw node install` makes a user service for your user; drop `sudo`), or "
                    + "point the others at one state dir (Environment=OPENCLAW_STATE_DIR=... in the unit); then approve that device once")
        case .identityMissing:
            guard let file = evidence.primary else { break }
            return CheckText(
                "\(place(file)): no usable identity yet: the node host makes one at its next start, a new device the Gateway has to "
                    + "approve",
                fix: "start the node once and approve its request on the Gateway host (`openclaw devices approve <requestId>`); a node "
                    + "that was paired before lost its identity or now reads another HOME")
        case .identityExposed:
            guard let file = files.first(where: \.exposed) else { break }
            return CheckText(
                "\(place(file)) holds the device's private key and group or others may read it (\(ownership(file)))",
                fix: "`chmod 600 \(ShellWord.operand(file.path))`")
        case .identityNotRead:
            return CheckText("a node, but no device identity file was looked at (no HOME or OPENCLAW_STATE_DIR to find it)")
        case .notNode:
            return CheckText("not a node (no gateway.mode \"remote\", --as-device or openclaw-node service): no device identity to check")
        default: break
        }
        guard let file = evidence.primary else { return CheckText(reason.rawValue) }
        return CheckText("\(place(file)): \(device(file)), \(ownership(file)): the node shows the Gateway this device every time")
    }

    /// `PATH (read by alice's node)`.
    static func place(_ file: IdentityFile) -> String { "\(file.path) (\(readers(file)))" }

    static func readers(_ file: IdentityFile) -> String {
        file.readers.map { reader in
            switch reader {
            case .asDevice: "--as-device"
            case .thisShell(let user): "`openclaw node` run here as \(user)"
            case .sudoUser(let user): "\(user)'s node"
            case .service(let unit, let user): "systemd unit \(unit) as \(user)"
            }
        }.joined(separator: ", ")
    }

    static func device(_ file: IdentityFile) -> String {
        switch file.state {
        case .valid(let id, let matches):
            "device \(id.prefix(12))…" + (matches ? "" : ", its stored deviceId corrected at the next start")
        case .missing: "none yet: a new device at its next start"
        case .notIdentity: "not an identity: replaced by a new device at its next start"
        case .invalid, .unreadable: "unusable: a new device at every start"
        }
    }

    /// `owned by root, mode 0600`.
    static func ownership(_ file: IdentityFile) -> String {
        guard let owner = file.owner else { return "not there" }
        let mode = file.mode.map { "mode 0\(String($0, radix: 8))" } ?? "mode unknown"
        return "owned by \(file.ownerName ?? "uid \(owner)"), \(mode)"
    }
}
