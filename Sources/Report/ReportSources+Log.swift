import DNSSD
import FoundationEssentials
import Glibc
import Host

extension ReportSources {
    /// Where OpenClaw's rolling log is (openclaw/openclaw src/logging/logger.ts DEFAULT_LOG_DIR).
    static let logFolder = "/tmp/openclaw"
    /// Logs looked at, newest first: a day's log each, far more days than a helper needs.
    static let logsTried = 64

    /// The end of OpenClaw's newest rolling log (openclaw-YYYY-MM-DD.log, newest by name),
    /// however large it is. The folder is in /tmp, where anyone may make it first: it counts only
    /// when it is the Gateway's user's or root's, and so does each log in it (a regular file, no
    /// symbolic link); what does not count is named in the manifest.
    mutating func gatewayLog(folder: String = logFolder) {
        guard unsure.isEmpty else { return omitted.append(("gateway log", Self.unsureWhy)) }
        var folderStatus = stat()
        guard lstat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
            omitted.append(("gateway log", "no OpenClaw log in \(folder) (a Gateway writes openclaw-YYYY-MM-DD.log there)"))
            return
        }
        guard gatewayUser.counts(owner: folderStatus.st_uid) else {
            let owner = Ownership.user(folderStatus.st_uid)
            omitted.append(
                (folder, "belongs to \(owner), not to the Gateway's user (\(Ownership.user(gatewayUser.uid))) or root: left out"))
            return
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var others = 0
        let logs = names.filter { $0.hasPrefix("openclaw-") && $0.hasSuffix(".log") }.sorted(by: >)
        for name in logs.prefix(Self.logsTried) {
            let log = "\(folder)/\(name)"
            do {
                let (bytes, owner, size) = try RegularFile.tail(log, bytes: Self.logTail)
                guard gatewayUser.counts(owner: owner) else {
                    others += 1
                    continue
                }
                if others > 0 { omitted.append((folder, "\(Plural.counted(others, "newer log")) of other users: left out")) }
                files.append(ReportFile("gateway-log.txt", bytes))
                if size > bytes.count { omitted.append((log, "only its last \(bytes.count) of \(size) bytes are included")) }
                return
            } catch {
                omitted.append((log, error.description))
            }
        }
        let why = others > 0 ? "\(Plural.counted(others, "log")) there of other users: left out" : "no OpenClaw log there"
        omitted.append(("gateway log", "\(why) (\(folder))"))
    }
}
