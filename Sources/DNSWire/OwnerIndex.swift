import DNSSD
import Glibc

/// The records of a RecordStore by owner name (ASCII case ignored, as DNS compares names),
/// built once in linear time: every question a check asks of a name (its SRV, its TXT, has it
/// an address) is a look-up, not a scan. Open addressing over the owners' bytes, with each
/// name's records chained in store order: 12 bytes a record, where a Dictionary keyed by
/// DNSName takes hundreds. The hash is seeded per process (Hasher), so names chosen to collide
/// cannot make the look-ups slow.
package struct OwnerIndex: Sendable {
    /// Open addressing, at most half full: the first record of a name, or -1.
    private let slots: [Int32]
    /// The next record with the same owner, or -1.
    private let next: [Int32]

    /// How many owner names were hashed while it was built: one per run of records with the
    /// same owner, however long the name and the run (a transfer of 15,000 records at one
    /// 115-label name hashes it once).
    let hashedOwners: Int

    package init(_ store: RecordStore) {
        var capacity = 16
        while capacity < store.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        var next = [Int32](repeating: -1, count: store.count)
        var hashed = 0
        // The record placed just before and its slot: the next one with the same owner, byte for
        // byte (a zone's records come grouped by name), joins that chain without hashing it again.
        var previous: (position: Int, slot: Int)?
        // Backwards, each record becoming the head of its name's chain: the chains end up in order.
        for position in store.indices.reversed() {
            let owner = store.owner(at: position)
            if let last = previous, Self.identical(store.owner(at: last.position), owner) {
                next[position] = slots[last.slot]
                slots[last.slot] = Int32(position)
                previous = (position, last.slot)
                continue
            }
            hashed += 1
            var slot = Self.hash(owner) & (capacity - 1)
            while slots[slot] >= 0 {
                if Self.same(store.owner(at: Int(slots[slot])), owner) {
                    next[position] = slots[slot]
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
            slots[slot] = Int32(position)
            previous = (position, slot)
        }
        self.slots = slots
        self.next = next
        hashedOwners = hashed
    }

    /// The positions of the records owned by `name`, in store order.
    package func positions(of name: DNSName, in store: RecordStore) -> [Int] {
        let owner = name.wire[...]
        var slot = Self.hash(owner) & (slots.count - 1)
        while slots[slot] >= 0 {
            if Self.same(store.owner(at: Int(slots[slot])), owner) {
                var positions: [Int] = []
                var position = slots[slot]
                while position >= 0 {
                    positions.append(Int(position))
                    position = next[Int(position)]
                }
                return positions
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return []
    }

    /// Wire names with ASCII letters folded; length bytes (at most 63) are never letters.
    private static func hash(_ owner: ArraySlice<UInt8>) -> Int {
        var hasher = Hasher()
        owner.withUnsafeBufferPointer { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { folded in
                for index in bytes.indices { folded[index] = DNSName.lower(bytes[index]) }
                hasher.combine(bytes: UnsafeRawBufferPointer(folded))
            }
        }
        return hasher.finalize() & Int.max
    }

    /// The same name, ASCII case aside.
    private static func same(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        if identical(a, b) { return true }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in x.indices.allSatisfy { DNSName.lower(x[$0]) == DNSName.lower(y[$0]) } }
        }
    }

    /// The same bytes (memcmp): the common case, checked before letters are folded.
    static func identical(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.count == b.count
            && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }
}
