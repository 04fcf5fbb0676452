import DNSSD
import FoundationEssentials
import Testing

@testable import Host

/// Where OpenClaw's node host keeps its state for an environment (resolveStateDir), and what an
/// openclaw-node unit file says about who runs it and with what environment.
@Suite("Node state directory and service units")
struct NodeStateTests {
    @Test("OPENCLAW_STATE_DIR, then a profile, then ~/.openclaw, under OPENCLAW_HOME or HOME")
    func stateDirectory() {
        #expect(NodeStateDirectory.identityPath(environment: ["HOME": "/home/a"]) == "/home/a/.openclaw/identity/device.json")
        #expect(NodeStateDirectory.path(environment: ["HOME": "/home/a", "OPENCLAW_PROFILE": "work"]) == "/home/a/.openclaw-work")
        #expect(NodeStateDirectory.path(environment: ["HOME": "/home/a", "OPENCLAW_PROFILE": "default"]) == "/home/a/.openclaw")
        #expect(NodeStateDirectory.path(environment: ["HOME": "/home/a", "OPENCLAW_HOME": "/srv/oc"]) == "/srv/oc/.openclaw")
        #expect(NodeStateDirectory.path(environment: ["HOME": "/home/a", "OPENCLAW_STATE_DIR": "/var/lib/oc"]) == "/var/lib/oc")
        #expect(NodeStateDirectory.path(environment: ["HOME": "/home/a", "OPENCLAW_STATE_DIR": "~/x"]) == "/home/a/x")
        #expect(NodeStateDirectory.path(environment: [:], home: "/root") == "/root/.openclaw", "a system unit without User=")
        #expect(NodeStateDirectory.path(environment: [:]) == nil)
    }

    @Test("a unit's [Service] User= and Environment= (quoted, several per line, later ones win); other sections ignored")
    func unitFile() {
        let text = """
            [Unit]
            User=ignored
            [Service]
            User=alice
            Environment=OPENCLAW_PROFILE=a "OPENCLAW_STATE_DIR=/srv/oc state"
            Environment=OPENCLAW_PROFILE=b
            """
        let unit = NodeServiceUnit.parse(text, path: "/etc/systemd/system/openclaw-node.service", scope: .system)
        #expect(unit.user == "alice" && unit.name == "openclaw-node")
        #expect(unit.environment == ["OPENCLAW_PROFILE": "b", "OPENCLAW_STATE_DIR": "/srv/oc state"])
    }
}
