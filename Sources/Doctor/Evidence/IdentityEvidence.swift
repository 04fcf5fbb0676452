import Host
import Probes

/// Who starts a node host that reads a device identity file: the one user and environment
/// that decide which file it is (src/config/paths.ts resolveStateDir).
package enum IdentityReader: Sendable, Hashable {
    /// The file given to --as-device.
    case asDevice
    /// `openclaw node` started here and now, in this environment (HOME, OPENCLAW_STATE_DIR):
    /// under sudo, what `sudo openclaw node ...` reads.
    case thisShell(user: String)
    /// The user who ran sudo (SUDO_USER): what their own node reads.
    case sudoUser(String)
    /// A systemd unit, run as this user.
    case service(unit: String, user: String)

    package var isThisShell: Bool {
        if case .thisShell = self { return true }
        return false
    }

    package var user: String? {
        switch self {
        case .asDevice: nil
        case .thisShell(let user), .sudoUser(let user), .service(_, let user): user
        }
    }
}

/// One device identity file as the node host that reads it would take it: what it makes of
/// it (`IdentityFileState`), and whether its user may read it at all.
package struct IdentityFile: Sendable, Hashable {
    package let path: String
    package var readers: [IdentityReader]
    package let state: IdentityFileState
    package let owner: UInt32?
    /// The owner's name, when the password database has it.
    package var ownerName: String?
    /// The permission bits (st_mode & 07777).
    package let mode: UInt32?
    /// The readers' users the file's owner, group and mode keep out.
    package let deniedTo: [String]

    package init(path: String, readers: [IdentityReader], state: IdentityFileState, owner: UInt32?, mode: UInt32?, deniedTo: [String]) {
        self.path = path
        self.readers = readers
        self.state = state
        self.owner = owner
        self.mode = mode
        self.deniedTo = deniedTo
    }

    /// The node host cannot read it (or its user may not), though it is there: it makes a new
    /// key at every start.
    package var unreadable: Bool {
        if case .unreadable = state { return true }
        return state != .missing && !deniedTo.isEmpty
    }

    package var invalid: Bool {
        if case .invalid = state { return true }
        return false
    }

    /// Group or others may read the private key.
    package var exposed: Bool { state.deviceId != nil && (mode ?? 0) & 0o077 != 0 }
}

/// openclaw.identity: the device identity files the node on this machine would use, the
/// first the one that decides (--as-device, else the user's own, else this shell's), then
/// those of other ways to start it (sudo, systemd units).
package struct IdentityEvidence: Sendable, Equatable {
    package let files: [IdentityFile]
    /// The machine is a node: its config (gateway.mode remote), --as-device, or a node service.
    package let isNode: Bool

    package var primary: IdentityFile? { files.first }

    /// The devices the Gateway would see from this machine: one per usable file, one per file
    /// a node host would replace or make anew (each start of a broken one is another device).
    /// This shell's file, when missing beside the --as-device one, is no device yet: nothing
    /// says a node is started from this shell.
    package var distinctDevices: Int {
        var ids = Set<String>()
        var fresh = 0
        for (index, file) in files.enumerated() {
            if let id = file.state.deviceId, !file.unreadable {
                ids.insert(id)
            } else if index == 0 || file.state != .missing || !file.readers.allSatisfy(\.isThisShell) {
                fresh += 1
            }
        }
        return ids.count + fresh
    }
}
