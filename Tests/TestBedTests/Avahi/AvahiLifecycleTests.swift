import DNSSD
import Foundation
import TestSupport
import Testing

@testable import Avahi

/// Avahi sessions started and ended at the worst moments, against the node's real
/// avahi-daemon: a look-up whose timeout fires while its client is still being made, one whose
/// resolvers the daemon refuses as they are made (past its objects-per-client limit), a browse
/// or a publication cancelled while it starts. `finish()` once ran on another thread while
/// `start()` still used the poll and the client (a data race and a use after free); now the
/// setup and the teardown of each session cannot overlap. Each case must end with a complete,
/// bounded answer and no crash, and the daemon must still serve a normal look-up afterwards.
/// (`swift build -Xswiftc -sanitize=thread` runs these under the thread sanitizer.)
@Suite("Avahi sessions ended while they start", .testBed, .serialized)
struct AvahiLifecycleTests {
    func requireNodeBus() throws -> TestBed {
        let bed = try TestBed.current()
        let bus = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
        try #require(bus == bed.bus(.node), "in-process tests run inside the node namespace with its D-Bus: use scripts/test")
        return bed
    }

    /// The gw host answers for its own address: the daemon still works for a new client.
    func gwStillAnswers(_ bed: TestBed) async {
        let gw = IPAddress(bed.ip(.gw))!
        let answers = await AvahiAddressLookup.names(of: [gw], timeout: .seconds(10))
        #expect(answers[gw] == .name("gw.local"), "after the stress: \(String(describing: answers[gw]))")
    }

    @Test("look-ups whose timeout fires while they start: every address answered, every time")
    func timeoutDuringStart() async throws {
        let bed = try requireNodeBus()
        let addresses = [bed.ip(.gw), "10.99.0.250", "192.0.2.7", "fd99::1"].map { IPAddress($0)! }
        for round in 0..<4 {
            let results = await withTaskGroup(of: [IPAddress: AvahiAddressLookup.Answer].self) { group in
                for index in 0..<16 {
                    group.addTask { await AvahiAddressLookup.names(of: addresses, timeout: .milliseconds(index % 4)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 16)
            for answers in results {
                #expect(Set(answers.keys) == Set(addresses), "round \(round): \(answers)")
            }
        }
        await gwStillAnswers(bed)
    }

    @Test("a look-up past the daemon's objects-per-client limit: the refused resolvers answer while it starts")
    func resolversRefused() async throws {
        let bed = try requireNodeBus()
        // avahi-daemon allows one client 1,024 objects (objects-per-client-max). Link-local
        // addresses on lo, where the daemon does not run mDNS: its resolvers send nothing, so the
        // test leaves the LAN the other tests share alone.
        let addresses = (0..<1_040).map { index in
            IPAddress(bytes: [0xFE, 0x80] + Array(repeating: 0, count: 12) + [UInt8(index >> 8), UInt8(index & 255)], zone: "lo")!
        }
        // It waits for every answer (a resolver that finds nobody fails after about five seconds;
        // making 1,100 of them under the thread sanitizer on a loaded machine took more than 20),
        // then ends on its own.
        let answers = await AvahiAddressLookup.names(of: addresses, timeout: .seconds(300))
        #expect(answers.count == addresses.count)
        #expect(!answers.values.contains { if case .name = $0 { true } else { false } }, "nobody answers on lo")
        let refused = answers.values.filter { $0 == .unavailable("Too many objects") }.count
        #expect(refused > 0, "the daemon refused no resolver of \(addresses.count)")
        await gwStillAnswers(bed)
    }

    @Test("browses and publications cancelled while they start: each ends, and browsing still works")
    func cancelledWhileStarting() async throws {
        let bed = try requireNodeBus()
        let stress = try ServiceType(validating: "_clawnet-stress._tcp")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for await _ in MulticastBackend().browse(types: [stress], watch: index % 2 == 0) { break }
                }
            }
            // Streams dropped unread: their termination comes before or while the setup runs.
            // (No publication gets as far as probing: its packets would disturb the other tests'
            // name conflicts on the shared LAN.)
            for index in 0..<16 {
                group.addTask {
                    if index % 2 == 0 {
                        _ = MulticastBackend().browse(types: [stress], watch: true)
                    } else {
                        _ = MulticastAdvertiser().advertise(name: "stress \(index)", type: stress, port: 9, txt: .empty)
                    }
                }
            }
        }
        var ended = false
        for await event in MulticastBackend().browse(types: [stress], watch: false) where event == .allForNow {
            ended = true
        }
        #expect(ended, "a browse after the stress reaches all-for-now")
        await gwStillAnswers(bed)
    }
}
