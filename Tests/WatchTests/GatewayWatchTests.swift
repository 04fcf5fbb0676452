import DNSSD
import Doctor
import FoundationEssentials
import Testing

@testable import Watch

/// The state machine, fed a table of probes at recorded times.
@Suite struct GatewayWatchTests {
    static let policy: WatchPolicy = {
        var policy = WatchPolicy()
        policy.interval = .seconds(30)
        policy.flapChanges = 4
        policy.flapWindow = .seconds(600)
        policy.failuresBeforeDown = 2
        return policy
    }()
    static let date = Date(timeIntervalSince1970: 1_800_000_000)
    static let up = ProbeVerdict()
    static let refused = ProbeVerdict(failure: .init(check: .gwTCP, diagnosis: .gatewayNotListening))
    static let certA = TLSFingerprint(digest: [UInt8](repeating: 0xA, count: 32))
    static let certB = TLSFingerprint(digest: [UInt8](repeating: 0xB, count: 32))

    /// Feeds `steps` (seconds since start, verdict) and returns every change, by step.
    func run(_ steps: [(Int, ProbeVerdict)], policy: WatchPolicy = policy) -> (GatewayWatch, [[WatchEvent.Change]]) {
        var watch = GatewayWatch()
        let changes = steps.map { seconds, verdict in
            watch.observe(verdict, at: .seconds(seconds), date: Self.date.addingTimeInterval(Double(seconds)), policy: policy)
        }
        return (watch, changes)
    }

    @Test func firstVerdictIsReportedAtOnce() {
        #expect(run([(0, Self.up)]).1 == [[.up]])
        #expect(run([(0, Self.refused)]).1 == [[.down(check: .gwTCP, diagnosis: .gatewayNotListening)]])
    }

    @Test func oneLostProbeIsNotAnOutage() {
        let (watch, changes) = run([(0, Self.up), (30, Self.refused), (60, Self.up)])
        #expect(changes == [[.up], [], []], "hysteresis: one failure after up is not down")
        #expect(watch.health == .up)
    }

    @Test func twoFailuresInARowAreDownWithLayerAndCause() {
        let (watch, changes) = run([(0, Self.up), (30, Self.refused), (60, Self.refused), (90, Self.refused), (120, Self.up)])
        #expect(changes == [[.up], [], [.down(check: .gwTCP, diagnosis: .gatewayNotListening)], [], [.up]])
        #expect(watch.lastChange == .seconds(120))
        #expect(watch.failures == 0)
    }

    @Test("while down, another failing check or diagnosis is a new down; the same one again is not, nor a flap")
    func causeChangeWhileDownIsReported() {
        let pinChanged = ProbeVerdict(failure: .init(check: .gwPin, diagnosis: .pinChanged))
        let (watch, changes) = run([(0, Self.refused), (30, Self.refused), (60, pinChanged), (90, pinChanged), (120, Self.refused)])
        #expect(
            changes == [
                [.down(check: .gwTCP, diagnosis: .gatewayNotListening)], [], [.down(check: .gwPin, diagnosis: .pinChanged)], [],
                [.down(check: .gwTCP, diagnosis: .gatewayNotListening)],
            ], "\(changes)")
        #expect(watch.lastChange == .seconds(0), "a new cause is no change of health")
        #expect(!watch.flapping)
    }

    @Test("down after up names its cause; a cause change after that is reported once")
    func causeChangeAfterConfirmedDown() {
        let pinChanged = ProbeVerdict(failure: .init(check: .gwPin, diagnosis: .pinChanged))
        let (_, changes) = run([(0, Self.up), (30, pinChanged), (60, Self.refused), (90, Self.refused), (120, Self.up)])
        #expect(changes == [[.up], [], [.down(check: .gwTCP, diagnosis: .gatewayNotListening)], [], [.up]], "\(changes)")
    }

    @Test func flappingAfterFourChangesInTheWindowThenSteady() {
        var steps: [(Int, ProbeVerdict)] = [(0, Self.up)]
        var time = 0
        for _ in 0..<2 {
            steps += [(time + 30, Self.refused), (time + 60, Self.refused), (time + 90, Self.up)]
            time += 90
        }
        // Changes: down 60, up 90, down 150, up 180: the fourth makes it flapping.
        let (_, changes) = run(steps + [(800, Self.up)])
        let flat = changes.flatMap { $0 }
        #expect(flat.filter { $0 == .up }.count == 3)
        #expect(flat.contains(.flapping(changes: 4, window: .seconds(600))), "saw \(changes)")
        #expect(changes.last == [.steady], "no change for a whole window after 180 s: steady at 800 s; saw \(changes)")
    }

    @Test func changesOutsideTheWindowDoNotFlap() {
        var policy = Self.policy
        policy.flapWindow = .seconds(100)
        let steps: [(Int, ProbeVerdict)] = [
            (0, Self.up), (30, Self.refused), (60, Self.refused), (200, Self.up), (400, Self.refused), (430, Self.refused),
            (600, Self.up),
        ]
        let (watch, changes) = run(steps, policy: policy)
        #expect(!changes.flatMap { $0 }.contains { if case .flapping = $0 { true } else { false } }, "saw \(changes)")
        #expect(!watch.flapping)
    }

    @Test func certificateAndVersionsChangeOnlyWhenSeenBefore() {
        var first = Self.up
        (first.fingerprint, first.protocolVersion, first.serverVersion) = (Self.certA, 3, "2026.1.1")
        var second = first
        (second.fingerprint, second.protocolVersion, second.serverVersion) = (Self.certB, 4, "2026.2.0")
        let (_, changes) = run([(0, first), (30, Self.refused), (60, second)])
        #expect(changes[0] == [.up])
        #expect(
            changes[2] == [
                .certificateChanged(from: Self.certA, to: Self.certB, pinned: false), .protocolChanged(from: 3, to: 4),
                .serverVersionChanged(from: "2026.1.1", to: "2026.2.0"),
            ], "a probe that failed early shows nothing new in between; saw \(changes)")
    }

    @Test func certificateRenewedUnderAPin() {
        var pinned = Self.up
        (pinned.fingerprint, pinned.pin) = (Self.certA, Self.certA)
        var renewed = ProbeVerdict(failure: .init(check: .gwPin, diagnosis: .pinChanged))
        (renewed.fingerprint, renewed.pin) = (Self.certB, Self.certA)
        let (_, changes) = run([(0, pinned), (30, renewed), (60, renewed)])
        #expect(changes[1] == [.certificateChanged(from: Self.certA, to: Self.certB, pinned: true)])
        #expect(changes[2] == [.down(check: .gwPin, diagnosis: .pinChanged)])
    }

    @Test func pinChangeIsReported() {
        var before = Self.up
        before.pin = Self.certA
        var after = Self.up
        after.pin = Self.certB
        #expect(run([(0, before), (30, after)]).1[1] == [.pinChanged(from: Self.certA, to: Self.certB)])
    }

    @Test func expiringCertificateIsReportedOncePerCertificate() {
        var soon = Self.up
        (soon.fingerprint, soon.notAfter) = (Self.certA, Self.date.addingTimeInterval(5 * 86_400))
        var later = Self.up
        (later.fingerprint, later.notAfter) = (Self.certB, Self.date.addingTimeInterval(90 * 86_400))
        let (_, changes) = run([(0, soon), (30, soon), (60, later)])
        #expect(changes[0] == [.certificateExpiring(notAfter: soon.notAfter!), .up])
        #expect(changes[1] == [])
        #expect(changes[2] == [.certificateChanged(from: Self.certA, to: Self.certB, pinned: false)])
    }

    @Test(arguments: [
        (0, 0.5, 30.0), (1, 0.5, 30.0), (2, 0.5, 60.0), (3, 0.5, 120.0), (5, 0.5, 300.0), (40, 0.5, 300.0), (0, 0.0, 27.0), (0, 1.0, 33.0),
    ])
    func backoffAndJitter(failures: Int, random: Double, seconds: Double) {
        let wait = Self.policy.wait(failures: failures, random: random)
        let got = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        #expect(abs(got - seconds) < 0.001, "failures \(failures), random \(random): waited \(got) s")
    }

    @Test("a renewal its beacon republished: one certificateChanged with both fingerprints and beaconAgrees, then nothing on later probes")
    func renewalReportedOnce() {
        var before = Self.up
        (before.fingerprint, before.beaconAgrees) = (Self.certA, true)
        var renewed = Self.up
        (renewed.fingerprint, renewed.beaconAgrees) = (Self.certB, true)
        let (_, changes) = run([(0, before), (30, renewed), (60, renewed), (90, renewed)])
        #expect(changes[1] == [.certificateChanged(from: Self.certA, to: Self.certB, pinned: false, beaconAgrees: true)], "\(changes)")
        #expect(changes[2].isEmpty && changes[3].isEmpty, "reported once, not every probe: \(changes)")
    }
}
