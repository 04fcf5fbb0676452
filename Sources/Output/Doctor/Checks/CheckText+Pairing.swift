import DNSSD
import Doctor
import Probes

/// The words of a pairing refusal, per `details.reason` (PAIRING_CONNECT_REASON_METADATA in
/// packages/gateway-protocol/src/connect-error-details.ts), and whether the Gateway kept one
/// request for the device over two connects.
extension CheckText {
    static func pairing(_ error: ConnectError, said: String, evidence: ConnectEvidence) -> CheckText {
        let approve = approveWords(error)
        let waits = requestWords(error)
        let details = error.pairing ?? PairingDetails()
        let message: String
        let fix: String
        switch error.pairingReason ?? .notPaired {
        case .notPaired:
            message = "the Gateway has not approved this device\(waits)"
            fix = approve + (evidence.sent.device.map(sshVerifyWords) ?? "")
        case .roleUpgrade:
            message =
                "the device is paired as \(list(details.approvedRoles, or: "another role")) and now asks as "
                + "\(words(details.requestedRole ?? "?")): a role upgrade waits for approval\(waits)"
            fix = "review the upgrade, then approve it \(approve)"
        case .scopeUpgrade:
            message =
                "the device asks for scopes \(list(details.requestedScopes, or: "?")) beyond the approved "
                + "\(list(details.approvedScopes, or: "none")): a scope upgrade waits for approval\(waits)"
            fix = "review the scopes, then approve them \(approve)"
        case .metadataUpgrade:
            message =
                "the device is paired, but its platform or device family differs from the approved record (another machine or OS "
                + "with this identity, or two node programs sharing it)\(waits)"
            fix = "approve the refreshed record \(approve); give each machine its own ~/.openclaw/identity/device.json"
        case .other(let word):
            message = "pairing required (\(words(word)))\(waits)"
            fix = approve
        }
        let hint = error.remediationHint.map { " (the Gateway says: \(words($0)))" } ?? ""
        return CheckText("\(said): \(message)\(hint)\(repeatWords(evidence))", fix: fix)
    }

    /// The command that approves the request: its id only when it has OpenClaw's shape (a
    /// UUID), after `--`; any other text stays out of the command, since `openclaw devices
    /// approve --latest` would approve the newest request, whoever made it.
    static func approveWords(_ error: ConnectError) -> String {
        let list = "on the Gateway host: `openclaw devices list`, then "
        if let id = error.approvableRequestId { return list + "`openclaw devices approve \(ShellWord.operand(id))`" }
        guard error.requestId != nil else { return list + "`openclaw devices approve <requestId>`" }
        return list + "`openclaw devices approve -- <requestId>` with the id listed there for this device (the request id the "
            + "Gateway sent is not a valid id)"
    }

    /// `; request <id> waits there`, the id shown as text (quoted when it is not a valid id).
    static func requestWords(_ error: ConnectError) -> String {
        guard let id = error.requestId else { return "" }
        if let valid = error.approvableRequestId { return "; request \(valid) waits there" }
        return "; a request waits there, its id not a valid one (\"\(words(id))\")"
    }

    /// What a Gateway with SSH-verified auto-approval needs from this node to approve it by
    /// itself (docs/cli/node.md, docs/gateway/pairing.md: gateway.nodes.pairing.sshVerify, on by
    /// default since 2026.9): an SSH login here and the node's identity through its CLI.
    static func sshVerifyWords(_ device: DeviceIdentity) -> String {
        "; or let the Gateway approve it by itself (gateway.nodes.pairing.sshVerify, on unless turned off): it needs to log in "
            + "here by SSH as this user without a prompt (its key in ~/.ssh/authorized_keys, this host's key known to it), and "
            + "`openclaw node identity --json` here must print device \(device.deviceId.prefix(12))… (the openclaw CLI on the "
            + "PATH of a non-interactive SSH login, reading this identity file)"
    }

    /// With a device doctor connects twice: the same requestId means the Gateway keeps one
    /// request for it; another means the request was replaced between the two.
    static func repeatWords(_ evidence: ConnectEvidence) -> String {
        let refusals = evidence.pairingRefusals
        guard refusals.count == 2, let first = refusals.first?.requestId, let second = refusals.last?.requestId else { return "" }
        if first == second { return "; asked again, the Gateway kept the same request for this device" }
        return "; asked again, the Gateway answered with another request (\(words(first)), then \(words(second))): it replaced the "
            + "request between two connects of one device"
    }

    static func list(_ items: [String], or none: String) -> String {
        items.isEmpty ? none : items.prefix(8).map(words).joined(separator: ", ")
    }

    /// A word from the Gateway, made safe and short for the terminal.
    static func words(_ text: String) -> String { SafeText.display(Array(text.utf8.prefix(128))) }
}
