import DNSSD
import Foundation
import Testing

@testable import Host

/// OpenClaw's one-of-a-few-words settings, read into cases; unknown words kept as given.
@Suite("OpenClaw setting words")
struct SettingWordsTests {
    @Test(
        "gateway.bind: each of OpenClaw's words is a case; another is kept as given",
        arguments: [
            ("loopback", GatewayBind.loopback), ("lan", .lan), ("tailnet", .tailnet), ("auto", .auto), ("custom", .custom),
            ("LAN", .other("LAN")), ("0.0.0.0", .other("0.0.0.0")),
        ] as [(String, GatewayBind)])
    func bind(word: String, bind: GatewayBind) {
        let config = OpenClawConfig.parse(Data("{ gateway: { bind: '\(word)' } }".utf8), path: "/c.json")
        #expect(config.bind == bind && config.bind?.word == word, "\(word) read as \(String(describing: config.bind))")
    }

    @Test("mode, transport and mdns mode: known words are cases, others a warning naming the setting")
    func otherSettings() {
        let good = OpenClawConfig.parse(
            Data("{ gateway: { mode: 'remote', remote: { transport: 'ssh' } }, discovery: { mdns: { mode: 'full' } } }".utf8),
            path: "/c.json")
        #expect(good.node.mode == .remote && good.node.isRemote && good.node.remoteTransport == .ssh, "\(good.node)")
        #expect(good.advertising.mdnsMode == .full && good.warnings.isEmpty, "\(good.warnings)")
        let bad = OpenClawConfig.parse(
            Data("{ gateway: { mode: 'Remote', remote: { transport: 'tcp' } }, discovery: { mdns: { mode: 'on' } } }".utf8),
            path: "/c.json")
        #expect(bad.node.mode == nil && !bad.node.isRemote && bad.node.remoteTransport == nil && bad.advertising.mdnsMode == nil)
        for setting in ["gateway.mode", "gateway.remote.transport", "discovery.mdns.mode"] {
            #expect(bad.warnings.contains { $0.contains(setting) }, "no warning for \(setting): \(bad.warnings)")
        }
        #expect(MDNSMode(word: "off") == .off && MDNSMode(word: "off").description == "off")
        #expect(RemoteTransport(word: "direct") == .direct && GatewayMode(word: "x") == .other("x"))
    }
}
