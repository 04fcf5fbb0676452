import DNSSD
import Probes

/// The causes found for each Gateway once it answers: TLS and its certificate, what answers on
/// its port, the connect handshake; then each failing layer no rule explained.
extension DiagnosisRules {
    static let session: [DiagnosisRule] = [
        tlsVersion, tlsAlert, pinChanged, tlsExpected, tlsNotAdvertised, anotherProgram, pairingRequired, gatewayAuth, protocolMismatch,
    ]

    static let tlsVersion = failure(.tlsVersion, .gwTLS, [.tlsVersion])
    static let tlsAlert = failure(.tlsAlert, .gwTLS, [.tlsAlert])

    /// A certificate other than the expected one; when it was met on the connection that would
    /// have carried the credentials, they were withheld (gw.connect says so, and is evidence too).
    static let pinChanged = DiagnosisRule.gateway(
        .pinChanged, explains: [.gwPin: [.pinMismatch, .advertisedMismatch], .gwConnect: [.withheldPinMismatch]]
    ) { result, _ in
        let pin = result.failing(.gwPin, [.pinMismatch, .advertisedMismatch])
        let withheld = result.failing(.gwConnect, [.withheldPinMismatch])
        guard pin != nil || withheld != nil else { return nil }
        let label = result.target.label
        let evidence = [pin.map { _ in CheckID.gwPin }, withheld.map { _ in CheckID.gwConnect }].compactMap { $0 }
        return Diagnosis(
            .pinChanged, .pinChanged(target: label, pin: pin, withheld: withheld), evidence: evidence.map { .init($0, target: label) })
    }

    static let tlsExpected = DiagnosisRule.gateway(.tlsExpected, explains: [.gwTLS: [.notTLS]]) { result, _ in
        guard result.target.tls, result.failing(.gwTLS, [.notTLS]) != nil else { return nil }
        let label = result.target.label
        return Diagnosis(
            .tlsExpected,
            .tlsExpected(
                target: label, byBeacon: result.beacon?.gateway.advertisesTLS == true, hostHeader: GatewayProbe.hostHeader(result.target)),
            evidence: [.init(.gwTLS, target: label)])
    }

    /// A TLS server probed as plain ws:// explains the failures of its later layers; whom it
    /// blames reads the beacon the probe was made from (a TXT that says TLS is never blamed).
    static let tlsNotAdvertised = DiagnosisRule.gateway(.tlsNotAdvertised, explains: [.gwHTTP: [.wantsTLS], .gwWebSocket: [.wantsTLS]]) {
        result, _ in
        guard !result.target.tls, let webSocket = result.check(.gwWebSocket), webSocket.reason == .wantsTLS else { return nil }
        let label = result.target.label
        let plain: PlainProbe
        if let beacon = result.beacon, !beacon.isManualOnly {
            plain = beacon.gateway.advertisesTLS ? .givenDespiteBeacon : .beaconWithoutTLS
        } else {
            plain = .given
        }
        return Diagnosis(
            .tlsNotAdvertised, .tlsNotAdvertised(target: label, plain: plain, webSocket: webSocket),
            evidence: [CheckID.gwHTTP, .gwWebSocket, .gwProtocol].map { .init($0, target: label) })
    }

    /// Another program on the Gateway's port: its HTTP answers without the Gateway's health body.
    static let anotherProgram = failure(
        .anotherProgram, .gwHTTP, [.unhealthy, .notGatewayHealth], also: [.gwWebSocket, .gwProtocol, .gwConnect])

    static let pairingRequired = failure(.pairingRequired, .gwConnect, [.pairingRequired])
    static let gatewayAuth = failure(.gatewayAuth, .gwConnect, [.tokenMismatch, .tokenMissing, .authRejected, .deviceAuthRejected])
    static let protocolMismatch = failure(.protocolMismatch, .gwConnect, [.protocolMismatch])

    /// Each layer that failed and that no rule above explained is its own cause; these are the
    /// failures no rule above is for.
    static let layers: [DiagnosisRule] = [
        .layer(.gwTLS, .tlsHandshake, explains: [.handshakeFailed, .handshakeTimedOut]),
        .layer(.gwCert, .certificate, explains: [.certificateExpired, .certificateNotYetValid]),
        .layer(.gwHTTP, .health, explains: [.healthFailed, .healthTimedOut, .wantsTLS]),
        .layer(.gwWebSocket, .webSocket, explains: [.upgradeRefused, .upgradeFailed, .upgradeTimedOut, .webSocketFailed]),
        .layer(
            .gwProtocol, .gatewayProtocol,
            explains: [.unexpectedFirstFrame, .frameTooLarge, .closedBeforeFirstFrame, .firstFrameTimedOut, .framesBroken]),
        .layer(
            .gwConnect, .connect,
            explains: [.closedByGateway, .connectRejected, .connectTimedOut, .unexpectedConnectAnswer, .connectFailed]),
    ]
}
