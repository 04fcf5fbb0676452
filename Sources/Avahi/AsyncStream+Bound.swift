extension AsyncStream.Continuation where Element: Sendable {
    /// Yields `element` into a stream made with `.bufferingOldest(limit)`. When that leaves one
    /// place, `last` takes it (why the stream ends) and the stream is finished: a reader that
    /// fell `limit` elements behind gets what came before, then `last`, never a silent gap.
    /// False once the stream is finished or terminated: the producer stops.
    func yield(_ element: Element, orEndWith last: @autoclosure () -> Element) -> Bool {
        switch yield(element) {
        case .enqueued(let remaining) where remaining > 1:
            return true
        case .enqueued, .dropped:
            // `.dropped` only if the stream was made without the place kept for `last`.
            yield(last())
            finish()
            return false
        case .terminated:
            return false
        @unknown default:
            finish()
            return false
        }
    }
}
