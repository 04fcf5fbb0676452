import ArgumentParser
import Output

struct ZoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zone",
        abstract: "Write and check the unicast DNS-SD zone that serves Gateways in a wide-area domain.",
        discussion: """
            OpenClaw writes its wide-area zone itself but sets up CoreDNS only on macOS. \
            `zone generate` writes the zone (OpenClaw's layout, for any number of Gateways) and \
            the CoreDNS stanza that serves it; `zone check` lints a zone the way DNS-SD clients \
            use it and compares it with what a live server serves.

            Examples:

                clawnet zone generate --domain openclaw.internal --from-browse \\
                    --out /etc/coredns/openclaw.internal.db --corefile /etc/coredns/Corefile
                clawnet zone check /etc/coredns/openclaw.internal.db --server 100.101.102.103

            \(ExitStatus.status(
                (.success, "the zone was written, or checked without failures"),
                (.failure, "the zone cannot be written, or a check of it failed")))
            """,
        subcommands: [ZoneGenerateCommand.self, ZonePushCommand.self, ZoneCheckCommand.self]
    )
}
