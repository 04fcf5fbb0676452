import DNSSD
import Host

/// A command that reads the OpenClaw config (--config, else the default path). When it stops
/// on an error, a usage error included, and the config could not be used, it says so: the
/// error may come from a setting the config would have given (a wide-area domain, a port).
protocol ReadsConfig {
    var configPath: String? { get }
}

enum ConfigNote {
    /// The line said after the error, nil when the config was usable (or missing by default).
    static func line(_ config: OpenClawConfig) -> String? {
        guard let unusable = config.unusable else { return nil }
        return "note: the OpenClaw config could not be used, so none of its settings (discovery.wideArea.domain, gateway.*) "
            + "applied: \(SafeText.line(unusable.message))"
    }
}

extension BrowseCommand: ReadsConfig { var configPath: String? { config.path } }
extension DoctorCommand: ReadsConfig { var configPath: String? { config.path } }
extension PreflightCommand: ReadsConfig { var configPath: String? { config.path } }
extension WatchCommand: ReadsConfig { var configPath: String? { config.path } }
extension ReportCommand: ReadsConfig { var configPath: String? { config.path } }
