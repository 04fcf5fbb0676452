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

    /// A refused range: the Gateway's version (and its window for probes and nodes) against the
    /// range offered, and which side is older; the numbers are the Gateway's, never assumed
    /// (formatProtocolMismatchMessage in packages/gateway-protocol/src/connect-error-details.ts).
    static func protocolMismatch(_ error: ConnectError, said: String, offered: ProtocolRange) -> CheckText {
        let build = error.gatewayBuildId.map { ", build \(words($0))" } ?? ""
        let reload = error.reloadRequired == true ? "; the Gateway asks its Control UI to reload (a new build)" : ""
        guard let expected = error.expectedProtocol else {
            return CheckText(
                "\(said): the Gateway refused the protocol range \(offered) and named no version of its own\(build)\(reload)",
                fix: "update OpenClaw on the Gateway and the nodes to the same release")
        }
        let window = error.minimumProbeProtocol.map { $0 < expected ? " (probes and nodes from v\($0))" : "" } ?? ""
        let both = "the Gateway speaks protocol v\(expected)\(window)\(build), doctor offered \(offered) as OpenClaw's clients do\(reload)"
        switch offered.older(than: expected, minimum: error.minimumProbeProtocol) {
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
                "\(said): \(both), and refused it all the same (a rule for this client's role or mode)",
                fix: "update OpenClaw on the Gateway and the nodes to the same release")
        }
    }

    /// How doctor got to the last answer, when it took more than one request; nil for one.
    static func triesWords(_ evidence: ConnectEvidence, answer: CheckReason) -> String? {
        guard evidence.tries.count > 1 else { return nil }
        var notes: [String] = []
        let paused = evidence.pausedTries
        if answer == .gatewayStarting || answer == .gatewayRestarting {
            // A start says its reason in the fix; a drain, here.
            let state = evidence.phase.outcome.pause.flatMap { $0.isStartup ? nil : pauseWords($0) } ?? "starting"
            notes.append(
                "still \(state) after \(Plural.counted(evidence.tries.count, "try", plural: "tries")) over \(seconds(evidence.waited)) s")
        } else if let last = paused.last?.outcome.pause {
            notes.append(
                "after \(Plural.counted(paused.count, "answer")) that it was \(pauseWords(last)), \(seconds(evidence.waited)) s in all")
        }
        if evidence.fellBackToLegacyNode {
            notes.append(
                "the Gateway refused the node host's v\(ProtocolRange.currentVersion) with expectedProtocol "
                    + "\(ProtocolRange.previousVersion); doctor asked again in the released v\(ProtocolRange.previousVersion) node "
                    + "envelope, as the node host does")
        }
        return notes.isEmpty ? nil : "(" + notes.joined(separator: "; ") + ")"
    }

    /// What a pausing Gateway said it was doing, with its own reason word.
    static func pauseWords(_ pause: GatewayPause) -> String {
        switch pause {
        case .starting: "starting (startup-sidecars)"
        case .draining(let drain, _): "\(drain.rawValue.dropFirst("gateway-".count)) (\(drain.rawValue))"
        case .closed(let code): code == 1012 ? "restarting (close 1012, service restart)" : "busy (close 1013, try again later)"
        }
    }
}
