import DNSSD
import Zones

/// Values of the zone commands that end up inside files DNS servers read.
extension Arguments {
    /// An address for the zone (`--ns-address`) or the Corefile (`--bind`). A zone id
    /// (`%eth0`) names an interface of this machine: it has no meaning there, so it is refused
    /// rather than written.
    static func unscopedAddress(_ text: String) throws -> IPAddress {
        if let percent = text.firstIndex(of: "%") {
            let shown = SafeText.display(Array(text.utf8))
            let zone = SafeText.display(Array(text[percent...].utf8))
            throw DNSSDError(
                .address,
                "'\(shown)' has a zone id (\(zone)), which has no place in a zone file or a Corefile: give the address without it "
                    + "(a link-local fe80:: address cannot serve a tailnet; use the Tailscale address)")
        }
        return try address(text)
    }

    /// A file `zone generate` writes: a regular file or a new path, never a directory, a device
    /// or a FIFO, and without control characters (the zone's path goes into the Corefile).
    static func outputPath(_ text: String) throws -> String {
        if let problem = OutputFile.problem(text) { throw DNSSDError(.outputPath, problem) }
        return text
    }
}
