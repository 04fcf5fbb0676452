import DNSSD
import Discovery
import Probes

/// A Gateway named on doctor's command line: a URL or HOST[:PORT], or an instance name that
/// `clawnet browse` shows.
package struct DoctorTarget: Sendable, Hashable {
    /// As typed; a URL without its user info, path, query and fragment (`EndpointSpec.text`).
    package let text: String
    /// nil when the text is neither a URL nor a host (then only an instance name can match).
    package let endpoint: EndpointSpec?

    /// Throws when the text is meant as a URL or HOST:PORT (a scheme, or a port after a host)
    /// and is a bad one: a port out of range is a mistake to name, not an instance to look for.
    package init(_ text: String) throws(DNSSDError) {
        do {
            self.endpoint = try EndpointSpec(parsing: text)
        } catch {
            if Self.meantAsEndpoint(text) { throw error }
            self.endpoint = nil
        }
        self.text = endpoint?.text ?? text
    }

    /// A Gateway given by hand (`--manual HOST[:PORT]`), already parsed.
    package init(_ endpoint: EndpointSpec) {
        self.endpoint = endpoint
        self.text = endpoint.text
    }

    static func meantAsEndpoint(_ text: String) -> Bool {
        if text.contains("://") { return true }
        guard let colon = text.lastIndex(of: ":") else { return false }
        let port = text[text.index(after: colon)...]
        return !port.isEmpty && port.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") })
            && (try? EndpointSpec(parsing: String(text[..<colon]))) != nil
    }
}

package struct DoctorOptions: Sendable {
    /// Empty: everything discovered plus the configured (or default) manual target.
    package var targets: [DoctorTarget] = []
    /// Domains, servers and whether to browse local. (types and manual targets are doctor's own).
    package var discovery = DiscoveryOptions()
    /// --no-local: mDNS is neither browsed nor checked (no D-Bus or Avahi finding can fail).
    package var noLocal = false
    package var pin: TLSFingerprint?
    /// A token for the Gateways doctor is told about (--token-file): the named targets, or
    /// gateway.remote.url on a node. Never sent to Gateways discovery finds.
    package var token: GatewayToken?
    /// The node's device identity (--as-device), shown to the same Gateways as the token.
    package var device: DeviceIdentity?
    /// The file --as-device named: openclaw.identity looks at it beside the node's own.
    package var deviceFile: String?
    /// Where a CA-issued certificate is checked (SSL_CERT_FILE, else the system's store).
    package var trustRoots = TrustRoots.system
    /// OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1: credentials over plain ws:// to any private address.
    package var allowPrivatePlainText = false
    /// --origin: the WebSocket upgrades carry it, as a browser page's at that origin would.
    package var origin: BrowserOrigin?
    /// The whole run (see `Doctor.run`).
    package var timeout: Duration = .seconds(5)
    /// Only these checks (and what they need); nil: all.
    package var only: Set<CheckID>?
    /// Machine checks that decide the run whatever the targets depend on (`preflight --require
    /// mdns`): never relaxed to a warning for targets that do not need them.
    package var required: Set<CheckID> = []
    package var probeLimit = 256

    package init() {}

    /// What the environment says about sending credentials: SSL_CERT_FILE and OpenClaw's
    /// OPENCLAW_ALLOW_INSECURE_PRIVATE_WS.
    package mutating func read(environment: [String: String]) {
        trustRoots = TrustRoots(environment: environment)
        allowPrivatePlainText = environment["OPENCLAW_ALLOW_INSECURE_PRIVATE_WS"] == "1"
    }
}
