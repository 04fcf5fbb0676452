import FoundationEssentials
import Glibc

/// The config's `$include`s, followed as OpenClaw follows them (`ConfigIncludes`, after
/// openclaw/openclaw src/config/includes.ts), so that a node whose gateway.remote.* sits in an
/// included file is diagnosed by what OpenClaw would use.
extension OpenClawConfig {
    /// Reads one included file: its bytes with the owner and mode of the file they came from.
    typealias IncludeReader = (String) -> Result<RegularFile.Owned, ConfigIncludes.ReadProblem>

    /// An included file is read as the config is: a regular file of config size, walked to
    /// without following another user's links (`RegularFile.readProtected`).
    static func protectedIncludes(_ path: String) -> Result<RegularFile.Owned, ConfigIncludes.ReadProblem> {
        do { return .success(try RegularFile.readProtected(path, limit: FileLimit.config)) } catch {
            return .failure(.init(why: error.kind == .missing ? "missing" : error.description))
        }
    }

    /// `root` with every `$include` in it merged. What could not be followed is a warning each
    /// (OpenClaw refuses such a config); an included file another user owns or can change
    /// withholds the token as the config's own owner would (`withholdForeignCredentials`).
    mutating func merging(_ root: JSONValue, _ reader: @escaping IncludeReader) -> JSONValue {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var owners: [(path: String, owner: uid_t, mode: mode_t)] = []
        var includes = ConfigIncludes(config: absolute) { file in
            reader(file).map { read in
                owners.append((file, read.owner, read.mode))
                return read.bytes
            }
        }
        let merged = includes.resolve(root, from: absolute)
        includedFiles = includes.files
        for (file, why) in includes.problems { warnings.append("\(path): $include \(file): \(why)") }
        for (file, _) in includes.unparsed { warnings.append("\(file), included by \(path): not valid JSON5; its settings are ignored") }
        includedFileProblem =
            owners.lazy.compactMap { file in
                Ownership.fileProblem(file.path, owner: file.owner, mode: file.mode, rootToo: true).map {
                    ForeignFile(path: file.path, problem: $0)
                }
            }.first
        return merged
    }
}
