import DNSSD
import FoundationEssentials

/// The system's DNS servers from resolv.conf, as the C library reads them.
package struct ResolvConf: Sendable, Equatable {
    package static let defaultPath = "/etc/resolv.conf"

    package let path: String
    /// At most three, in order (glibc's MAXNS); 127.0.0.1 when the file lists none.
    package let servers: [DNSServer]
    /// Lines that name a server clawnet could not read.
    package let problems: [String]
    package let exists: Bool

    package init(path: String = ResolvConf.defaultPath) {
        let text = RegularFile.text(path, limit: FileLimit.resolvConf)
        self.init(path: path, text: text)
    }

    package init(path: String, text: String?) {
        self.path = path
        self.exists = text != nil
        var servers: [DNSServer] = []
        var problems: [String] = []
        for line in (text ?? "").split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.first == "nameserver" else { continue }
            guard words.count >= 2, let address = IPAddress(String(words[1])) else {
                problems.append("\(path): cannot read '\(line)'")
                continue
            }
            let server = DNSServer(resolvConfAddress: address)
            if let problem = server.address.destinationProblem {
                problems.append("\(path): '\(line)': \(problem); ignored")
                continue
            }
            if servers.count < 3 { servers.append(server) }
        }
        if servers.isEmpty { servers = [DNSServer(address: IPAddress("127.0.0.1")!)] }
        self.servers = servers
        self.problems = problems
    }
}
