import DNSSD
import FoundationEssentials

/// An OpenClaw node service as systemd would start it, read from its unit file: who runs it
/// (User=) and with what environment (Environment=), which decide the device identity it
/// reads. `openclaw node install` writes a user unit (~/.config/systemd/user/openclaw-node.service);
/// people write system units too (/etc/systemd/system/openclaw-node.service, with or without
/// User=). systemd is not asked: the unit says what it will do.
package struct NodeServiceUnit: Sendable, Equatable {
    package enum Scope: Sendable, Equatable {
        /// A system unit: run as User=, else as root.
        case system
        /// A user unit of the user whose home this is.
        case user(home: String)
    }

    package let path: String
    package let scope: Scope
    /// User= of a system unit.
    package let user: String?
    package let environment: [String: String]

    /// The unit's file name without `.service`.
    package var name: String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".service") ? String(file.dropLast(".service".count)) : file
    }

    /// A unit file of more than this is not one.
    static let maxFileBytes = 64 << 10
    /// A folder with more units than this is read no further.
    static let maxUnits = 32

    /// The [Service] section's User= and Environment= (space-separated assignments, each maybe
    /// in double quotes; later ones win, as in systemd.exec(5)).
    package static func parse(_ text: String, path: String, scope: Scope) -> NodeServiceUnit {
        var section = ""
        var user: String?
        var environment: [String: String] = [:]
        for raw in text.replacing("\\\n", with: " ").split(separator: "\n") {
            let line = String(raw).trimmingSpaces()
            if line.hasPrefix("[") {
                section = line
                continue
            }
            guard section == "[Service]", let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingSpaces()
            let value = String(line[line.index(after: equals)...]).trimmingSpaces()
            switch key {
            case "User": user = value.isEmpty ? nil : value
            case "Environment":
                for assignment in assignments(value) {
                    guard let split = assignment.firstIndex(of: "=") else { continue }
                    environment[String(assignment[..<split])] = String(assignment[assignment.index(after: split)...])
                }
            default: continue
            }
        }
        return NodeServiceUnit(path: path, scope: scope, user: user, environment: environment)
    }

    /// `A=1 "B=two words"` as ["A=1", "B=two words"].
    static func assignments(_ value: String) -> [String] {
        var result: [String] = []
        var current = ""
        var quoted = false
        for character in value {
            switch character {
            case "\"": quoted.toggle()
            case " " where !quoted, "\t" where !quoted:
                if !current.isEmpty { result.append(current) }
                current = ""
            default: current.append(character)
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// The node units in the system folder and in each home's user folder (`root` prefixes
    /// every path: "/" on a machine, a folder of recorded files in tests).
    package static func find(root: String = "", userHomes: [String]) -> [NodeServiceUnit] {
        var units = files(in: root + "/etc/systemd/system").map { parse($0.text, path: $0.path, scope: .system) }
        for home in userHomes {
            units += files(in: root + home + "/.config/systemd/user").map { parse($0.text, path: $0.path, scope: .user(home: home)) }
        }
        return units
    }

    /// `openclaw-node*.service` files in `folder` (templates aside), sorted, bounded.
    private static func files(in folder: String) -> [(path: String, text: String)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let units = names.filter { $0.hasPrefix("openclaw-node") && $0.hasSuffix(".service") && !$0.contains("@") }.sorted()
        return units.prefix(maxUnits).compactMap { name in
            let path = folder + "/" + name
            guard let bytes = try? RegularFile.read(path, limit: maxFileBytes) else { return nil }
            return (path, String(decoding: bytes, as: UTF8.self))
        }
    }
}
