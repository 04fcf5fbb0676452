import FoundationEssentials
import FuzzSupport
import Glibc
import Host

/// `~/.openclaw/openclaw.json` (JSON5): any bytes give a config, with warnings, never a trap.
func fuzz(_ bytes: [UInt8]) {
    let config = OpenClawConfig.parse(Data(bytes), path: "openclaw.json")
    precondition(config.exists)
}

runFuzzer(fuzz)
