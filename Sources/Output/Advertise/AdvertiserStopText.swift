import DNSSD
import Host

/// The words of a bonjour advertiser that stopped while its Gateway runs (2026.9: no watchdog
/// restarts it).
extension GatewayService.AdvertiserStop {
    var setting: String {
        switch self {
        case .noInterfaces(let line):
            "the Gateway's advertiser turned mDNS off because it cannot list the network interfaces (its journal: \"\(Self.shown(line))\")"
        case .advertiseFailed(let line):
            "the Gateway's advertiser (the bonjour plugin) failed to announce and stays off until the Gateway restarts (its journal: \""
                + Self.shown(line) + "\")"
        }
    }

    var fix: String {
        switch self {
        case .noInterfaces:
            "let the Gateway's process list interfaces (a sandboxed unit: drop RestrictAddressFamilies= or PrivateNetwork=; a container: "
                + "host networking) and restart it; or advertise through Avahi instead (`openclaw plugins disable bonjour`, then "
                + "`clawnet advertise --name NAME --port PORT`)"
        case .advertiseFailed:
            "restart the Gateway (`openclaw gateway restart`; since 2026.7 nothing restarts the advertiser by itself); if it fails "
                + "again, advertise through Avahi instead (`openclaw plugins disable bonjour`, then `clawnet advertise --name NAME --port "
                + "PORT`)"
        }
    }

    static func shown(_ line: String) -> String { SafeText.display(Array(line.utf8.prefix(200))) }
}
