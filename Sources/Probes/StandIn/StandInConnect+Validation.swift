import DNSSD

/// What OpenClaw's server takes as connect params before it decides anything
/// (validateConnectParams, ConnectParamsSchema in packages/gateway-protocol/src/schema/frames.ts):
/// a protocol range, and a client whose id and mode are in OpenClaw's lists
/// (GATEWAY_CLIENT_IDS, GATEWAY_CLIENT_MODES in packages/gateway-protocol/src/client-info.ts,
/// read case-insensitively). Anything else is "invalid connect params", then close 1008
/// "invalid handshake" (the message handler in src/gateway/server/ws-connection/).
extension StandInConnect {
    static let clientIds: Set<String> = [
        "webchat-ui", "openclaw-control-ui", "openclaw-browser-copilot", "openclaw-tui", "webchat", "cli", "gateway-client",
        "openclaw-macos", "openclaw-linux", "openclaw-ios", "openclaw-watchos", "openclaw-android", "node-host", "openclaw-worker",
        "test", "fingerprint", "openclaw-probe",
    ]
    static let clientModes: Set<String> = ["webchat", "cli", "ui", "backend", "node", "worker", "probe", "test"]

    struct InvalidParams: Error {
        /// Where and what, as the schema validator words it.
        let problem: String
    }

    /// The params and their client, or the first problem the schema finds.
    func validated(_ params: Params?) -> Result<(Params, Client), InvalidParams> {
        guard let params else { return .failure(InvalidParams(problem: "at root: must be object")) }
        for (name, value) in [("minProtocol", params.minProtocol), ("maxProtocol", params.maxProtocol)] where value == nil {
            return .failure(InvalidParams(problem: "at root: must have required property '\(name)'"))
        }
        guard let client = params.client else {
            return .failure(InvalidParams(problem: "at root: must have required property 'client'"))
        }
        for (name, value) in [("id", client.id), ("version", client.version), ("platform", client.platform), ("mode", client.mode)]
        where value == nil {
            return .failure(InvalidParams(problem: "at /client: must have required property '\(name)'"))
        }
        guard Self.clientIds.contains(client.id?.lowercased() ?? "") else {
            return .failure(InvalidParams(problem: "at /client/id: must be equal to one of the allowed values"))
        }
        guard Self.clientModes.contains(client.mode?.lowercased() ?? "") else {
            return .failure(InvalidParams(problem: "at /client/mode: must be equal to one of the allowed values"))
        }
        return .success((params, client))
    }

    func invalidParams(_ id: String, _ problem: String) -> Reply {
        var reply = error(id, .invalidRequest, "invalid connect params: \(problem)", details: nil, close: 1008)
        reply.close = (1008, "invalid handshake")
        return reply
    }
}
