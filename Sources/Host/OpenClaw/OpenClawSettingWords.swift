import DNSSD

// The OpenClaw config settings that are one of a few words, as OpenClaw's schema spells them
// (src/config/zod-schema.gateway.ts: GatewayConfigSchema's bind, mode and remote.transport;
// src/config/types.gateway.ts: MdnsDiscoveryMode). A word the schema does not know is kept as
// given, to be shown, and never matches a known case.

/// `gateway.bind`: which addresses the Gateway listens on.
package enum GatewayBind: KnownWord {
    /// 127.0.0.1 only (OpenClaw's default).
    case loopback
    /// 0.0.0.0.
    case lan
    /// The first Tailscale address.
    case tailnet
    case auto
    /// `gateway.customBindHost`.
    case custom
    case other(String)

    package static let spellings: [(GatewayBind, String)] = [
        (.loopback, "loopback"), (.lan, "lan"), (.tailnet, "tailnet"), (.auto, "auto"), (.custom, "custom"),
    ]

    package var unknownWord: String? {
        if case .other(let word) = self { return word }
        return nil
    }
}

/// `gateway.mode`: a Gateway here (`local`, the default) or a node of a remote one.
package enum GatewayMode: KnownWord {
    case local, remote
    case other(String)

    package static let spellings: [(GatewayMode, String)] = [(.local, "local"), (.remote, "remote")]

    package var unknownWord: String? {
        if case .other(let word) = self { return word }
        return nil
    }
}

/// `gateway.remote.transport`: an SSH tunnel to the Gateway's loopback, or a direct connection.
package enum RemoteTransport: KnownWord {
    case ssh, direct
    case other(String)

    package static let spellings: [(RemoteTransport, String)] = [(.ssh, "ssh"), (.direct, "direct")]

    package var unknownWord: String? {
        if case .other(let word) = self { return word }
        return nil
    }
}

/// `discovery.mdns.mode`: how much the Gateway's mDNS beacon says (`minimal` by default).
package enum MDNSMode: KnownWord {
    case off, minimal, full
    case other(String)

    package static let spellings: [(MDNSMode, String)] = [(.off, "off"), (.minimal, "minimal"), (.full, "full")]

    package var unknownWord: String? {
        if case .other(let word) = self { return word }
        return nil
    }
}
