/// A value spelled on the wire or in a config as one of a few known words; any other word is
/// kept as given (`other`), so it can be shown but never matched by accident.
package protocol KnownWord: Sendable, Hashable, CustomStringConvertible {
    /// Each known case and its spelling.
    static var spellings: [(Self, String)] { get }
    static func other(_ word: String) -> Self
    /// Reads a word: its case, else `other` (a type may read families of words too).
    init(word: String)
    /// The word as given when it is not a known one.
    var unknownWord: String? { get }
}

extension KnownWord {
    package init(word: String) {
        self = Self.spellings.first { $0.1 == word }?.0 ?? .other(word)
    }

    /// The spelling: the known word, or the word as given.
    package var word: String {
        unknownWord ?? Self.spellings.first { $0.0 == self }?.1 ?? ""
    }

    package var description: String { word }
}
