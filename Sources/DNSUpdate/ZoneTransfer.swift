import DNSClient
import DNSSD
import DNSWire
import Glibc

/// A whole zone as one server serves it, read by AXFR (RFC 5936).
package struct TransferredZone: Sendable {
    /// Every record once, the opening SOA first (the closing SOA is dropped), held compactly.
    package let records: RecordStore
    package let serial: UInt32
    package let messages: Int
    package let server: DNSServer
}

/// AXFR over TCP, each message's TSIG verified when a key is given. Each message is parsed as
/// it arrives and its records go straight into a RecordStore, so what a transfer holds is
/// bounded by `bounds` (a million records, 64 MiB of them), whatever the server sends.
package enum ZoneTransfer {
    /// Bounds for a hostile or runaway server on what it sends: a zone of 1,000 Gateways is
    /// about 300 KB in a few messages.
    package static let maxMessages = 100_000
    package static let maxBytes = 64 * 1024 * 1024

    package static func run(
        zone: DNSName, server: DNSServer, key: TSIGKey?, timeout: Duration, bounds: RecordStore.Bounds = .zone,
        clock: @escaping @Sendable () -> UInt64 = unixNow
    ) async throws(UpdateFailure) -> TransferredZone {
        let id = UInt16.random(in: .min ... .max)
        let query: [UInt8]
        do { query = try DNSWireCodec.transferQuery(zone: zone, id: id) } catch {
            throw UpdateFailure(.transport, error.message)
        }
        let signed = try key.map { key throws(UpdateFailure) in try TSIGSigner(key: key).sign(query, time: clock()) }
        var reader = TransferReader(
            zone: zone, server: server, key: key, id: id, records: RecordStore(bounds: bounds),
            verifier: key.flatMap { key in signed.map { TSIGVerifier(key: key, requestMAC: $0.mac) } }, clock: clock)
        do {
            return try await DNSStream.exchange(with: server, timeout: timeout) { session throws(UpdateFailure) -> TransferredZone in
                do throws(DNSQueryFailure) { try await session.send(signed?.wire ?? query) } catch { throw .transport(error) }
                var bytes = 0
                for messageCount in 1...maxMessages {
                    let wire: [UInt8]
                    do throws(DNSQueryFailure) { wire = try await session.receive() } catch {
                        throw messageCount > 1 ? cut(error, after: messageCount - 1, records: reader.records.count) : .transport(error)
                    }
                    bytes += wire.count
                    guard bytes <= maxBytes else {
                        throw UpdateFailure(
                            .tooLarge, "the zone transfer from \(server) is larger than \(maxBytes / 1_048_576) MiB; clawnet stops reading")
                    }
                    if let serial = try reader.read(wire, first: messageCount == 1) {
                        return TransferredZone(records: reader.records, serial: serial, messages: messageCount, server: server)
                    }
                }
                throw UpdateFailure(.tooLarge, "the zone transfer from \(server) did not end within \(maxMessages) messages")
            }
        } catch let failure as UpdateFailure {
            throw failure
        } catch let failure as DNSQueryFailure {
            throw .transport(failure)
        } catch {
            throw UpdateFailure(.transport, "zone transfer from \(server): \(error)")
        }
    }
}

extension ZoneTransfer {
    /// A transfer that was coming when the connection ended: "no answer" would send the
    /// operator after the wrong fault.
    static func cut(_ failure: DNSQueryFailure, after messages: Int, records: Int) -> UpdateFailure {
        let read = "after \(Plural.counted(messages, "message")), \(Plural.counted(records, "record"))"
        guard case .timeout(let server, _) = failure else {
            return UpdateFailure(
                .transport, "the zone transfer from \(failure.server) broke off \(read): \(failure)",
                fix: "check the server's log for why it stopped sending")
        }
        return UpdateFailure(
            .transport, "the zone transfer from \(server) was still coming when --timeout ran out (\(read) so far)",
            fix: "give a longer --timeout, or check the Gateways' records without --axfr (`zone check --server` asks only their RRsets)")
    }
}

/// One transfer's messages, read in order: each checked (question, RCODE, TSIG) and its
/// records appended until the SOA that opened the transfer comes again.
struct TransferReader {
    let zone: DNSName
    let server: DNSServer
    let key: TSIGKey?
    let id: UInt16
    var records: RecordStore
    var verifier: TSIGVerifier?
    let clock: @Sendable () -> UInt64
    var serial: UInt32?

    /// The serial once the closing SOA has come (the transfer is complete), else nil.
    mutating func read(_ wire: [UInt8], first: Bool) throws(UpdateFailure) -> UInt32? {
        let before = records.count
        let message: DNSMessage
        do throws(DNSWireCodec.StoreFailure) { message = try DNSWireCodec.decode(wire, appendingAnswersTo: &records) } catch {
            switch error {
            case .malformed(let problem):
                throw UpdateFailure(.transport, "\(server) sent a malformed transfer message: \(problem.message)")
            case .full(let full):
                throw UpdateFailure(
                    .tooLarge,
                    "the zone transfer from \(server) holds \(full): more than clawnet holds of one zone (\(full.bounds)); it "
                        + "stopped reading",
                    fix: "check the Gateways' records without --axfr: `zone check --server` asks only their RRsets (zone push does that "
                        + "by itself when a transfer is too large)")
            }
        }
        guard message.id == id, message.isResponse else {
            throw UpdateFailure(.transport, "\(server) sent a transfer message for another question")
        }
        var outcome: TSIGVerifier.Outcome?
        if var current = verifier, let key {
            do throws(TSIGFailure) { outcome = try current.verify(wire, now: clock()) } catch {
                throw .unverified(error, server: server, key: key)
            }
            verifier = current
        }
        guard message.rcode == .noError, outcome.map({ if case .serverError = $0 { false } else { true } }) ?? true else {
            throw UpdateFailure.answer(
                message.rcode, tsig: outcome, server: server, zone: zone, key: key, operation: .transfer, now: clock())
        }
        if first, let key, outcome == .unsigned {
            throw UpdateFailure(.answerNotVerified, "the zone transfer from \(server) is not signed although it was asked with \(key)")
        }
        for position in before..<records.count {
            guard records.type(at: position) == .soa, case .soa(_, _, let number, _, _, _, _) = records[position].data,
                records.name(at: position) == zone
            else {
                if serial == nil {
                    throw UpdateFailure(.transport, "the zone transfer from \(server) does not start with the SOA of \(zone)")
                }
                continue
            }
            guard let serial else {
                serial = number
                continue
            }
            // The closing SOA: the transfer is complete (RFC 5936 §2.2).
            guard number == serial else {
                throw UpdateFailure(
                    .transport, "the zone transfer from \(server) ended with serial \(number) after starting with \(serial)")
            }
            if let current = verifier, !current.endsSigned, let key {
                throw .unverified(.lastUnsigned, server: server, key: key)
            }
            records.removeAll(after: position)
            return serial
        }
        return nil
    }
}

/// Seconds since the epoch, as TSIG signs them.
package func unixNow() -> UInt64 {
    UInt64(max(0, time(nil)))
}
