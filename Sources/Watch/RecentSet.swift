/// The last `capacity` distinct elements inserted, oldest forgotten first: a memory that stays
/// bounded however long a watch runs (the certificates an expiry was reported for).
struct RecentSet<Element: Hashable> {
    let capacity: Int
    private var members: Set<Element> = []
    /// Insertion order; `oldest` is where the next eviction comes from once it is full.
    private var order: [Element] = []
    private var oldest = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a RecentSet holds at least one element")
        self.capacity = capacity
    }

    func contains(_ element: Element) -> Bool { members.contains(element) }

    /// Remembers `element`; false when it was remembered already.
    mutating func insert(_ element: Element) -> Bool {
        guard !members.contains(element) else { return false }
        if order.count < capacity {
            order.append(element)
        } else {
            members.remove(order[oldest])
            order[oldest] = element
            oldest = (oldest + 1) % capacity
        }
        members.insert(element)
        return true
    }
}
