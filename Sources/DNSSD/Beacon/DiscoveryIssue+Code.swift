extension DiscoveryIssue {
    /// What happened, with the values its words need (names, addresses, counts, what a lower
    /// layer said), for code and tests to decide on; Output's `DiscoveryIssueText` makes the
    /// message and the fix. `name` is what JSON's `code` says; a name is never renamed or reused.
    package enum Code: Sendable, Hashable {
        // Avahi and its bus (AvahiDiagnosis): `installed` says whether avahi-daemon is, which
        // decides the fix; `meanwhile` what the command can do without Avahi.
        /// The system bus has no socket at `socket`.
        case busNotRunning(socket: String, installed: Bool, meanwhile: Meanwhile)
        /// Nothing answers for org.freedesktop.Avahi on `bus`.
        case daemonNotRunning(bus: String, installed: Bool, meanwhile: Meanwhile)
        /// avahi-daemon stopped or restarted.
        case daemonDisconnected(installed: Bool)
        /// The D-Bus policy denies access to avahi-daemon.
        case busAccessDenied
        /// Avahi's client failed otherwise; `error` as avahi_strerror says it.
        case daemonUnreachable(bus: String, error: String, installed: Bool, meanwhile: Meanwhile)
        /// No Avahi event loop could be made.
        case eventLoopFailed
        /// The Avahi event loop's thread could not start.
        case eventLoopThreadFailed

        // Browsing and resolving by mDNS (AvahiBrowseSession)
        /// The C boundary's buffer of `events` filled: browsing stopped.
        case fellBehind(events: Int)
        /// avahi-daemon refused to browse `type`.
        case browseRefused(type: String, error: String)
        /// Browsing `type` failed after it started.
        case browseFailed(type: String, error: String)
        /// avahi-daemon's limit of `objects` browsers and resolvers per client was reached at `instance`.
        case tooManyObjects(instance: String, type: String, objects: Int)
        /// `instances` names announced by mDNS that no resolve answered for (no SRV, TXT or
        /// address came, or the browse's time to resolve ran out); `examples`: a few of them.
        case unresolved(instances: Int, examples: [String])

        // Publishing by mDNS (AvahiPublishSession)
        case entryGroupFailed(error: String)
        case publishRefused(name: String, error: String)
        case publishFailed(name: String, error: String)

        // Wide-area DNS-SD (UnicastBackend, UnicastBrowse); the domain is the issue's.
        /// /etc/resolv.conf could not be used (`problem`, as ResolvConf says it).
        case resolvConf(problem: String)
        /// The domain answers at Tailscale's resolver `tailscale`, not at this machine's `system`.
        case splitDNS(tailscale: String, system: [String])
        /// The service name could not be formed (`error`, as DNSSDError says it).
        case serviceNameInvalid(error: String)
        /// The PTR question of `service` got no records: `explanation` as DNSLookup says it.
        case ptrUnanswered(service: String, type: String, explanation: String, answer: PTRAnswer)
        /// The PTR answer of `service` from `server` was truncated even over TCP.
        case ptrTruncated(service: String, server: String, records: Int)
        /// `service` lists `count` instances; the first `limit` are resolved.
        case tooManyInstances(service: String, count: Int, limit: Int)
        /// A PTR of `service` points to `target`, which is no instance of `type` in the domain.
        case ptrNotInstance(service: String, target: String, type: String)
        /// An instance name that is not a valid label.
        case instanceLabelInvalid(name: String)
        /// SERVFAIL to the SRV of an instance with bytes such as `(` (PowerDNSNames).
        case eightBitNamesRefused(instance: String, explanation: String)
        /// An instance listed by PTR without an SRV record.
        case srvMissing(instance: String, presentation: String, type: String, explanation: String)

        // The configuration
        /// The OpenClaw configuration could not be read (`warning`, as OpenClawConfig says it).
        case config(warning: String)
    }

    /// What a command can do while Avahi is out: the fix names it.
    package enum Meanwhile: Sendable, Hashable {
        /// browse, doctor: wide-area DNS-SD and manual targets work without Avahi.
        case otherPaths
        /// advertise: `--serve-only` answers without publishing.
        case serveOnly
    }

    /// How a PTR question went without records, for the fix.
    package enum PTRAnswer: Sendable, Hashable {
        /// NXDOMAIN from `server` (`dig`: dig's words for asking it), not from a cache.
        case noSuchDomain(server: String, dig: String)
        /// NXDOMAIN from a cache, or NOERROR without records.
        case noRecords
        case refused
        case serverFailure
        /// No answer; `fix` as the DNS client says it.
        case failed(fix: String)
        case other
    }
}

extension DiscoveryIssue.Code {
    /// The code as JSON's `code` says it: the case's name.
    package var name: String {
        switch self {
        case .busNotRunning: "busNotRunning"
        case .daemonNotRunning: "daemonNotRunning"
        case .daemonDisconnected: "daemonDisconnected"
        case .busAccessDenied: "busAccessDenied"
        case .daemonUnreachable: "daemonUnreachable"
        case .eventLoopFailed: "eventLoopFailed"
        case .eventLoopThreadFailed: "eventLoopThreadFailed"
        case .fellBehind: "fellBehind"
        case .browseRefused: "browseRefused"
        case .browseFailed: "browseFailed"
        case .tooManyObjects: "tooManyObjects"
        case .unresolved: "unresolved"
        case .entryGroupFailed: "entryGroupFailed"
        case .publishRefused: "publishRefused"
        case .publishFailed: "publishFailed"
        case .resolvConf: "resolvConf"
        case .splitDNS: "splitDNS"
        case .serviceNameInvalid: "serviceNameInvalid"
        case .ptrUnanswered: "ptrUnanswered"
        case .ptrTruncated: "ptrTruncated"
        case .tooManyInstances: "tooManyInstances"
        case .ptrNotInstance: "ptrNotInstance"
        case .instanceLabelInvalid: "instanceLabelInvalid"
        case .eightBitNamesRefused: "eightBitNamesRefused"
        case .srvMissing: "srvMissing"
        case .config: "config"
        }
    }
}
