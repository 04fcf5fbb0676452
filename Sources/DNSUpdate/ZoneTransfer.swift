import DNSClient
import DNSSD
import DNSWire
import Glibc

/// A whole zone as one server serves it, read by AXFR (RFC 5936).
public struct TransferredZone: Sendable {
    /// Every record once, the opening SOA first (the closing SOA is dropped).
    public let records: [DNSRecord]
    public let serial: UInt32
    public let messages: Int
    public let server: DNSServer
}

/// AXFR over TCP, each message's TSIG verified when a key is given.
public enum ZoneTransfer {
    /// Bounds for a hostile or runaway server: a zone of 1,000 Gateways is about 300 KB.
    public static let maxMessages = 100_000
    public static let maxBytes = 64 * 1024 * 1024

    public static func run(
        zone: DNSName, server: DNSServer, key: TSIGKey?, timeout: Duration, clock: @escaping @Sendable () -> UInt64 = unixNow
    ) async throws(UpdateFailure) -> TransferredZone {
        let id = UInt16.random(in: .min ... .max)
        let query: [UInt8]
        do { query = try DNSWireCodec.transferQuery(zone: zone, id: id) } catch {
            throw UpdateFailure(.transport, error.message)
        }
        let signed = try key.map { key throws(UpdateFailure) in try TSIGSigner(key: key).sign(query, time: clock()) }
        var verifier = key.flatMap { key in signed.map { TSIGVerifier(key: key, requestMAC: $0.mac) } }
        do {
            return try await DNSStream.exchange(with: server, timeout: timeout) { session throws(UpdateFailure) -> TransferredZone in
                do throws(DNSQueryFailure) { try await session.send(signed?.wire ?? query) } catch { throw .transport(error) }
                var records: [DNSRecord] = []
                var serial: UInt32?
                var bytes = 0
                for messageCount in 1...maxMessages {
                    let wire: [UInt8]
                    do throws(DNSQueryFailure) { wire = try await session.receive() } catch { throw .transport(error) }
                    bytes += wire.count
                    guard bytes <= maxBytes else {
                        throw UpdateFailure(
                            .tooLarge, "the zone transfer from \(server) is larger than \(maxBytes / 1_048_576) MiB; clawnet stops reading")
                    }
                    let message: DNSMessage
                    do throws(DNSWireError) { message = try DNSWireCodec.decode(wire) } catch {
                        throw UpdateFailure(.transport, "\(server) sent a malformed transfer message: \(error.message)")
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
                            message.rcode, tsig: outcome, server: server, zone: zone, key: key, operation: "zone transfer (AXFR)",
                            now: clock())
                    }
                    if messageCount == 1, let key, outcome == .unsigned {
                        throw UpdateFailure(
                            .answerNotVerified, "the zone transfer from \(server) is not signed although it was asked with \(key)")
                    }
                    for record in message.answers {
                        if case .soa(_, _, let number, _, _, _, _) = record.data, record.name == zone {
                            if let serial {
                                // The closing SOA: the transfer is complete (RFC 5936 §2.2).
                                guard number == serial else {
                                    throw UpdateFailure(
                                        .transport,
                                        "the zone transfer from \(server) ended with serial \(number) after starting with \(serial)")
                                }
                                if let current = verifier, !current.endsSigned, let key {
                                    throw .unverified(.lastUnsigned, server: server, key: key)
                                }
                                return TransferredZone(records: records, serial: serial, messages: messageCount, server: server)
                            }
                            serial = number
                        } else if serial == nil {
                            throw UpdateFailure(.transport, "the zone transfer from \(server) does not start with the SOA of \(zone)")
                        }
                        records.append(record)
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

/// Seconds since the epoch, as TSIG signs them.
public func unixNow() -> UInt64 {
    UInt64(max(0, time(nil)))
}
