import DNSSD
import Zones

/// What `zone generate` prints: the zone, or what it wrote and the next steps.
package enum ZoneGenerateLines {
    /// Notes first, then the zone (stdout) or what was written (stderr, a status line), then, when the
    /// Corefile's stanza was written, how to serve it (once: not again on every run that changes
    /// nothing). A refusal prints its notes; its error is the command's.
    package static func transcript(_ outcome: ZoneGeneration.Outcome, domain: DomainName) -> Transcript {
        var transcript = Transcript()
        switch outcome {
        case .printed(let rendered, let notes):
            transcript.notes(notes)
            transcript.out(linesOf: rendered.text)
        case .refused(_, let notes):
            transcript.notes(notes)
        case .written(let written):
            transcript.notes(written.notes)
            transcript.err(wrote(written))
            if let corefile = written.corefile {
                transcript.err(
                    corefile.changed
                        ? "wrote \(corefile.path) (clawnet's stanza for \(domain.withoutTrailingDot))" : "unchanged: \(corefile.path)")
                if corefile.changed {
                    transcript.err(
                        linesOf: CorefileWriter.nextSteps(
                            domain: domain, bind: corefile.bind, corefilePath: corefile.path, zonePath: written.zone.path,
                            plugin: corefile.plugin))
                }
            }
        }
        return transcript
    }

    static func wrote(_ written: ZoneGeneration.Written) -> String {
        let zone = written.zone
        let count = written.gateways
        return zone.changed
            ? "wrote \(zone.path) (serial \(zone.serial)\(zone.previousSerial.map { ", was \($0)" } ?? ""); "
                + "\(Plural.counted(count, "Gateway")))"
            : "unchanged: \(zone.path) (serial \(zone.serial)); nothing written"
    }
}
