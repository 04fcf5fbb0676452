import DNSClient
import DNSSD
import DNSWire
import Logging

/// Sends change sets to the zone's primary over TCP, signed when a key is given, and reads
/// the answer: NOERROR, or a failure that names the RCODE and the cause.
public struct UpdateSender: Sendable {
    public let server: DNSServer
    public let key: TSIGKey?
    public let timeout: Duration
    /// TSIG's clock (tests move it to make a skew).
    let clock: @Sendable () -> UInt64
    private let logger = Logger(label: "clawnet.update")
    /// The header's OPCODE of an UPDATE (RFC 2136 §2.2).
    static let updateOpcode: UInt8 = 5

    public init(server: DNSServer, key: TSIGKey?, timeout: Duration, clock: @escaping @Sendable () -> UInt64 = unixNow) {
        self.server = server
        self.key = key
        self.timeout = timeout
        self.clock = clock
    }

    public func send(_ changeSet: ChangeSet) async throws(UpdateFailure) {
        let id = UInt16.random(in: .min ... .max)
        let message: [UInt8]
        do { message = try changeSet.wire(id: id) } catch { throw UpdateFailure(.tooLarge, error.message) }
        let signed = try key.map { key throws(UpdateFailure) in try TSIGSigner(key: key).sign(message, time: clock()) }
        let counts = "\(changeSet.prerequisites.count) prerequisites, \(changeSet.updates.count) updates"
        let signing = key.map { "signed with \($0)" } ?? "unsigned"
        logger.debug("UPDATE \(changeSet.zone) to \(server): \(message.count) bytes, \(counts), \(signing)")
        let answer: [UInt8]
        do {
            answer = try await DNSStream.exchange(with: server, timeout: timeout) { session in
                try await session.send(signed?.wire ?? message)
                return try await session.receive()
            }
        } catch let failure as DNSQueryFailure {
            throw .transport(failure)
        } catch {
            throw UpdateFailure(.transport, "UPDATE to \(server): \(error)")
        }
        let response: DNSMessage
        do { response = try DNSWireCodec.decode(answer) } catch {
            throw UpdateFailure(.transport, "\(server) answered the UPDATE with a malformed message: \(error.message)")
        }
        // The answer to this UPDATE: its id, opcode UPDATE (a QUERY answer with the same id and
        // NOERROR is not a success), and the zone it was sent for when the server copies it.
        guard response.id == id, response.isResponse, answer.count > 2, (answer[2] >> 3) & 0x0F == Self.updateOpcode,
            response.question.map({ $0.name == changeSet.zone }) ?? true
        else {
            throw UpdateFailure(.transport, "\(server) answered another message than the UPDATE")
        }
        var outcome: TSIGVerifier.Outcome?
        if let key, let signed {
            var verifier = TSIGVerifier(key: key, requestMAC: signed.mac)
            do { outcome = try verifier.verify(answer, now: clock()) } catch { throw .unverified(error, server: server, key: key) }
        }
        logger.debug("UPDATE \(changeSet.zone): \(response.rcode) from \(server)\(outcome.map { ", TSIG \($0)" } ?? "")")
        if case .serverError? = outcome {
            throw .answer(response.rcode, tsig: outcome, server: server, zone: changeSet.zone, key: key, operation: .update, now: clock())
        }
        guard response.rcode == .noError else {
            throw .answer(response.rcode, tsig: outcome, server: server, zone: changeSet.zone, key: key, operation: .update, now: clock())
        }
        if let key, outcome == .unsigned {
            throw UpdateFailure(
                .answerNotVerified, "\(server) applied the UPDATE but its answer is not signed, although it was asked with \(key)")
        }
    }
}
