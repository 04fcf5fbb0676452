import ArgumentParser
import DNSSD
import DNSUpdate
import Doctor
import Probes
import Zones

/// Every value clawnet takes on its command line, parsed once, into its real type, where
/// ArgumentParser reads it (`@Option(transform:)`): a bad value is a usage error (exit 2)
/// that names the flag, the value and what is accepted.
enum Arguments {
    static func domain(_ text: String) throws -> DomainName {
        try DomainName(validating: text)
    }

    static func server(_ text: String) throws -> DNSServer {
        try DNSServer(parsing: text)
    }

    static func endpoint(_ text: String) throws -> EndpointSpec {
        try EndpointSpec(parsing: text)
    }

    /// A doctor or preflight TARGET: a URL, HOST[:PORT] or an instance name, never blank,
    /// and never a host with an empty port (`studio:` is a slip, not a name to look for).
    static func target(_ text: String) throws -> DoctorTarget {
        guard !text.allSatisfy(\.isWhitespace) else {
            throw DNSSDError(.target, "an empty TARGET names nothing: give a URL, HOST[:PORT] or a name")
        }
        if text.hasSuffix(":"), !text.contains("://"), (try? EndpointSpec(parsing: String(text.dropLast()))) != nil {
            throw DNSSDError(.target, "'\(text)' has no port after ':': give HOST:PORT, or HOST for port 18789")
        }
        return try DoctorTarget(text)
    }

    static func serviceType(_ text: String) throws -> ServiceType {
        try ServiceType(validating: text)
    }

    static func address(_ text: String) throws -> IPAddress {
        guard let address = IPAddress(text) else { throw DNSSDError(.address, "'\(text)' is not an IP address") }
        return address
    }

    static func fingerprint(_ text: String) throws -> TLSFingerprint {
        guard let fingerprint = TLSFingerprint(normalizing: text) else {
            throw DNSSDError(
                .fingerprint, "'\(text)' is not a SHA-256 fingerprint (64 hex digits; 'sha256:' prefixes, colons and case are fine)")
        }
        return fingerprint
    }

    static func gateway(_ text: String) throws -> ZoneGateway {
        try GatewaySpec.parse(text)
    }

    static func check(_ text: String) throws -> CheckID {
        guard let id = CheckID.known(text) else {
            throw DNSSDError(.check, "unknown check '\(text)'; checks are: \(CheckID.all.map(\.rawValue).joined(separator: ", "))")
        }
        return id
    }

    /// `--origin ORIGIN`: http(s)://host[:port], printable ASCII (it goes into a header).
    static func origin(_ text: String) throws -> BrowserOrigin {
        guard let origin = BrowserOrigin(text) else {
            throw DNSSDError(
                .origin,
                "--origin '\(SafeText.display(Array(text.utf8.prefix(80))))' is not an origin: give https://host or http://host:port")
        }
        return origin
    }

    /// `--tsig-key FILE`: the key (read once, here), or a usage error naming the file, never the secret.
    static func tsigKey(_ path: String) throws -> TSIGKey {
        do throws(TSIGKeyFileError) { return try TSIGKeyFile.read(path: path) } catch {
            throw DNSSDError(.tsigKey, error.description)
        }
    }

    /// The longest --timeout clawnet accepts.
    static let maxDuration = Duration.seconds(86_400)

    /// What `duration` accepts, for its messages.
    static let durationForms = "a number of seconds, or one with a unit: 500ms, 5s, 1.5s, 2m; more than 0 and at most 24 hours (86400s)"

    /// `5`, `5s`, `1.5s`, `500ms`, `2m`: seconds when there is no unit; decimal digits only
    /// (no sign, exponent, hex, `inf` or `nan`), more than 0 and at most `maxDuration`.
    /// `ADDR:PORT` to listen on: an IP address (IPv6 in brackets) and a port; port 0 lets the
    /// system choose one (the command prints which).
    static func listenAddress(_ text: String) throws -> Endpoint {
        let anyPort = text.hasSuffix(":0")
        // EndpointSpec takes ports 1-65535: port 0 is read as 1, then put back.
        guard let spec = try? EndpointSpec(parsing: anyPort ? String(text.dropLast()) + "1" : text), spec.scheme == nil,
            let port = spec.port, IPAddress(spec.host) != nil
        else {
            throw ValidationError("'\(text)' is not ADDR:PORT with an IP address, e.g. 127.0.0.1:9464 or [::1]:9464")
        }
        return Endpoint(host: spec.host, port: anyPort ? 0 : port)
    }

    static func duration(_ text: String) throws -> Duration {
        let lowered = text.lowercased()
        var number = Substring(lowered)
        var scale = 1.0
        for (suffix, factor) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where lowered.hasSuffix(suffix) {
            number = lowered.dropLast(suffix.count)
            scale = factor
            break
        }
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), number.filter({ $0 == "." }).count <= 1,
            number.contains(where: \.isNumber), let value = Double(number)
        else {
            let sign = text.hasPrefix("-") ? " (a duration cannot be negative)" : ""
            throw DNSSDError(.duration, "'\(text)' is not a duration\(sign): give \(durationForms)")
        }
        guard value * scale <= Double(maxDuration.components.seconds) else {
            throw DNSSDError(.duration, "'\(text)' is longer than the longest duration clawnet takes, 24 hours (86400s)")
        }
        let duration = Duration.milliseconds(Int64((value * scale * 1000).rounded()))
        guard duration > .zero else {
            throw DNSSDError(.duration, "'\(text)' is not a duration clawnet can wait for: give \(durationForms)")
        }
        return duration
    }
}
