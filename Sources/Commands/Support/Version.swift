/// What `clawnet --version` prints: the release and the git commit of the source it was built
/// from (`BuildInfo` is written at build time by Plugins/BuildInfo).
enum Version {
    static let release = "0.1.0"

    static var line: String {
        guard let commit = BuildInfo.commit else { return "clawnet \(release) (unknown commit)" }
        return "clawnet \(release) (commit \(commit)\(BuildInfo.modified ? ", with uncommitted changes" : ""))"
    }
}
