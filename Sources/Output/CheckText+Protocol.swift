import DNSSD
import Doctor
import Probes

/// The words of the protocol a Gateway speaks: the range doctor offered as OpenClaw's clients
/// do (packages/gateway-protocol/src/version.ts), which side is older on a mismatch, and the
/// tries a starting Gateway or the v3 node envelope took.
extension CheckText {
    /// hello-ok on the previous protocol.
    static func olderProtocol(_ said: String, hello: HelloOk) -> CheckText {
        let version = hello.protocolVersion.map(String.init) ?? "?"
        return CheckText(
            "\(said): the Gateway speaks protocol v\(version), older than OpenClaw's current v\(ProtocolRange.currentVersion): nodes "
                + "and probes still connect (they may speak N-1), current operator clients (Control UI, `openclaw` CLI, v4 only) are "
                + "refused",
            fix: "update OpenClaw on the Gateway host (`openclaw update`, then `openclaw gateway restart`)")
    }

    /// A refused range: the Gateway's version against the range offered, and which side is older.
    static func protocolMismatch(_ error: ConnectError, said: String, offered: ProtocolRange) -> CheckText {
        guard let expected = error.expectedProtocol else {
            return CheckText(
                "\(said): the Gateway refused the protocol range \(offered) and named no version of its own",
                fix: "update OpenClaw on the Gateway and the nodes to the same release")
        }
        let both = "the Gateway speaks protocol v\(expected), doctor offered \(offered) as OpenClaw's clients do"
        switch offered.older(than: expected) {
        case .gateway:
            return CheckText(
                "\(said): the Gateway is older than its nodes: \(both)",
                fix: "update OpenClaw on the Gateway host (`openclaw update`, then `openclaw gateway restart`)")
        case .client:
            return CheckText(
                "\(said): the node is older than its Gateway: \(both)",
                fix: "update OpenClaw on the nodes (`openclaw update` on each), and clawnet on this machine")
        case .neither:
            return CheckText(
                "\(said): \(both), and refused it all the same (its minimum for this client is above the range)",
                fix: "update OpenClaw on the Gateway and the nodes to the same release")
        }
    }

    /// How doctor got to the last answer, when it took more than one request; nil for one.
    static func triesWords(_ evidence: ConnectEvidence, answer: CheckReason) -> String? {
        guard evidence.tries.count > 1 else { return nil }
        var notes: [String] = []
        let starting = evidence.startingTries
        if answer == .gatewayStarting {
            notes.append(
                "still starting after \(Plural.counted(evidence.tries.count, "try", plural: "tries")) over \(seconds(evidence.waited)) s")
        } else if !starting.isEmpty {
            let reason = starting.last?.rejection?.reason.map { " (\(SafeText.display(Array($0.utf8.prefix(60)))))" } ?? ""
            notes.append(
                "after \(Plural.counted(starting.count, "answer")) that it was starting\(reason), \(seconds(evidence.waited)) s in all")
        }
        if evidence.fellBackToLegacyNode {
            notes.append(
                "the Gateway refused the node host's v\(ProtocolRange.currentVersion) with expectedProtocol "
                    + "\(ProtocolRange.previousVersion); doctor asked again in the released v\(ProtocolRange.previousVersion) node "
                    + "envelope, as the node host does")
        }
        return notes.isEmpty ? nil : "(" + notes.joined(separator: "; ") + ")"
    }
}
