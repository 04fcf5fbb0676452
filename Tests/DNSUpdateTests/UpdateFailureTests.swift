import DNSSD
import DNSWire
import Testing

@testable import DNSUpdate

/// What an answer's RCODE means depends on what was asked: YXRRSET, NXRRSET, YXDOMAIN and
/// NXDOMAIN to an UPDATE are failed prerequisites (RFC 2136 §3.2); NXDOMAIN to a zone transfer
/// or an SOA question (zone check --axfr, push's serial question) says the server has no such zone.
@Suite("UpdateFailure: an RCODE read with the operation it answers")
struct UpdateFailureTests {
    static let server = DNSServer(address: IPAddress("127.0.0.1")!, port: 5353)

    static func failure(_ rcode: RCode, _ operation: UpdateFailure.Operation) throws -> UpdateFailure {
        UpdateFailure.answer(
            rcode, tsig: nil, server: server, zone: try DNSName(presentation: "openclaw.internal."), key: nil, operation: operation, now: 0)
    }

    @Test("NXDOMAIN to a transfer or an SOA question: the zone is not served there, no word of prerequisites")
    func nxDomainToAQuestion() throws {
        for operation in [UpdateFailure.Operation.transfer, .serial] {
            let failure = try Self.failure(.nxDomain, operation)
            #expect(failure.reason == .notZone, "\(operation): \(failure.reason)")
            #expect(!failure.message.contains("prerequisite"), "\(operation): \(failure.message)")
        }
    }

    @Test("YXRRSET, NXRRSET, YXDOMAIN and NXDOMAIN to an UPDATE: a prerequisite failed")
    func prerequisites() throws {
        for rcode in [RCode.yxRRSet, .nxRRSet, .yxDomain, .nxDomain] {
            #expect(try Self.failure(rcode, .update).reason == .prerequisiteFailed, "\(rcode)")
        }
    }
}
