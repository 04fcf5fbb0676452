import DNSClient
import DNSSD
import DNSWire
import Logging

/// Sends change sets to the zone's primary over TCP, signed when a key is given, and reads
/// the answer: NOERROR, or a failure that names the RCODE and the cause. It asks the zone's
/// serial the same way, so that the answer a push trusts its ledger on is the primary's own.
package struct UpdateSender: Sendable {
    package let server: DNSServer
    package let key: TSIGKey?
    package let timeout: Duration
    /// TSIG's clock (tests move it to make a skew).
    let clock: @Sendable () -> UInt64
    private let logger = Logger(label: "clawnet.update")
    /// The header's OPCODE of an UPDATE (RFC 2136 §2.2) and of a QUERY.
    static let updateOpcode: UInt8 = 5
    static let queryOpcode: UInt8 = 0

    package init(server: DNSServer, key: TSIGKey?, timeout: Duration, clock: @escaping @Sendable () -> UInt64 = unixNow) {
        self.server = server
        self.key = key
        self.timeout = timeout
        self.clock = clock
    }

    package func send(_ changeSet: ChangeSet) async throws(UpdateFailure) {
        let id = UInt16.random(in: .min ... .max)
        let message: [UInt8]
        do { message = try changeSet.wire(id: id) } catch { throw UpdateFailure(.tooLarge, error.message) }
        let counts = "\(changeSet.prerequisites.count) prerequisites, \(changeSet.updates.count) updates"
        let signing = key.map { "signed with \($0)" } ?? "unsigned"
        logger.debug("UPDATE \(changeSet.zone) to \(server): \(message.count) bytes, \(counts), \(signing)")
        let (response, outcome) = try await exchange(message, id: id, opcode: Self.updateOpcode, zone: changeSet.zone, operation: .update)
        logger.debug("UPDATE \(changeSet.zone): \(response.rcode) from \(server)\(outcome.map { ", TSIG \($0)" } ?? "")")
        guard response.rcode == .noError else {
            throw .answer(response.rcode, tsig: outcome, server: server, zone: changeSet.zone, key: key, operation: .update, now: clock())
        }
        if let key, outcome == .unsigned {
            throw UpdateFailure(
                .answerNotVerified, "\(server) applied the UPDATE but its answer is not signed, although it was asked with \(key)")
        }
    }

    /// The SOA serial `zone` has on the server now, asked (and signed, with a key) as an UPDATE
    /// is sent: an answer with authority, verified with the key when one is given.
    package func serial(of zone: DNSName) async throws(UpdateFailure) -> UInt32 {
        let id = UInt16.random(in: .min ... .max)
        let message: [UInt8]
        do { message = try DNSWireCodec.query(name: zone, type: .soa, id: id) } catch { throw UpdateFailure(.tooLarge, error.message) }
        let (response, outcome) = try await exchange(message, id: id, opcode: Self.queryOpcode, zone: zone, operation: .serial)
        guard response.rcode == .noError else {
            throw .answer(response.rcode, tsig: outcome, server: server, zone: zone, key: key, operation: .serial, now: clock())
        }
        if let key, outcome == .unsigned {
            throw UpdateFailure(.answerNotVerified, "\(server) answered the SOA question unsigned, although it was asked with \(key)")
        }
        let serial = response.answers.lazy.compactMap { record -> UInt32? in
            guard record.name == zone, case .soa(_, _, let serial, _, _, _, _) = record.data else { return nil }
            return serial
        }.first
        guard response.authoritative, let serial else {
            throw UpdateFailure(
                .notAuthoritative,
                "\(server) answered the SOA question for \(zone) \(response.authoritative ? "without a SOA" : "without authority")")
        }
        return serial
    }

    /// Sends one message (signed when there is a key) on its own connection and reads its answer:
    /// the answer to this message (its id, its opcode, its zone when the server copies it),
    /// with the TSIG outcome. A server's TSIG error comes back as the failure it stands for.
    private func exchange(_ message: [UInt8], id: UInt16, opcode: UInt8, zone: DNSName, operation: UpdateFailure.Operation)
        async throws(UpdateFailure) -> (DNSMessage, TSIGVerifier.Outcome?)
    {
        let signed = try key.map { key throws(UpdateFailure) in try TSIGSigner(key: key).sign(message, time: clock()) }
        let answer: [UInt8]
        do {
            answer = try await DNSStream.exchange(with: server, timeout: timeout) { session in
                try await session.send(signed?.wire ?? message)
                return try await session.receive()
            }
        } catch let failure as DNSQueryFailure {
            throw .transport(failure)
        } catch {
            throw UpdateFailure(.transport, "\(operation) to \(server): \(error)")
        }
        let response: DNSMessage
        do { response = try DNSWireCodec.decode(answer) } catch {
            throw UpdateFailure(.transport, "\(server) answered the \(operation) with a malformed message: \(error.message)")
        }
        // A QUERY answer with the UPDATE's id and NOERROR is not the UPDATE's success.
        guard response.id == id, response.isResponse, answer.count > 2, (answer[2] >> 3) & 0x0F == opcode,
            response.question.map({ $0.name == zone }) ?? true
        else {
            throw UpdateFailure(.transport, "\(server) answered another message than the \(operation)")
        }
        var outcome: TSIGVerifier.Outcome?
        if let key, let signed {
            var verifier = TSIGVerifier(key: key, requestMAC: signed.mac)
            do { outcome = try verifier.verify(answer, now: clock()) } catch { throw .unverified(error, server: server, key: key) }
        }
        if case .serverError? = outcome {
            throw .answer(response.rcode, tsig: outcome, server: server, zone: zone, key: key, operation: operation, now: clock())
        }
        return (response, outcome)
    }
}
