/// What the bonjour plugin logs when it stops advertising without stopping the Gateway, since
/// its watchdog was removed (2026-07-14; extensions/bonjour/src/advertiser.ts as the OpenClaw 2
/// notes read it): no "watchdog detected ..." or "disabling advertiser after N failed restarts"
/// any more, and nothing restarts it.
extension GatewayService {
    /// Why the advertiser gave up, typed from its log line.
    public enum AdvertiserStop: Sendable, Equatable {
        /// "disabling mDNS - networkInterfaces() unavailable": the process cannot list interfaces.
        case noInterfaces(line: String)
        /// "bonjour: advertise failed with ciao <kind>": the mDNS library failed, and stays failed.
        case ciaoFailed(line: String)
    }

    /// The last journal line in which the advertiser gave up, when the Gateway itself keeps running.
    public var advertiserStop: AdvertiserStop? {
        guard !looping else { return nil }
        for line in journal.reversed() {
            let lowered = line.lowercased()
            if lowered.contains("disabling mdns"), lowered.contains("networkinterfaces() unavailable") {
                return .noInterfaces(line: line)
            }
            if lowered.contains("advertise failed with ciao") { return .ciaoFailed(line: line) }
        }
        return nil
    }
}
