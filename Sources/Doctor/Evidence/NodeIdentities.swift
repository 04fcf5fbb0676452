import FoundationEssentials
import Glibc
import Host
import Probes

/// The device identity files a node on this machine may read, gathered the way OpenClaw's node
/// host finds its own (state dir + identity/device.json) for each way it may be started: the
/// --as-device file, the user's own (SUDO_USER under sudo, else this shell's), what `sudo`
/// would read (only when there is a file there), and each openclaw-node systemd unit.
enum NodeIdentities {
    struct Candidate: Equatable {
        let path: String
        let reader: IdentityReader
        /// The user the node host runs as (nil: unknown, or --as-device).
        let account: UserAccount?
    }

    /// Where each way of starting the node looks; `lookUp` finds a user by name.
    static func candidates(
        environment: [String: String], asDevice: String?, current: UserAccount?, sudo: UserAccount?, units: [NodeServiceUnit],
        lookUp: (String) -> UserAccount?
    ) -> [Candidate] {
        var found: [Candidate] = []
        if let asDevice { found.append(Candidate(path: asDevice, reader: .asDevice, account: sudo ?? current)) }
        let shell = NodeStateDirectory.identityPath(environment: environment, home: current?.home)
        if let sudo, let own = NodeStateDirectory.identityPath(environment: [:], home: sudo.home) {
            found.append(Candidate(path: own, reader: .sudoUser(sudo.name), account: sudo))
            // What `sudo openclaw node ...` reads matters only when it left a file there.
            if let shell, shell != own, FileManager.default.fileExists(atPath: shell) {
                found.append(Candidate(path: shell, reader: .thisShell(user: current?.name ?? "root"), account: current))
            }
        } else if let shell {
            found.append(Candidate(path: shell, reader: .thisShell(user: current?.name ?? "?"), account: current))
        }
        for unit in units {
            let account: UserAccount?
            switch unit.scope {
            case .system: account = lookUp(unit.user ?? "root")
            case .user(let home): account = current.flatMap { $0.home == home ? $0 : nil } ?? sudo.flatMap { $0.home == home ? $0 : nil }
            }
            let home: String? =
                switch unit.scope {
                case .system: account?.home ?? (unit.user == nil ? "/root" : nil)
                case .user(let home): home
                }
            guard let path = NodeStateDirectory.identityPath(environment: unit.environment, home: home) else { continue }
            found.append(
                Candidate(path: path, reader: .service(unit: unit.name, user: account?.name ?? unit.user ?? "root"), account: account))
        }
        return found
    }

    /// Each file once (with all its readers), as its readers' node hosts would take it.
    static func files(_ candidates: [Candidate]) -> [IdentityFile] {
        var order: [String] = []
        var byPath: [String: [Candidate]] = [:]
        for candidate in candidates {
            if byPath[candidate.path] == nil { order.append(candidate.path) }
            byPath[candidate.path, default: []].append(candidate)
        }
        return order.map { path in
            let readers = byPath[path] ?? []
            var status = stat()
            let known = stat(path, &status) == 0
            let denied =
                known
                ? readers.compactMap(\.account).filter {
                    !$0.mayRead(owner: status.st_uid, group: status.st_gid, mode: UInt32(status.st_mode))
                }.map(\.name) : []
            var file = IdentityFile(
                path: path, readers: readers.map(\.reader), state: DeviceIdentity.inspect(path: path).state,
                owner: known ? status.st_uid : nil, mode: known ? UInt32(status.st_mode) & 0o7777 : nil,
                deniedTo: Array(Set(denied)).sorted())
            file.ownerName = file.owner.flatMap { UserAccount.withID($0)?.name }
            return file
        }
    }
}
