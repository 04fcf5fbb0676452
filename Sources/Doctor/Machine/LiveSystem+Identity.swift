import Glibc
import Host

extension LiveSystem {
    /// The identity files of this machine's node: the user's (SUDO_USER's under sudo), this
    /// shell's, and those of openclaw-node units in /etc/systemd/system and the users' homes.
    package func nodeIdentities(asDevice: String?) -> [IdentityFile] {
        let current = UserAccount.withID(geteuid())
        let sudo = environment["SUDO_USER"].flatMap(UserAccount.named).flatMap { $0.uid == 0 ? nil : $0 }
        let homes = Array(Set([environment["HOME"], sudo?.home, current?.home].compactMap { $0 })).sorted()
        let units = NodeServiceUnit.find(userHomes: homes)
        let candidates = NodeIdentities.candidates(
            environment: environment, asDevice: asDevice, current: current, sudo: sudo, units: units, lookUp: UserAccount.named)
        return NodeIdentities.files(candidates)
    }
}
