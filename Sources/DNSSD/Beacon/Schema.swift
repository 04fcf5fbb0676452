/// The name and version of every JSON document clawnet prints or reads, in one place.
public enum Schema {
    /// `browse --format json`, and what `zone generate --inventory` reads.
    public static let browse = "clawnet.browse.v1"
    public static let doctor = "clawnet.doctor.v1"
    public static let preflight = "clawnet.preflight.v2"
    public static let zoneCheck = "clawnet.zonecheck.v3"
}
