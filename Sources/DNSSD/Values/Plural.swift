/// Counts in English for messages: "1 change", "2 changes", never "change(s)".
package enum Plural {
    /// `count` and the noun, in the plural unless it is one (`plural` for irregular nouns).
    package static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
