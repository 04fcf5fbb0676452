import FoundationEssentials

/// OpenClaw's `$include` in its config: an object with `"$include": "./file.json5"` (or a list
/// of files) is the included file's content, merged under the object's other keys; paths are
/// relative to the including file and must stay inside the config's folder; at most ten deep,
/// never in a circle. Follows openclaw/openclaw src/config/includes.ts (IncludeProcessor,
/// deepMerge: arrays concatenate, objects merge, otherwise the later value wins).
/// Where OpenClaw refuses the whole config (a missing file, a circle), this keeps what it could
/// read and names the problem: the report still wants every secret it can find, and doctor says
/// why the config is not what OpenClaw would run. Report, doctor, preflight and watch read
/// includes through this one reader.
package struct ConfigIncludes {
    package static let key = "$include"
    /// OpenClaw's MAX_INCLUDE_DEPTH.
    package static let maxDepth = 10
    /// Files read in all, whatever their nesting: a bound OpenClaw does not need.
    package static let maxFiles = 64

    /// The folder of the top-level config: no include may leave it.
    package let folder: String
    /// Reads an included file: its bytes, or why it was not read.
    package let read: (String) -> Result<[UInt8], ReadProblem>
    /// Every file merged, in order.
    package private(set) var files: [String] = []
    /// Files that could not be followed, and why.
    package private(set) var problems: [(path: String, why: String)] = []
    /// Included files that are not JSON5 (or not UTF-8), and their bytes: report finds their
    /// secrets by a lexical pass.
    package private(set) var unparsed: [(path: String, bytes: [UInt8])] = []
    /// The earlier values of keys given twice in included files.
    package let shadowed = ShadowedValues()

    package struct ReadProblem: Error {
        package let why: String

        package init(why: String) {
            self.why = why
        }
    }

    package init(config path: String, read: @escaping (String) -> Result<[UInt8], ReadProblem>) {
        folder = Self.parent(of: Self.normalized(path))
        self.read = read
    }

    /// `value`, read from the file at `path`, with every `$include` in it replaced by its content.
    package mutating func resolve(_ value: JSONValue, from path: String, chain: [String] = []) -> JSONValue {
        switch value {
        case .array(let items): return .array(items.map { resolve($0, from: path, chain: chain) })
        case .object(var fields):
            guard let include = fields.removeValue(forKey: Self.key) else {
                return .object(fields.mapValues { resolve($0, from: path, chain: chain) })
            }
            let included = content(of: include, from: path, chain: chain)
            let rest = fields.mapValues { resolve($0, from: path, chain: chain) }
            if fields.isEmpty { return included }
            return Self.merge(included, .object(rest))
        default: return value
        }
    }

    /// What `$include: value` stands for: one file, or several merged in order.
    package mutating func content(of value: JSONValue, from path: String, chain: [String]) -> JSONValue {
        switch value {
        case .string(let name): return load(name, from: path, chain: chain)
        case .array(let names):
            return names.reduce(JSONValue.object([:])) { merged, name in
                guard case .string(let name) = name else { return merged }
                return Self.merge(merged, load(name, from: path, chain: chain))
            }
        default:
            problems.append((path, "\(Self.key) is neither a file name nor a list of them"))
            return .object([:])
        }
    }

    package mutating func load(_ name: String, from path: String, chain: [String]) -> JSONValue {
        let target = Self.normalized(name.hasPrefix("/") ? name : Self.parent(of: path) + "/" + name)
        guard folder == "/" || target.hasPrefix(folder + "/") else {
            problems.append((target, "included by \(path) but outside the config's folder \(folder): not read (OpenClaw refuses it too)"))
            return .object([:])
        }
        if chain.contains(target) || target == Self.normalized(path) {
            problems.append((target, "included in a circle from \(path): read once"))
            return .object([:])
        }
        guard chain.count < Self.maxDepth, files.count < Self.maxFiles else {
            problems.append((target, "more than \(Self.maxDepth) includes deep or \(Self.maxFiles) in all: not read"))
            return .object([:])
        }
        let bytes: [UInt8]
        switch read(target) {
        case .success(let read): bytes = read
        case .failure(let problem):
            problems.append((target, "included by \(path): \(problem.why)"))
            return .object([:])
        }
        files.append(target)
        guard String(validating: bytes, as: UTF8.self) != nil, let parsed = try? JSONValue.parse(json5: Data(bytes), shadowed: shadowed)
        else {
            unparsed.append((target, bytes))
            return .object([:])
        }
        return resolve(parsed, from: target, chain: chain + [Self.normalized(path)])
    }

    /// OpenClaw's deepMerge: lists concatenate, objects merge key by key, otherwise `later` wins.
    package static func merge(_ earlier: JSONValue, _ later: JSONValue) -> JSONValue {
        switch (earlier, later) {
        case (.array(let first), .array(let second)): return .array(first + second)
        case (.object(let first), .object(let second)):
            return .object(first.merging(second) { merge($0, $1) })
        default: return later
        }
    }

    /// An absolute path without `.`, `..` or doubled slashes (node's path.normalize on one).
    package static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
