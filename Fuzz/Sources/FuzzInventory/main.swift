import DNSSD
import FoundationEssentials
import FuzzSupport
import Glibc
import Zones

/// `zone generate --inventory`: a browse JSON document, whatever its shape.
let domain = try! DomainName(validating: "openclaw.internal")

func fuzz(_ bytes: [UInt8]) {
    _ = try? Inventory.gateways(fromJSON: Data(bytes), domain: domain)
}

runFuzzer(fuzz)
