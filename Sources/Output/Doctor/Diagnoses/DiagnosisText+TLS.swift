import Doctor

/// The words of a Gateway's TLS causes: a certificate other than the expected one, plain text
/// where TLS was expected, TLS where plain text was.
extension DiagnosisText {
    static func pinChanged(_ target: String, pin: Check?, withheld: Check?) -> DiagnosisText {
        guard let pin else {
            guard let withheld else {
                return DiagnosisText(cause: "\(target) presents another certificate", fix: "check the certificate on the Gateway host")
            }
            return DiagnosisText(
                cause:
                    "\(target) presented the pinned certificate on one connection and another one on the next: something intercepts some "
                    + "connections (\(CheckText(withheld).message))",
                fix: fix(of: withheld))
        }
        let cause =
            pin.reason == .advertisedMismatch
            ? "\(target) presents a certificate other than the one its beacon advertises: the certificate changed since the beacon's "
                + "fingerprint was published (the certificate was rotated and the beacon is stale) or a TLS-terminating proxy sits in the "
                + "path"
            : "\(target) presents a certificate other than the pinned one: \(CheckText(pin).message)"
        return DiagnosisText(cause: cause, fix: fix(of: pin))
    }

    static func tlsExpected(_ target: String, byBeacon: Bool, hostHeader: String) -> DiagnosisText {
        guard byBeacon else {
            return DiagnosisText(
                cause: "\(target) is expected to speak TLS (wss:// or gateway.tls.enabled in the config asks for it), but it answers in "
                    + "plain text",
                fix:
                    "connect with ws://\(hostHeader) (the Gateway serves plain WebSockets), or turn TLS on at the Gateway "
                    + "(gateway.tls.enabled)"
            )
        }
        return DiagnosisText(
            cause: "\(target) is expected to speak TLS (its beacon says gatewayTls=1), but it answers in plain text: nodes that trust the "
                + "beacon use wss:// and fail",
            fix:
                "on the Gateway host turn TLS on (gateway.tls.enabled true in ~/.openclaw/openclaw.json) and restart it, or stop "
                + "advertising gatewayTls=1")
    }

    static func tlsNotAdvertised(_ target: String, _ plain: PlainProbe, _ webSocket: Check) -> DiagnosisText {
        switch plain {
        case .beaconWithoutTLS:
            return DiagnosisText(
                cause: "\(target) speaks TLS, but its beacon has no gatewayTls=1: nodes that trust the beacon connect with ws:// and fail",
                fix: fix(of: webSocket))
        case .given:
            return DiagnosisText(
                cause: "\(target) speaks TLS, but was given as plain ws:// (no wss:// in the URL, and gateway.tls is off in the config): "
                    + "a node told ws:// cannot connect",
                fix: fix(of: webSocket))
        case .givenDespiteBeacon:
            var authority = target
            if case .webSocket(let evidence) = webSocket.evidence { authority = evidence.hostHeader }
            return DiagnosisText(
                cause: "\(target) speaks TLS, as its beacon says (gatewayTls), but was given as plain ws://: a node told ws:// cannot "
                    + "connect",
                fix: "connect with wss:// (`clawnet doctor wss://\(authority)`), "
                    + "or give the host without a scheme: it then takes the beacon's")
        }
    }
}
