import DNSSD
import Zones

/// Why a Gateway cannot be written into a zone (`ZoneGateway.Problem`), in words: the error
/// of a Gateway the operator gave, the note of a browsed one that is skipped.
enum ZoneGatewayProblemText {
    static func text(_ problem: ZoneGateway.Problem) -> String {
        let name = "'\(problem.gateway)'"
        return switch problem.kind {
        case .port(let port):
            "\(name) has port \(port); an SRV port is 1 to 65535"
        case .hostLabel(let label):
            "\(name) has host label '\(SafeText.display(Array(label.utf8)))'; a host label is 1 to 63 of a-z, 0-9 and '-'"
        case .instanceNameTooLong(let type, let domain):
            "\(name).\(type.name).\(domain.name) is longer than a DNS name may be (255 bytes)"
        case .srvTargetTooLong(let host, let domain):
            "\(name): its SRV target \(host).\(domain.name) is longer than a DNS name may be (255 bytes)"
        case .noAddress(let host, let domain):
            "\(name) has no address: its SRV target \(host).\(domain.name) would have no A or AAAA record"
        case .txtTooLarge(let rdata, let answer):
            "\(name) has a TXT record of \(rdata) bytes: its answer (\(answer) bytes) does not fit in one DNS message "
                + "(\(ZoneWriter.maxMessageBytes)); BIND and Knot refuse such a zone"
        case .txtValue(let issue):
            "\(name): \(issue.message)"
        case .txtPortMismatch(let advertised, let port):
            "\(name): TXT gatewayPort \(advertised) differs from SRV port \(port); nodes would not know which to use"
        }
    }
}
