import DNSSD
import FoundationEssentials
import Host

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
        /// What the browse that wrote it could not do; optional, as documents written by hand lack it.
        let errors: [SavedError]?
    }

    /// An entry of the document's `errors`: only its words are needed.
    private struct SavedError: Decodable {
        let source: String?
        let message: String?
    }

    /// What a browse document holds: its beacons, and the errors the browse that wrote it saved
    /// (as failures).
    package struct Listing: Sendable {
        package let beacons: [GatewayBeacon]
        package let failures: [SourceFailure]
    }

    /// The Gateways of the browse document at `path` (a regular file, `-` or a pipe of at most
    /// `FileLimit.inventory` bytes), notes about beacons that cannot be published, and the
    /// errors the browse that wrote it saved (as failures).
    package static func gateways(atPath path: String, domain: DomainName) throws(Failure) -> GatewayYield {
        gateways(in: try listing(atPath: path), domain: domain)
    }

    /// The Gateways of a browse document, notes about beacons that cannot be published, and
    /// the errors saved in it.
    public static func gateways(fromJSON data: Data, domain: DomainName) throws(Failure) -> GatewayYield {
        gateways(in: try listing(fromJSON: data), domain: domain)
    }

    /// A listing's beacons as Gateways of a zone of `domain`, with its failures.
    package static func gateways(in listing: Listing, domain: DomainName) -> GatewayYield {
        var yield = gateways(from: listing.beacons, domain: domain)
        yield.failures = listing.failures
        return yield
    }

    /// The browse document at `path`, read once (a fleet push splits it by domain).
    package static func listing(atPath path: String) throws(Failure) -> Listing {
        let bytes: [UInt8]
        do { bytes = try RegularFile.readInput(path, limit: FileLimit.inventory).bytes } catch {
            throw Failure(description: error.description)
        }
        return try listing(fromJSON: Data(bytes))
    }

    static func listing(fromJSON data: Data) throws(Failure) -> Listing {
        if let deep = JSONNesting.tooDeep(Array(data)) { throw Failure(description: deep) }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw Failure(description: describe(error))
        }
        guard document.schema == Schema.browse else {
            throw Failure(description: "schema is '\(SafeText.display(Array(document.schema.utf8)))', expected \(Schema.browse)")
        }
        let failures = (document.errors ?? []).map { SourceFailure.saved(source: $0.source, message: $0.message) }
        return Listing(beacons: document.beacons, failures: failures)
    }

    /// Browsed beacons as zone Gateways; a beacon that cannot be published becomes a note, and
    /// its instance is named among the skipped.
    package static func gateways(from beacons: [GatewayBeacon], domain: DomainName) -> GatewayYield {
        var yield = GatewayYield()
        for beacon in beacons {
            let (gateway, note) = ZoneGateway.from(beacon, domain: domain)
            if let gateway { yield.gateways.append(gateway) } else { yield.skipped.append(beacon.instance) }
            if let note { yield.notes.append(note) }
        }
        return yield
    }

    /// A decoding error as the field it is about and what is wrong with it
    /// (`beacons[2].port: expected a whole number, found 1.5`), not "not valid JSON".
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not a \(Schema.browse) document (\(error))" }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(typeName(type)) (\(detail(context)))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): is null; expected \(typeName(type))"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing (a \(Schema.browse) document has it)"
        case .dataCorrupted(let context):
            // Foundation's parser often says only "The given data was not valid JSON." (a
            // lone \uD800 escape, for one): name a tool that shows where.
            return context.codingPath.isEmpty
                ? "not valid JSON (\(detail(context))); `python3 -m json.tool FILE` shows where it breaks"
                : "\(path(context.codingPath)): \(detail(context))"
        @unknown default:
            return "not a \(Schema.browse) document (\(error))"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "the document" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + SafeText.display(Array(key.stringValue.utf8))
            }
        }
        return text
    }

    /// The decoder's own explanation, and the underlying one when it has one (the JSON
    /// parser's "unexpected character at line 3").
    private static func detail(_ context: DecodingError.Context) -> String {
        var text = context.debugDescription
        if let underlying = context.underlyingError { text += ": \(underlying)" }
        return SafeText.display(Array(text.utf8.prefix(300)))
    }

    private static func typeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        switch name {
        case "Int", "UInt16", "UInt32": return "a whole number"
        case "Double": return "a number"
        case "String": return "a string"
        case "Bool": return "true or false"
        default:
            if name.hasPrefix("Array<") { return "a list" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return name
        }
    }
}
