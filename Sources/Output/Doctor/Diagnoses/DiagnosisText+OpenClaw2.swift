import Doctor

/// The causes OpenClaw 2 added at the connect level, in words (DiagnosisRules+OpenClaw2).
extension DiagnosisText {
    static func openClaw2Cause(_ id: DiagnosisID, target: String, message: String) -> String? {
        switch id {
        case .gatewayRestarting:
            "\(target) is a running Gateway going away (a restart, a suspension or a close) after doctor "
                + "waited as OpenClaw's clients do: \(message)"
        case .authRateLimited: "\(target) locks this address out after too many failed authentication attempts: \(message)"
        case .frameTooLarge: "\(target) closed the connection before login: \(message)"
        case .pairingRejected: "\(target)'s operator rejected this device's pairing request: \(message)"
        case .pairingExpired: "\(target)'s pairing request for this device expired before anyone approved it: \(message)"
        case .operatorAccessDenied: "\(target) authenticates this client, but grants it no operator access: \(message)"
        case .verifiedUserRequired: "\(target) wants a verified user identity for this kind of login: \(message)"
        case .unauthenticatedLimit: "\(target) refuses new WebSockets from this address: \(message)"
        default: nil
        }
    }
}
