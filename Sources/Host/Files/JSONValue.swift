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
    /// order it is read (`Occurrence`) and the object is built in that order.
    package static func parse(json5 data: Data) throws -> JSONValue {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
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
                fields[key.key] = try object.decode(JSONValue.self, forKey: key)
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
