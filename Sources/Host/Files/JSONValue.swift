import FoundationEssentials
import Synchronization

/// Any JSON value, to read a file whose fields may have the wrong types.
package enum JSONValue: Decodable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// JSON5 text as OpenClaw reads it (JSON5.parse): of a key given twice in one object, the
    /// last value counts. Foundation's decoder keeps the first, so each key is numbered in the
    /// order it is read (`Occurrence`) and the object is built in that order. Unquoted keys are
    /// read as JSON5 reads them, escapes decoded (`JSON5Keys`). The earlier value of a key given
    /// twice goes to `shadowed`, when given.
    package static func parse(json5 data: Data, shadowed: ShadowedValues? = nil) throws -> JSONValue {
        let data = try JSON5Keys.unescaped(data)
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        if let shadowed { decoder.userInfo[ShadowedValues.key] = shadowed }
        let counter = Mutex(0)
        decoder.keyDecodingStrategy = .custom { path in
            let number = counter.withLock { count in
                count += 1
                return count
            }
            return Occurrence(number: number, key: path.last?.stringValue ?? "")
        }
        return try decoder.decode(JSONValue.self, from: data)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let object = try decoder.container(keyedBy: Occurrence.self)
            var fields: [String: JSONValue] = [:]
            for key in object.allKeys.sorted(by: { $0.number < $1.number }) {
                let value = try object.decode(JSONValue.self, forKey: key)
                if let earlier = fields.updateValue(value, forKey: key.key), let shadowed = decoder.userInfo[ShadowedValues.key] {
                    (shadowed as? ShadowedValues)?.add(earlier, at: decoder.codingPath + [key as any CodingKey])
                }
            }
            self = .object(fields)
        }
    }

    subscript(path: String...) -> JSONValue? {
        var current = self
        for key in path {
            guard case .object(let fields) = current, let next = fields[key] else { return nil }
            current = next
        }
        return current
    }

    /// A key of an object with the place it was read at (`number: key`); without a number (a
    /// decoder that does not count), it is the key as it is.
    struct Occurrence: CodingKey {
        let number: Int
        let key: String

        init(number: Int, key: String) {
            (self.number, self.key) = (number, key)
        }

        var stringValue: String { "\(number):\(key)" }
        var intValue: Int? { nil }

        init(stringValue: String) {
            if let colon = stringValue.firstIndex(of: ":"), let number = Int(stringValue[..<colon]) {
                (self.number, key) = (number, String(stringValue[stringValue.index(after: colon)...]))
            } else {
                (number, key) = (0, stringValue)
            }
        }

        init?(intValue: Int) { nil }
    }
}

extension JSONValue: Encodable {
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let fields): try container.encode(fields)
        case .array(let items): try container.encode(items)
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }
}

/// The values JSON5 reads and drops: the earlier of a key given twice in one object (OpenClaw
/// ignores it, but it is in the file). Filled while one text is read (`JSONValue.parse`).
package final class ShadowedValues: Sendable {
    package static let key = CodingUserInfoKey(rawValue: "clawnet.shadowedValues")!

    package init() {}

    private let found = Mutex<[(keys: [String], value: JSONValue)]>([])

    /// Each value dropped, with the keys of its place (no array indices: an array's items sit
    /// where the array does).
    package var values: [(keys: [String], value: JSONValue)] { found.withLock { $0 } }

    package func add(_ value: JSONValue, at path: [any CodingKey]) {
        let keys = path.filter { $0.intValue == nil }.map { JSONValue.Occurrence(stringValue: $0.stringValue).key }
        found.withLock { $0.append((keys, value)) }
    }
}
