extension Array where Element: Sendable {
    /// `transform` of every element, at most `limit` at a time (a bounded task group: hundreds
    /// of Gateways or zones never mean hundreds of tasks at once); the results in this array's
    /// order, each slot filled as its task ends, the next element started then.
    package func concurrentMap<Output: Sendable>(atMost limit: Int, _ transform: @escaping @Sendable (Element) async -> Output) async
        -> [Output]
    {
        await withTaskGroup(of: (Int, Output).self) { group in
            var results = [Output?](repeating: nil, count: count)
            var next = 0
            func startNext() {
                guard next < count else { return }
                let index = next
                let element = self[index]
                next += 1
                group.addTask { (index, await transform(element)) }
            }
            for _ in 0..<Swift.min(Swift.max(1, limit), count) { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
            return results.compactMap { $0 }
        }
    }
}
