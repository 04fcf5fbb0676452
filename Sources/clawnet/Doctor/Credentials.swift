import ArgumentParser
import DNSSD
import Doctor
import Host
import Probes

/// --token-file and --as-device, read once for doctor and preflight. Both go only to the
/// Gateways doctor is told about: the named targets, or gateway.remote.url on a node.
enum Credentials {
    static func load(into options: inout DoctorOptions, tokenFile: String?, deviceFile: String?, config: OpenClawConfig) throws {
        guard tokenFile != nil || deviceFile != nil else { return }
        guard !options.targets.isEmpty || (config.node.isRemote && config.node.remoteURL != nil) else {
            throw ValidationError(
                "--token-file and --as-device go to the Gateways you name: give a TARGET (or set gateway.remote.url on this node); "
                    + "doctor never sends them to every Gateway it discovers")
        }
        if let tokenFile {
            do { options.token = try TokenFile.read(tokenFile) } catch { throw ValidationError(error.description) }
        }
        if let deviceFile {
            do { options.device = try DeviceIdentity.load(path: deviceFile) } catch {
                throw ValidationError("--as-device: \(error.description)")
            }
        }
    }
}
