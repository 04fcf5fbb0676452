/// The name and version of every JSON document clawnet prints or reads, in one place.
package enum Schema {
    /// `browse --format json`, and what `zone generate --inventory` reads.
    package static let browse = "clawnet.browse.v1"
    package static let doctor = "clawnet.doctor.v1"
    package static let preflight = "clawnet.preflight.v2"
    package static let zoneCheck = "clawnet.zonecheck.v3"
}
