import ArgumentParser
import DNSSD
import Doctor
import Host
import Probes

/// --token-file and --as-device, read once for doctor and preflight. Both go only to the
/// Gateways doctor is told about: the named targets, or gateway.remote.url on a node; and there
/// only over a connection whose peer is verified (`CredentialPolicy`).
enum Credentials {
    /// Reads the files; returns the warnings about secret files others can read (the config's
    /// too, when it holds a token), for the command to print.
    static func load(into options: inout DoctorOptions, tokenFile: String?, deviceFile: String?, config: OpenClawConfig) throws
        -> [SecretFileWarning]
    {
        let configWarning = config.secretFileWarning.map { [$0] } ?? []
        guard tokenFile != nil || deviceFile != nil else { return configWarning }
        guard !options.targets.isEmpty || (config.node.isRemote && config.node.remoteURL != nil) else {
            throw ValidationError(
                "--token-file and --as-device go to the Gateways you name: give a TARGET (or set gateway.remote.url on this node); "
                    + "doctor never sends them to every Gateway it discovers")
        }
        var warnings = configWarning
        if let tokenFile {
            do { options.token = try TokenFile.read(tokenFile) } catch { throw ValidationError(error.description) }
            warnings += SecretFile.warning(path: tokenFile, kind: .token).map { [$0] } ?? []
        }
        if let deviceFile {
            let device: DeviceIdentity
            do { device = try DeviceIdentity.load(path: deviceFile) } catch {
                throw ValidationError("--as-device: \(error.description)")
            }
            options.device = device
            warnings += device.mode.flatMap { SecretFileWarning(path: deviceFile, mode: $0, kind: .deviceIdentity) }.map { [$0] } ?? []
        }
        return warnings
    }
}
