import DNSSD
import FoundationEssentials

/// The Gateways of a fleet as `clawnet browse --format json` saved them (clawnet.browse.v1),
/// or as a browse found them: what `zone generate --inventory` and `--from-browse` publish.
public enum Inventory {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The part of a browse document an inventory needs.
    private struct Document: Decodable {
        let schema: String
        let beacons: [GatewayBeacon]
    }

    /// The Gateways of a browse document, and notes about beacons that cannot be published.
    public static func gateways(fromJSON data: Data) throws(Failure) -> (gateways: [ZoneGateway], notes: [String]) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw Failure(description: "not a \(Schema.browse) document (\(error))")
        }
        guard document.schema == Schema.browse else {
            throw Failure(description: "schema is '\(document.schema)', expected \(Schema.browse)")
        }
        return gateways(from: document.beacons)
    }

    /// Browsed beacons as zone Gateways; a beacon that cannot be published becomes a note.
    public static func gateways(from beacons: [GatewayBeacon]) -> (gateways: [ZoneGateway], notes: [String]) {
        var result: [ZoneGateway] = []
        var notes: [String] = []
        for beacon in beacons {
            let (gateway, note) = ZoneGateway.from(beacon)
            if let gateway { result.append(gateway) }
            if let note { notes.append(note) }
        }
        return (result, notes)
    }
}
