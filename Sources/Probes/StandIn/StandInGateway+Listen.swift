extension StandInGateway {
    /// Listens like a Gateway: on `bind`, else on every address (dual-stack `::` where IPv6
    /// exists, `0.0.0.0` otherwise).
    package static func start(
        bind: String?, port: Int, identity: StandInIdentity?, connect: StandInConnect, observer: ConnectObserver?,
        gate: StandInUpgradeGate = StandInUpgradeGate(), refused: UpgradeObserver? = nil
    ) async throws -> StandInGateway {
        if let bind {
            return try await start(
                host: bind, port: port, identity: identity, connect: connect, observer: observer, gate: gate, refused: refused)
        }
        do {
            return try await start(
                host: "::", port: port, identity: identity, connect: connect, observer: observer, gate: gate, refused: refused)
        } catch {
            return try await start(
                host: "0.0.0.0", port: port, identity: identity, connect: connect, observer: observer, gate: gate, refused: refused)
        }
    }
}
