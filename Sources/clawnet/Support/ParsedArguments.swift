import ArgumentParser
import DNSSD
import Discovery

/// The repeatable values several commands take (--domain, --server, --manual), parsed, or a
/// usage error that names the flag and the value.
enum ParsedArguments {
    static func domains(_ values: [String], flag: String = "--domain") throws -> [DomainName] {
        try values.map { value in
            do throws(DNSSDError) { return try DomainName(validating: value) } catch { throw ValidationError("\(flag) \(value): \(error.message)") }
        }
    }

    static func servers(_ values: [String]) throws -> [DNSServer] {
        try values.map { value in
            do throws(DNSSDError) { return try DNSServer(parsing: value) } catch { throw ValidationError("--server \(value): \(error.message)") }
        }
    }

    static func endpoints(_ values: [String], defaultPort: Int = Endpoint.defaultGatewayPort, flag: String = "--manual") throws -> [Endpoint] {
        try values.map { value in
            do throws(DNSSDError) { return try Endpoint.parse(value, defaultPort: defaultPort) } catch { throw ValidationError("\(flag) \(value): \(error.message)") }
        }
    }
}
