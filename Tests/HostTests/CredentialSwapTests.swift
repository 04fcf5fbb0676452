import DNSSD
import Foundation
import Glibc
import Synchronization
import Testing

@testable import Host

/// Issue 18 (a third outside attack): a file whose owner decides where a token or a signature
/// goes was read by its path, and its owner looked up by the path again: another user who
/// swapped the file in between had root send root's token to their Gateway. The owner now
/// comes from the descriptor that was read, and the path is walked as writes walk it.
@Suite("Credential files: the owner is the owner of what was read", .enabled(if: geteuid() == 0))
struct CredentialSwapTests {
    static let nobody: uid_t = 65534
    static let foreign =
        "{ gateway: { mode: 'remote', remote: { url: 'ws://10.66.6.6:18789', token: { source: 'env', id: 'ROOT_TOKEN' } } } }"
    static let own = "{ gateway: { mode: 'remote', remote: { url: 'ws://10.77.7.7:18789', token: { source: 'env', id: 'ROOT_TOKEN' } } } }"

    /// A folder of root's with root's config and nobody's, and `link` (root's own) to one of them.
    struct Scene {
        let directory: String
        var link: String { directory + "/openclaw.json" }
        var ownFile: String { directory + "/own.json" }
        var foreignFile: String { directory + "/foreign.json" }

        init() throws {
            directory = NSTemporaryDirectory() + "swap-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try CredentialSwapTests.own.write(toFile: ownFile, atomically: false, encoding: .utf8)
            // Padding makes each read and parse long enough for swaps to land inside it.
            let padded = CredentialSwapTests.foreign + String(repeating: " ", count: 200_000)
            try padded.write(toFile: foreignFile, atomically: false, encoding: .utf8)
            #expect(chown(foreignFile, CredentialSwapTests.nobody, CredentialSwapTests.nobody) == 0)
            #expect(symlink(ownFile, link) == 0)
        }

        /// Flips `link` between the two files, by rename (as an attacker does), until `stop`.
        func swapper(_ stop: StopFlag) -> Int {
            var flips = 0
            let temporary = directory + "/next"
            while !stop.value.load(ordering: .relaxed) {
                unlink(temporary)
                _ = symlink(flips % 2 == 0 ? foreignFile : ownFile, temporary)
                _ = rename(temporary, link)
                flips += 1
            }
            return flips
        }
    }

    @Test("a link flipped between root's config and nobody's while it is loaded: nobody's URL never gets the token")
    func configSwapped() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        let stop = StopFlag()
        let flips = Mutex(0)
        // A thread of its own: the swaps must run while the loads do, not when the pool has room.
        Thread.detachNewThread { flips.withLock { $0 = scene.swapper(stop) } }
        defer { stop.value.store(true, ordering: .relaxed) }
        var seen = (own: 0, foreign: 0, rounds: 0)
        var leaks: [String] = []
        // Until each file was read 20 times (both sides of the race), at most 5,000 loads.
        while seen.rounds < 5_000 && (seen.own < 20 || seen.foreign < 20) {
            seen.rounds += 1
            let config = OpenClawConfig.load(explicitPath: scene.link, environment: ["ROOT_TOKEN": "root-secret"])
            switch config.node.remoteURL?.host {
            case "10.66.6.6":
                seen.foreign += 1
                if config.node.token != nil {
                    leaks.append("load \(seen.rounds): nobody's URL with a token, owner \(config.fileOwner ?? 0)")
                }
            case "10.77.7.7": seen.own += 1
            default: break
            }
        }
        #expect(leaks.isEmpty, "\(leaks.prefix(5)) (\(leaks.count) of \(seen.rounds) loads)")
        #expect(seen.own >= 20 && seen.foreign >= 20, "both files were read (\(seen)): the race was exercised")
    }

    @Test("read through nobody's link, in any folder: refused, naming the link; root's file itself is read")
    func foreignLink() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.directory) }
        let planted = scene.directory + "/planted.json"
        #expect(symlink(scene.ownFile, planted) == 0 && lchown(planted, Self.nobody, Self.nobody) == 0)
        #expect(throws: RegularFile.Failure.self) { try RegularFile.readProtected(planted, limit: 1 << 20) }
        let config = OpenClawConfig.load(explicitPath: planted, environment: ["ROOT_TOKEN": "root-secret"])
        #expect(config.node.token == nil, "a config nobody's link chose is not used")
        #expect(config.warnings.contains { $0.contains("symbolic link of uid 65534") }, "\(config.warnings)")
        let own = try RegularFile.readProtected(scene.ownFile, limit: 1 << 20)
        #expect(own.owner == 0 && own.bytes == Array(Self.own.utf8))
    }
}

/// Tells a loop on another thread to stop.
final class StopFlag: Sendable {
    let value = Atomic(false)
}
