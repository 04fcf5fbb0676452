/// Which (instance, link) gets the next resolver, so that names that never resolve (an mDNS
/// flood of bare PTRs, hosts gone without a goodbye) cannot starve a real Gateway.
///
/// Creating a resolver is a blocking D-Bus round trip (a few ms on a loaded machine, see
/// `AvahiBrowseSession.enqueueResolve`), so hundreds of names ahead of a Gateway cost seconds
/// whatever else is done. The session fills the queue with avahi-daemon's whole cache listing
/// before the first resolver (creating resolvers while the listing arrives slowed the listing
/// itself to a crawl: 1,000 names took seconds). Three rules keep the Gateway near the front:
/// - fresh links are taken from both ends of the queue in turn: the oldest (on a warm cache, what
///   avahi-daemon heard first: a Gateway that was there before the flood began) and the newest
///   (Avahi's cache walk lists the newest entries first, and a Gateway that announces itself
///   during a flood arrives last);
/// - a resolver that has not answered within `patience` gives its slot back: it runs on (at most
///   `lateLimit` do), or else its link goes to the back, behind every fresh link, for one more
///   try with Avahi's own timeout;
/// - at most `inFlightLimit` resolvers exist at once, well below avahi-daemon's
///   objects-per-client-max (1,024 by default), and at most `waitingLimit` links wait; last
///   tries hold at most half of the slots, so a name announced during a flood finds one free.
///
/// Pure and single-threaded (the session's poll thread), so it is tested without a daemon.
struct ResolveQueue {
    struct Item: Hashable {
        var key: MulticastInstanceKey
        var link: AvahiLink
        /// False on the second try: then the resolver runs until Avahi itself gives up.
        var patient: Bool
    }

    /// With `patience`, slots free faster than resolvers can be created (a few ms each).
    static let inFlightLimit = 256
    static let lastTryLimit = inFlightLimit / 2
    /// Resolvers past their patience that run on to Avahi's own timeout without a slot; with
    /// the slots, below avahi-daemon's objects-per-client-max.
    static let lateLimit = 512
    static let waitingLimit = 4_096
    /// A live responder answers within about 120 ms (RFC 6762's 20-120 ms delay) and avahi-daemon
    /// answers from its cache at once; half a second leaves room for a loaded machine.
    static let patience: Duration = .milliseconds(500)

    private var fresh: [Item] = []
    private var freshHead = 0
    private var retries: [Item] = []
    private var retryHead = 0
    private var fromNewest = false

    var waiting: Int { fresh.count - freshHead + retries.count - retryHead }

    var isEmpty: Bool { waiting == 0 }

    /// Queues a link never tried. False when the queue is full: the link is then not resolved.
    mutating func add(_ key: MulticastInstanceKey, _ link: AvahiLink) -> Bool {
        guard waiting < Self.waitingLimit else { return false }
        fresh.append(Item(key: key, link: link, patient: true))
        return true
    }

    /// A link whose patient resolver gave up goes behind every fresh one, for one last try.
    /// False when the queue is full.
    mutating func retry(_ key: MulticastInstanceKey, _ link: AvahiLink) -> Bool {
        guard waiting < Self.waitingLimit else { return false }
        retries.append(Item(key: key, link: link, patient: false))
        return true
    }

    /// True when `next(retrying:)` has an item.
    func hasNext(retrying: Bool) -> Bool {
        freshHead < fresh.count || (retrying && retryHead < retries.count)
    }

    /// The next link to resolve: fresh ones first, alternately the oldest and the newest; a
    /// last try only when `retrying`.
    mutating func next(retrying: Bool = true) -> Item? {
        if freshHead < fresh.count {
            fromNewest.toggle()
            let item: Item
            if fromNewest {
                item = fresh.removeLast()
            } else {
                item = fresh[freshHead]
                freshHead += 1
            }
            compact()
            return item
        }
        guard retrying, retryHead < retries.count else { return nil }
        defer {
            retryHead += 1
            compact()
        }
        return retries[retryHead]
    }

    mutating func removeAll() {
        self = ResolveQueue()
    }

    /// Drops taken items once they are half the storage, so memory follows `waiting`.
    private mutating func compact() {
        Self.compact(&fresh, head: &freshHead)
        Self.compact(&retries, head: &retryHead)
    }

    private static func compact<Item>(_ items: inout [Item], head: inout Int) {
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
