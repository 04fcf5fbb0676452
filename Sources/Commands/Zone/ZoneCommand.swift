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
            use it and compares it with what a live server serves; `zone push` registers the \
            Gateways in a zone your DNS server already serves (RFC 2136 UPDATE, signed with TSIG).

            Examples:

                clawnet zone generate --domain openclaw.internal --from-browse \\
                    --out /etc/coredns/openclaw.internal.db \\
                    --corefile /etc/coredns/Corefile
                clawnet zone check /etc/coredns/openclaw.internal.db \\
                    --server 100.101.102.103
                clawnet zone push --domain openclaw.internal --server 100.101.102.53 \\
                    --tsig-key clawnet.key --this-host

            \(ExitStatus.status(
                (.success, "the zone was written, checked without failures, or pushed"),
                (.failure, "the zone cannot be written, a check of it failed, or the server refused the update")))
            """,
        subcommands: [ZoneGenerateCommand.self, ZonePushCommand.self, ZoneCheckCommand.self]
    )
}
