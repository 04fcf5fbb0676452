import ArgumentParser
import DNSSD
import DNSUpdate
import Doctor
import Glibc
import Host
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

    /// A file the user named to read from (`--config`, `--inventory`, `--token-file`, a zone
    /// FILE): `-` (standard input) or a path where something is. A named file that is missing
    /// is a usage error everywhere, never a default applied in silence.
    static func inputPath(_ text: String) throws -> String {
        guard text != RegularFile.standardInput else { return text }
        var status = stat()
        guard !text.isEmpty, stat(text, &status) == 0 || errno != ENOENT else {
            throw DNSSDError(.inputPath, "cannot read '\(SafeText.display(Array(text.utf8)))': no such file")
        }
        return text
    }

    /// `ADDRESS:PORT` to listen on: an IP address (IPv6 in brackets) and a port; port 0 lets the
    /// system choose one (the command prints which).
    static func listenAddress(_ text: String) throws -> Endpoint {
        let anyPort = text.hasSuffix(":0")
        // EndpointSpec takes ports 1-65535 (its errors are the shared ones): port 0 is read as 1, then put back.
        let spec = try EndpointSpec(parsing: anyPort ? String(text.dropLast()) + "1" : text)
        guard spec.scheme == nil, let port = spec.port, IPAddress(spec.host) != nil else {
            throw DNSSDError(.endpoint, "'\(text)' is not ADDRESS:PORT with an IP address, e.g. 127.0.0.1:9464 or [::1]:9464")
        }
        return Endpoint(host: spec.host, port: anyPort ? 0 : port)
    }

    /// `--port PORT`: 1-65535, in the words every port flag uses.
    static func port(_ text: String) throws -> Int {
        try Endpoint.port(parsing: text)
    }

    /// `--timeout` and the other durations: numbers with units (`500ms`, `5s`, `1m30s`, `1h`),
    /// never a bare number (`Duration(argument:)`).
    static func duration(_ text: String) throws -> Duration {
        try Duration(argument: text)
    }

    /// A duration of at least `floor`: below it a flag means a tight loop (watch's --interval
    /// is a TLS handshake per Gateway per interval). `1ms` was most likely meant as `1m`.
    static func duration(_ text: String, atLeast floor: Duration) throws -> Duration {
        let duration = try duration(text)
        guard duration < floor else { return duration }
        let hint = text.hasSuffix("ms") ? ": did you mean \(text.dropLast())?" : ""
        throw ValidationError("'\(text)' is shorter than \(floor.argumentText), the least it can be\(hint)")
    }
}
