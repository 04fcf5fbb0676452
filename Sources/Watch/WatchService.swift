import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import NIOPosix
import NIOSupport
import Probes

/// Watches every Gateway discovery finds until cancelled: discovery runs in watch mode and
/// hands over its roster; each Gateway is probed on its own schedule (`WatchPolicy`), at most
/// `concurrentProbes` at once, up to the connect handshake and never with credentials; each
/// verdict goes through the Gateway's `GatewayWatch`, and what changed goes to `emit`.
public struct WatchService: Sendable {
    public let policy: WatchPolicy
    public let discovery: any Discovering
    public let board: WatchBoard
    /// Reads the setup: at the start, and again on each hangup.
    public let setup: @Sendable () async -> WatchSetup
    public let emit: @Sendable (WatchEvent) -> Void

    public init(
        policy: WatchPolicy, discovery: any Discovering, board: WatchBoard, setup: @escaping @Sendable () async -> WatchSetup,
        emit: @escaping @Sendable (WatchEvent) -> Void
    ) {
        self.policy = policy
        self.discovery = discovery
        self.board = board
        self.setup = setup
        self.emit = emit
    }

    /// Runs until the task is cancelled (SIGTERM); a value on `hangups` rereads the setup.
    public func run(hangups: AsyncStream<Void>) async {
        let mailbox = Mailbox()
        var loop = WatchLoop(service: self, setup: await setup())
        var discovering = startDiscovery(loop.setup.request, mailbox: mailbox)
        await withDiscardingTaskGroup { group in
            group.addTask { await tick(mailbox) }
            group.addTask {
                for await _ in hangups { mailbox.post { $0.reload = true } }
            }
            for await _ in mailbox.rings {
                let contents = mailbox.take()
                if contents.reload {
                    discovering.cancel()
                    loop.setup = await setup()
                    loop.reloaded()
                    discovering = startDiscovery(loop.setup.request, mailbox: mailbox)
                }
                if let roster = contents.roster { loop.apply(roster) }
                for (id, verdict) in contents.verdicts { loop.finished(id, verdict) }
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
            discovering.cancel()
            group.cancelAll()
        }
    }

    /// Discovery in watch mode, each change handing the whole roster over (only the latest
    /// counts).
    private func startDiscovery(_ request: DiscoveryRequest, mailbox: Mailbox) -> Task<Void, Never> {
        var request = request
        request.watch = true
        let discovery = self.discovery
        return Task {
            _ = await discovery.snapshot(request, timeout: nil, untilAllForNow: false, initial: []) { _, collection in
                let roster = collection.beacons
                mailbox.post { $0.roster = roster }
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
