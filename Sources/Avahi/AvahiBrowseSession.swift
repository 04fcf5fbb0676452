import CAvahi
import DNSSD
import Glibc
import Host

/// One browse through libavahi-client: a threaded poll, a client, a service browser per type
/// and a resolver per (instance, interface, protocol), feeding an AsyncStream.
///
/// Threading contract, hence `@unchecked Sendable`: every mutable property is touched only in
/// the AvahiLoop's setup (on a blocking thread, the poll locked), then only on the poll thread
/// (Avahi callbacks and poll timeouts), and last in `release`, after the poll thread stopped.
/// The loop keeps these from overlapping.
final class AvahiBrowseSession: @unchecked Sendable {
    struct Options: Sendable {
        var types: [ServiceType]
        var watch: Bool
        /// How long to wait before trying again when D-Bus itself is gone (watch mode).
        var retryInterval: Duration
        /// A one-shot browse stops resolving after this long and reports what it has, with a
        /// count of the names still unresolved, before the command's own deadline cuts it off.
        var resolveBudget: Duration?
    }

    private let options: Options
    private let continuation: AsyncStream<DiscoveryEvent>.Continuation
    private let loop: AvahiLoop
    private var client: OpaquePointer?
    private var browsers: [OpaquePointer: ServiceType] = [:]
    /// Types whose browser has not yet said all it knows (see `browserEvent`).
    private var waiting: Set<ServiceType> = []
    /// Types whose browser is still listing avahi-daemon's cache: resolving starts once the whole
    /// list is in `resolveQueue`, so its order (not the order of arrival) decides what goes first.
    var listing: Set<ServiceType> = []
    var resolvers: [OpaquePointer: Flight] = [:]
    var flightCounts = FlightCounts()
    private var resolverOfLink: [MulticastInstanceKey: [AvahiLink: OpaquePointer]] = [:]
    /// Resolvers checking whether a beacon from before a reconnect still exists.
    private var existenceChecks: [OpaquePointer: MulticastInstanceKey] = [:]
    var table = MulticastInstanceTable()
    /// Links waiting for a resolver (see `startNextResolver`).
    var resolveQueue = ResolveQueue()
    var resolveArmed = false
    private var reconnectTimer: PollTimer?
    var resolveTimer: PollTimer?
    /// Frees resolvers past their `ResolveQueue.patience`.
    var patienceTimer: PollTimer?
    var patienceArmed = false
    private var budgetTimer: PollTimer?
    /// The resolve budget ran out: what is unresolved stays so.
    var gaveUp = false
    /// Unresolved instances already counted in an issue (watch mode counts each once).
    var reportedUnresolved: Set<MulticastInstanceKey> = []
    private var reportedAllForNow = false
    private var reportedOutage = false
    /// Instances avahi-daemon would not let this client resolve (its objects-per-client limit).
    private var refusedResolvers = 0
    private var finished = false

    /// Events waiting at the C boundary. The session's backend task moves each on at once, so
    /// this fills only when the consumer has stalled (its output is not read) for this many: the
    /// browse then stops with an error in the last place (see `emit`), rather than grow.
    static let bufferLimit = 4_096

    static func events(options: Options) -> AsyncStream<DiscoveryEvent> {
        AsyncStream(bufferingPolicy: .bufferingOldest(bufferLimit)) { continuation in
            guard let loop = AvahiLoop() else {
                continuation.yield(
                    .error(DiscoveryIssue(source: .mdns, kind: .daemonMissing, .eventLoopFailed)))
                continuation.finish()
                return
            }
            let session = AvahiBrowseSession(options: options, continuation: continuation, loop: loop)
            // Termination may be signalled from the poll thread itself, or while the setup still runs:
            // the loop tears down once, after the setup, never on the poll thread.
            continuation.onTermination = { _ in loop.stop { session.release() } }
            loop.start { running in session.start(running) }
        }
    }

    private init(options: Options, continuation: AsyncStream<DiscoveryEvent>.Continuation, loop: AvahiLoop) {
        self.options = options
        self.continuation = continuation
        self.loop = loop
    }

    private var api: UnsafePointer<AvahiPoll> { loop.api }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func session(_ userdata: UnsafeMutableRawPointer?) -> AvahiBrowseSession {
        Unmanaged<AvahiBrowseSession>.fromOpaque(userdata!).takeUnretainedValue()
    }

    // MARK: Lifecycle

    /// The loop's setup: on a blocking thread, the poll locked.
    private func start(_ running: Bool) {
        guard running else {
            emit(.error(DiscoveryIssue(source: .mdns, kind: .daemonMissing, .eventLoopThreadFailed)))
            return finish()
        }
        if let budget = options.resolveBudget, !options.watch { arm(&budgetTimer, after: budget) { $0.giveUp() } }
        connect()
    }

    /// After the poll thread stopped.
    private func release() {
        for timer in [reconnectTimer, resolveTimer, patienceTimer, budgetTimer] { timer?.free() }
        if let client { avahi_client_free(client) }  // frees its browsers and resolvers
        client = nil
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        continuation.finish()
    }

    /// Yields `event`; at the buffer's bound browsing stops, saying why in the last place (the
    /// poll thread is never blocked on a slow reader).
    func emit(_ event: DiscoveryEvent?) {
        guard let event, !finished else { return }
        if !continuation.yield(event, orEndWith: .error(Self.fellBehind)) { finished = true }
    }

    /// Create the client. In watch mode it waits for a missing daemon (AVAHI_CLIENT_NO_FAIL);
    /// otherwise a missing daemon ends the browse with an error.
    private func connect() {
        var error: Int32 = 0
        let flags = options.watch ? AVAHI_CLIENT_NO_FAIL : AvahiClientFlags(0)
        let created = avahi_client_new(
            api, flags,
            { client, state, userdata in
                AvahiBrowseSession.session(userdata).clientChanged(client, state)
            }, userdata, &error)
        if let created {
            client = created
            return
        }
        let issue = AvahiDiagnosis.issue(for: error)
        if options.watch {
            reportOutage(issue)
            arm(&reconnectTimer, after: options.retryInterval) { $0.reconnect() }
        } else {
            emit(.error(issue))
            finish()
        }
    }

    private func reportOutage(_ issue: DiscoveryIssue) {
        guard !reportedOutage else { return }
        reportedOutage = true
        var waiting = issue
        waiting.waitsForReturn = true
        emit(.error(waiting))
    }

    // MARK: Avahi callbacks (poll thread)

    private func clientChanged(_ changed: OpaquePointer?, _ state: AvahiClientState) {
        guard let changed else { return }
        switch state {
        case AVAHI_CLIENT_S_RUNNING, AVAHI_CLIENT_S_REGISTERING, AVAHI_CLIENT_S_COLLISION:
            // avahi_client_new calls this before it returns: use the callback's client.
            if browsers.isEmpty { createBrowsers(on: changed) }
        case AVAHI_CLIENT_CONNECTING:
            reportOutage(AvahiDiagnosis.issue(for: Int32(AVAHI_ERR_NO_DAEMON)))
        case AVAHI_CLIENT_FAILURE:
            let issue = AvahiDiagnosis.issue(for: avahi_client_errno(changed), lost: !browsers.isEmpty)
            if options.watch {
                reportOutage(issue)
                // Freeing the client inside its own callback is unsafe: do it from a timeout.
                arm(&reconnectTimer, after: .zero) { $0.reconnect() }
            } else {
                emit(.error(issue))
                finish()
            }
        default:
            break
        }
    }

    private func createBrowsers(on client: OpaquePointer) {
        reportedOutage = false
        reportedAllForNow = false
        for type in options.types {
            let browser = avahi_service_browser_new(
                client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), type.name, "local",
                AvahiLookupFlags(0),
                { browser, interface, proto, event, name, type, domain, _, userdata in
                    AvahiBrowseSession.session(userdata).browserEvent(browser, interface, proto, event, name, type, domain)
                }, userdata)
            guard let browser else {
                let code = avahi_client_errno(client)
                emit(.error(Self.browseRefused(type, code: code)))
                continue
            }
            browsers[browser] = type
            waiting.insert(type)
            listing.insert(type)
        }
        checkCompletion()
    }

    private func browserEvent(
        _ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
        _ name: UnsafePointer<CChar>?, _ typeText: UnsafePointer<CChar>?, _ domainText: UnsafePointer<CChar>?
    ) {
        guard let browser, let type = browsers[browser] else { return }
        switch event {
        case AVAHI_BROWSER_NEW, AVAHI_BROWSER_REMOVE:
            guard let key = Self.key(type: type, name: name, domain: domainText) else { return }
            let link = AvahiLink(interface: interface, protocolFamily: proto)
            if event == AVAHI_BROWSER_NEW {
                if table.itemNew(key, on: link) { enqueueResolve(key, link) }
            } else {
                freeResolver(key, link)
                emit(table.itemRemoved(key, on: link))
            }
        case AVAHI_BROWSER_CACHE_EXHAUSTED:
            // A warm cache is what avahi-daemon has heard: every announcement on the link, and
            // the answers to the last browse; it is complete once each entry is resolved, as
            // `avahi-browse -c` takes it. Waiting for answers to this browse's own query would
            // cost at least 120 ms (Avahi sends it 100 ms after the browser starts, responders
            // wait 20-120 ms: avahi-core/query-sched.c, response-sched.c). A cold cache holds
            // nothing of the type: then only Avahi's all-for-now, a second after its first
            // query, tells us the network has answered.
            if table.count(of: type) > 0 { waiting.remove(type) }
            endListing(type)
        case AVAHI_BROWSER_ALL_FOR_NOW:
            waiting.remove(type)
            endListing(type)
        case AVAHI_BROWSER_FAILURE:
            let code = client.map { avahi_client_errno($0) } ?? 0
            emit(.error(Self.browseFailed(type, code: code)))
            waiting.remove(type)
            endListing(type)
        default:
            break
        }
        checkCompletion()
    }

    /// avahi_service_resolver_new is a blocking D-Bus round trip, and libdbus delivers every
    /// queued ItemNew before any resolver's Found. Creating all resolvers inside the browse
    /// callbacks would hold back the first beacon until the last resolver exists; creating
    /// one per poll iteration lets Found signals through in between.
    /// `ResolveQueue` decides the order, so that names that never resolve cannot starve others.
    func enqueueResolve(_ key: MulticastInstanceKey, _ link: AvahiLink, retry: Bool = false) {
        let queued = retry ? resolveQueue.retry(key, link) : resolveQueue.add(key, link)
        // Past the queue's bound the link stays unresolved, and is counted as such.
        if !queued { table.resolveFailed(key, on: link) }
        scheduleNextResolver()
    }

    func startNextResolver() {
        resolveArmed = false
        while let item = resolveQueue.next(retrying: retrying) {
            guard table.wantsResolver(item.key, on: item.link), resolverOfLink[item.key]?[item.link] == nil else { continue }
            startResolver(item.key, item.link, patient: item.patient)
            break
        }
        scheduleNextResolver()
        checkCompletion()
    }

    private func startResolver(_ key: MulticastInstanceKey, _ link: AvahiLink, patient: Bool) {
        guard let client else { return }
        // Resolve each address family on its own: with AVAHI_PROTO_UNSPEC a resolve of an
        // IPv4 entry sometimes returns only the IPv6 link-local address.
        let resolver = key.name.withCString { name in
            avahi_service_resolver_new(
                client, link.interface, link.protocolFamily, name, key.type.name, "local",
                link.protocolFamily, AvahiLookupFlags(0),
                { resolver, interface, _, event, _, _, _, host, address, port, txt, _, userdata in
                    AvahiBrowseSession.session(userdata).resolverEvent(resolver, interface, event, host, address, port, txt)
                }, userdata)
        }
        guard let resolver else {
            let code = avahi_client_errno(client)
            table.resolveFailed(key, on: link)
            if code == Int32(AVAHI_ERR_TOO_MANY_OBJECTS) { reportTooManyObjects(key) }
            return
        }
        let phase: Flight.Phase = patient ? .patient(until: ContinuousClock.now + ResolveQueue.patience) : .lastTry
        resolvers[resolver] = Flight(key: key, link: link, phase: phase)
        flightCounts.add(phase)
        resolverOfLink[key, default: [:]][link] = resolver
        if patient { armPatience(after: ResolveQueue.patience) }
    }

    /// avahi-daemon gives one client at most `objects-per-client-max` (1,024 by default)
    /// browsers and resolvers: past that, instances are announced but cannot be resolved, and
    /// the list is incomplete. Said once, when it first happens.
    private func reportTooManyObjects(_ key: MulticastInstanceKey) {
        refusedResolvers += 1
        guard refusedResolvers == 1 else { return }
        emit(.error(Self.tooManyObjects(key, objects: resolvers.count + browsers.count)))
    }

    private func checkExistence(_ key: MulticastInstanceKey) {
        guard let client else { return }
        let resolver = key.name.withCString { name in
            avahi_service_resolver_new(
                client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), name, key.type.name, "local",
                AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiLookupFlags(0),
                { resolver, interface, _, event, _, _, _, host, address, port, txt, _, userdata in
                    AvahiBrowseSession.session(userdata).resolverEvent(resolver, interface, event, host, address, port, txt)
                }, userdata)
        }
        if let resolver { existenceChecks[resolver] = key }
    }

    func freeResolver(_ key: MulticastInstanceKey, _ link: AvahiLink) {
        guard let resolver = resolverOfLink[key]?.removeValue(forKey: link) else { return }
        if let flight = resolvers.removeValue(forKey: resolver) { flightCounts.remove(flight.phase) }
        avahi_service_resolver_free(resolver)
        scheduleNextResolver()
    }

    private func resolverEvent(
        _ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ event: AvahiResolverEvent,
        _ host: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
        _ txt: UnsafeMutablePointer<AvahiStringList>?
    ) {
        guard let resolver else { return }
        if let key = existenceChecks.removeValue(forKey: resolver) {
            avahi_service_resolver_free(resolver)
            if event != AVAHI_RESOLVER_FOUND { emit(table.removeIfUnconfirmed(key)) }
            return
        }
        guard let flight = resolvers[resolver] else { return }
        let (key, link) = (flight.key, flight.link)
        if event == AVAHI_RESOLVER_FOUND {
            let interfaceName = Self.interfaceName(interface)
            let resolution = AvahiResolution(
                host: Self.fullyQualified(host.map { String(cString: $0) } ?? ""),
                port: Int(port),
                address: address.flatMap { Self.ipAddress($0, interfaceName: interfaceName) },
                txt: Self.txtRecord(txt),
                interfaceName: interfaceName
            )
            // A resolver that answered stays to report changes, and no longer holds a slot.
            setPhase(resolver, .answered)
            emit(table.resolved(key, on: link, resolution))
        } else {
            freeResolver(key, link)
            // It resolved before: keep that answer and ask again. Otherwise it is counted
            // among the unresolved (`reportUnresolved`), never said one line per name.
            if table.resolveFailed(key, on: link) { enqueueResolve(key, link) }
        }
        checkCompletion()
    }

    // MARK: Completion and timers

    func checkCompletion() {
        guard !reportedAllForNow else {
            // Watch mode: a later burst of names that did not resolve is counted once it settled.
            if flightCounts.unanswered == 0, resolveQueue.isEmpty { reportUnresolved() }
            return
        }
        // Giving up on resolves never cuts short a browser that has not said all it knows: then
        // the command's deadline ends it, and says that results may be incomplete.
        guard !browsers.isEmpty, waiting.isEmpty, gaveUp || table.pendingCount == 0 else { return }
        reportedAllForNow = true
        // Avahi's all-for-now can come before a freshly restarted daemon has heard the
        // network; a beacon not reported again is removed only if resolving it fails.
        if !gaveUp { for key in table.unconfirmed { checkExistence(key) } }
        reportUnresolved()
        emit(.allForNow)
        if !options.watch { finish() }
    }

    /// Arms `timer` (creating it on first use) to run `action` on the poll thread after `delay`.
    func arm(_ timer: inout PollTimer?, after delay: Duration, _ action: @escaping (AvahiBrowseSession) -> Void) {
        if timer == nil { timer = PollTimer(api: api) }
        timer?.arm(after: delay) { [unowned self] in action(self) }
    }

    /// Drop the failed client and everything it owned, then connect again.
    private func reconnect() {
        if let client {
            avahi_client_free(client)
            self.client = nil
        }
        browsers.removeAll()
        resolvers.removeAll()
        flightCounts = FlightCounts()
        resolverOfLink.removeAll()
        resolveQueue.removeAll()
        resolveArmed = false
        listing.removeAll()
        existenceChecks.removeAll()
        waiting.removeAll()
        table.dropAllLinks()
        connect()
    }
}
