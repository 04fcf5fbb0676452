import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Host
import NIOPosix
import NIOSupport
import Probes

/// Watches every Gateway discovery finds until cancelled: discovery runs in watch mode and
/// hands over its roster; each Gateway is probed on its own schedule (`WatchPolicy`), at most
/// `concurrentProbes` at once, up to the connect handshake and never with credentials; each
/// verdict goes through the Gateway's `GatewayWatch`, and what changed goes to `emit`.
package struct WatchService: Sendable {
    package let policy: WatchPolicy
    package let discovery: any Discovering
    package let board: WatchBoard
    /// Reads the setup: at the start, and again on each hangup.
    package let setup: @Sendable () async -> WatchSetup
    package let emit: @Sendable (WatchEvent) -> Void
    /// A discovery path's error (a missing D-Bus, a DNS server that does not answer), as it
    /// comes.
    package let report: @Sendable (DiscoveryIssue) -> Void

    package init(
        policy: WatchPolicy, discovery: any Discovering, board: WatchBoard, setup: @escaping @Sendable () async -> WatchSetup,
        emit: @escaping @Sendable (WatchEvent) -> Void, report: @escaping @Sendable (DiscoveryIssue) -> Void = { _ in }
    ) {
        self.policy = policy
        self.discovery = discovery
        self.board = board
        self.setup = setup
        self.emit = emit
        self.report = report
    }

    /// Runs until the task is cancelled (SIGTERM); a value on `hangups` rereads the setup.
    /// Returns early, with the error, when mDNS is the only path and cannot run here (no D-Bus,
    /// no avahi-daemon) before it found anything: nothing would ever be watched. Every task it
    /// starts (the ticks, the hangups, discovery, the probes) is a child of one group.
    @discardableResult
    package func run(hangups: AsyncStream<Void>) async -> DiscoveryIssue? {
        let mailbox = Mailbox()
        var loop = WatchLoop(service: self, setup: await setup())
        loop.setup.configIssues.forEach(report)
        return await withDiscardingTaskGroup { group in
            group.addTask { await tick(mailbox) }
            group.addTask {
                for await _ in hangups { mailbox.post { $0.reload = true } }
            }
            var discovering = DiscoveryRun(session: 0)
            discover(loop.setup.request, as: discovering, mailbox: mailbox, in: &group)
            var ended: DiscoveryIssue?
            for await _ in mailbox.rings {
                let contents = mailbox.take()
                for issue in contents.issues { report(issue) }
                ended = contents.issues.first { loop.setup.cannotDiscover(because: $0) && loop.isEmpty }
                if ended != nil { break }
                if contents.reload { await reload(&loop, discovering: &discovering, mailbox: mailbox, in: &group) }
                if let roster = contents.roster, contents.rosterSession == discovering.session {
                    loop.receive(roster, complete: contents.rosterComplete)
                }
                loop.advance()
                for (id, verdict) in contents.verdicts { loop.finished(id, verdict) }
                probeDue(&loop, mailbox: mailbox, in: &group)
            }
            group.cancelAll()
            return ended
        }
    }

    /// Rereads the setup; discovery starts again only when the paths changed: a new pin alone
    /// is no reason for every Gateway to disappear and appear again.
    private func reload(
        _ loop: inout WatchLoop, discovering: inout DiscoveryRun, mailbox: Mailbox, in group: inout DiscardingTaskGroup
    ) async {
        let before = loop.setup
        loop.setup = await setup()
        loop.setup.configIssues.forEach(report)
        loop.reloaded()
        guard !loop.setup.discoversTheSame(as: before) else { return }
        discovering.stop.deliver(())
        loop.holdRemovals(for: policy.rediscoverySettle)
        discovering = DiscoveryRun(session: discovering.session + 1)
        // The new session gives the Gateways it finds again the ids they have here.
        var request = loop.setup.request
        request.known = loop.roster
        discover(request, as: discovering, mailbox: mailbox, in: &group)
    }

    /// Starts a probe of each Gateway that is due, each a child task whose verdict goes to the
    /// mailbox.
    private func probeDue(_ loop: inout WatchLoop, mailbox: Mailbox, in group: inout DiscardingTaskGroup) {
        for (id, target, pin) in loop.due() {
            let (machine, machineCauses) = (loop.setup.machine, loop.setup.machineCauses)
            let beacon = loop.beacon(id)
            // The probe runs on an event loop, the one its connections then use: its
            // phases await their channels' futures on the loop's own thread, where
            // hand-offs between the cooperative pool and the loop were a third of what
            // watch cost. The loop here (events, the board) stays on the pool, so that
            // a slow write of an event never holds up a probe's I/O.
            let executor = EventLoopTaskExecutor(MultiThreadedEventLoopGroup.singleton.next())
            group.addTask(executorPreference: executor) {
                let report = await GatewayProbe.run(target, budget: policy.probeTimeout, phases: Layer.phases(for: policy.checks))
                let verdict = ProbeVerdict.judge(
                    report, beacon: beacon, pin: pin, machine: machine, machineCauses: machineCauses, budget: policy.probeTimeout,
                    now: Date())
                mailbox.post { $0.verdicts.append((id, verdict)) }
            }
        }
    }

    /// One discovery session: which one it is (a roster from one stopped may still arrive) and
    /// what stops it. Its task is a child of `run`'s group, stopped on its own when a reload
    /// changes the paths, and with the rest when the watch ends.
    private struct DiscoveryRun {
        let session: Int
        let stop = Latch<Void>()
    }

    /// Discovery in watch mode until `discovering.stop`, each change handing the whole roster
    /// over (only the latest counts).
    private func discover(
        _ request: DiscoveryRequest, as discovering: DiscoveryRun, mailbox: Mailbox, in group: inout DiscardingTaskGroup
    ) {
        var watching = request
        watching.watch = true
        let (request, discovery, session, stop) = (watching, self.discovery, discovering.session, discovering.stop)
        group.addTask {
            await withDiscardingTaskGroup { browsing in
                browsing.addTask {
                    var complete = false
                    _ = await discovery.snapshot(request, timeout: nil, untilAllForNow: false, initial: []) { event, collection in
                        let roster = collection.beacons
                        if event == .allForNow { complete = true }
                        mailbox.post { [complete] contents in
                            contents.roster = roster
                            contents.rosterComplete = complete
                            contents.rosterSession = session
                            if case .error(let issue) = event { contents.add(issue) }
                        }
                    }
                }
                await stop.value { stop.deliver(()) }
                browsing.cancelAll()
            }
        }
    }

    /// Rings the loop often enough that a probe starts within a small part of its interval.
    private func tick(_ mailbox: Mailbox) async {
        let period = min(Self.maxTick, policy.interval / 4)
        while (try? await Task.sleep(for: period)) != nil { mailbox.ring() }
    }

    static let maxTick = Duration.seconds(1)
}
