import Testing

@testable import Host

/// The hosts: line of nsswitch.conf, from recorded text.
@Suite("nsswitch hosts line")
struct NSSwitchHostsTests {
    static let lines: [(String, [String]?, Bool)] = [
        ("hosts:          files mdns4_minimal [NOTFOUND=return] dns", ["files", "mdns4_minimal", "dns"], true),
        ("hosts: files dns # mdns4_minimal was here", ["files", "dns"], false),
        ("hosts:files\tmdns [ NOTFOUND = return ] dns myhostname", ["files", "mdns", "dns", "myhostname"], true),
        ("hosts: files mdnsfoo dns", ["files", "mdnsfoo", "dns"], false),
        ("hosts: files resolve [!UNAVAIL=return] dns mdns6_minimal", ["files", "resolve", "dns", "mdns6_minimal"], true),
        ("#hosts: files mdns4_minimal dns", nil, false),
        ("networks: files mdns", nil, false),
    ]

    @Test("sources in order, actions and comments left out", arguments: lines)
    func parse(line: String, sources: [String]?, asksMDNS: Bool) {
        let hosts = NSSwitchHosts(line: line)
        #expect(hosts?.sources == sources, "\(line) read as \(String(describing: hosts?.sources))")
        #expect((hosts?.asksMulticastDNS ?? false) == asksMDNS, "\(line)")
    }

    @Test("a whole file: the first live hosts: line")
    func file() {
        let text = "# hosts: files mdns\npasswd: files\nhosts: files dns\nhosts: files mdns4\n"
        let hosts = NSSwitchHosts.parse(file: text)
        #expect(hosts?.line == "hosts: files dns" && hosts?.asksMulticastDNS == false, "\(String(describing: hosts))")
        #expect(NSSwitchHosts.parse(file: "passwd: files\n") == nil)
    }

    @Test("each nss-mdns service names its library")
    func libraries() {
        #expect(NSSwitchHosts.library(of: "mdns4_minimal") == "libnss_mdns4_minimal.so.2")
        #expect(NSSwitchHosts.installedMDNSModules(in: ["/nonexistent"]).isEmpty)
    }
}
