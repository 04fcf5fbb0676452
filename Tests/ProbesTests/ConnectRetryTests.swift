import DNSSD
import Foundation
import Testing

@testable import Probes

/// What OpenClaw's clients do after a refused connect (ConnectRetry), which side is older on a
/// protocol mismatch (ProtocolRange), the stand-in's protocol-3 rule, and what OpenClaw's node
/// host makes of a device identity file. No peer needed.
@Suite("Connect retries, protocol ranges, identity files (in memory)")
struct ConnectRetryTests {
    static func refusal(_ code: String, reason: String? = nil, expected: Int? = nil, retryAfterMs: Int? = nil, retryable: Bool? = nil)
        -> ConnectError
    {
        var error = ConnectError(
            code: code, message: expected == nil ? "x" : "protocol mismatch", detailCode: code == "NOT_PAIRED" ? "PAIRING_REQUIRED" : nil,
            requestId: "r1", reason: reason,
            recommendedNextStep: nil, canRetryWithDeviceToken: nil, expectedProtocol: expected, clientMinProtocol: nil,
            clientMaxProtocol: nil, retryAfterMs: retryAfterMs)
        error.retryable = retryable
        return error
    }

    static func tried(_ error: ConnectError, range: ProtocolRange = .probe, asDevice: Bool = false, legacy: Bool = false) -> ConnectTry {
        ConnectTry(range: range, legacyNodeEnvelope: legacy, asDevice: asDevice, outcome: .rejected(error, close: nil), waited: .zero)
    }

    @Test("a starting Gateway is asked again after retryAfterMs held to 100...2000 ms, only while the budget lasts")
    func startingRetry() {
        let starting = Self.refusal("UNAVAILABLE", reason: "startup-sidecars", retryAfterMs: 9000, retryable: true)
        #expect(ConnectRetry.next(after: [Self.tried(starting)], remaining: .seconds(5))?.delay == .milliseconds(2000))
        let quick = Self.refusal("UNAVAILABLE", reason: "startup-sidecars", retryAfterMs: 10, retryable: true)
        #expect(ConnectRetry.next(after: [Self.tried(quick)], remaining: .seconds(5))?.delay == .milliseconds(100))
        #expect(ConnectRetry.next(after: [Self.tried(starting)], remaining: .milliseconds(2100)) == nil, "no time left for a try")
        let notRetryable = Self.refusal("UNAVAILABLE", reason: "startup-sidecars", retryAfterMs: 500, retryable: false)
        #expect(ConnectRetry.next(after: [Self.tried(notRetryable)], remaining: .seconds(5)) == nil)
        let many = Array(repeating: Self.tried(quick), count: ConnectRetry.maxTries)
        #expect(ConnectRetry.next(after: many, remaining: .seconds(60)) == nil, "bounded")
    }

    @Test("a node host refused with expectedProtocol 3 asks once more in the v3 envelope; a probe does not")
    func legacyNodeRetry() {
        let mismatch = Self.refusal("INVALID_REQUEST", expected: 3)
        let plan = ConnectRetry.next(after: [Self.tried(mismatch, range: .node, asDevice: true)], remaining: .seconds(5))
        #expect(plan?.range == .legacyNode && plan?.legacyNodeEnvelope == true)
        #expect(ConnectRetry.next(after: [Self.tried(mismatch)], remaining: .seconds(5)) == nil)
        let again = Self.tried(mismatch, range: .legacyNode, asDevice: true, legacy: true)
        #expect(ConnectRetry.next(after: [Self.tried(mismatch, range: .node, asDevice: true), again], remaining: .seconds(5)) == nil)
    }

    @Test("a device refused for pairing is asked exactly once more (to compare requestIds)")
    func pairingRetry() {
        let pairing = Self.refusal("NOT_PAIRED", reason: "scope-upgrade")
        #expect(pairing.pairingReason == .scopeUpgrade)
        let first = Self.tried(pairing, range: .node, asDevice: true)
        #expect(ConnectRetry.next(after: [first], remaining: .seconds(5)) != nil)
        #expect(ConnectRetry.next(after: [first, first], remaining: .seconds(5)) == nil)
        #expect(ConnectRetry.next(after: [Self.tried(pairing)], remaining: .seconds(5)) == nil, "a probe shows no device")
    }

    @Test("which side is older: the Gateway's version below the range, above it, or inside it")
    func olderSide() {
        #expect(ProtocolRange.node.older(than: 3) == .gateway)
        #expect(ProtocolRange.probe.older(than: 5) == .client)
        #expect(ProtocolRange.probe.older(than: 3) == .neither)
        #expect(ProtocolRange.probe.description == "v3…v4" && ProtocolRange.node.description == "v4")
    }

    @Test("the stand-in as a published protocol-3 Gateway: expectedProtocol only, no details.code, for a range without 3")
    func publishedProtocolThree() throws {
        let standIn = StandInConnect(outcome: .protocol3)
        var request = ConnectRequest(id: "q1", credentials: .none)
        request.range = ProtocolRange(min: 4, max: 4)
        let reply = standIn.reply(to: String(decoding: request.frame(nonce: "n"), as: UTF8.self), nonce: "n", nowMs: 0)
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(reply.frames[0].utf8)) as? [String: Any])
        let error = try #require(frame["error"] as? [String: Any])
        #expect(error["code"] as? String == "INVALID_REQUEST" && error["message"] as? String == "protocol mismatch")
        #expect(error["details"] as? [String: Int] == ["expectedProtocol": 3], "\(error)")
        #expect(reply.close?.code == 1002)
    }

    @Test("identity files as the node host takes them: missing, not JSON, another JSON, a broken key pair, a good one")
    func identityStates() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dk-identity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func state(_ text: String?) throws -> IdentityFileState {
            let path = "\(directory)/\(UUID().uuidString).json"
            if let text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
            return DeviceIdentity.inspect(path: path).state
        }
        #expect(try state(nil) == .missing)
        #expect(try state("{}") == .notIdentity)
        if case .invalid = try state("not json") {} else { Issue.record("not JSON is invalid") }
        if case .invalid = try state(#"{"version":1,"deviceId":"a","publicKeyPem":"x","privateKeyPem":"y"}"#) {
        } else {
            Issue.record("a broken PEM pair is invalid")
        }
        let identity = DeviceIdentity.generate()
        #expect(try state(identity.storedJSON()) == .valid(deviceId: identity.deviceId, storedIdMatches: true))
        let wrongId = identity.storedJSON().replacingOccurrences(of: identity.deviceId, with: "0")
        #expect(try state(wrongId) == .valid(deviceId: identity.deviceId, storedIdMatches: false))
    }
}
