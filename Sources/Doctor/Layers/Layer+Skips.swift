/// The skip cascade, read from the table: a layer whose need gave nothing is not judged, and
/// says which need (`needs a TCP connection`).
extension Layer {
    /// The checks of `layers` in their order: each one whose need gave nothing is skipped for
    /// it, every other one is made by `judge` (a layer may make several, one per domain).
    static func checks(_ layers: [Layer], delivered: (CheckID) -> Bool, judge: (Layer) -> [Check]) -> [Check] {
        var judged: [CheckID: Check] = [:]
        var checks: [Check] = []
        for layer in layers {
            let made = layer.unmet(delivered: delivered, judged: judged).map { [Check(layer.id, .skip, $0)] } ?? judge(layer)
            judged[layer.id] = made.first
            checks += made
        }
        return checks
    }

    /// Why this layer cannot be judged, or nil when it can. Every probe phase opens its own
    /// connection, so the lowest part of it that gave nothing (an address, TCP, TLS) is named
    /// by every layer above; past the connection, a layer names the need right below it, and
    /// a need skipped for a reason that holds above too (not run, mDNS not checked) passes it on.
    func unmet(delivered: (CheckID) -> Bool, judged: [CheckID: Check]) -> CheckReason? {
        if let root = Layer.connectionsBelow[id]?.first(where: { !delivered($0.id) }) {
            return root.lacking
        }
        guard let need = needs.first(where: { !delivered($0) }) else { return nil }
        if let skipped = judged[need], skipped.status == .skip, skipped.reason.passesOn { return skipped.reason }
        return Layer.byID[need]?.lacking ?? .notRun
    }

    /// The connection layers each layer stands on (all its needs, their needs...), in
    /// `Layer.all`'s order: found once, not for every layer of every probe watch judges.
    static let connectionsBelow: [CheckID: [Layer]] = Dictionary(
        uniqueKeysWithValues: all.map { layer in
            let below = closure(of: [layer.id]).subtracting([layer.id])
            return (layer.id, all.filter { $0.isConnection && below.contains($0.id) })
        })
}
