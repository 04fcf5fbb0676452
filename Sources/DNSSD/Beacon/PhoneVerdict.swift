/// What an OpenClaw phone node would do with one discovered beacon on a first connect (no pin
/// stored on the phone yet), read in OpenClaw's apps:
/// - Android: apps/android/.../node/ConnectionManager.kt (resolveTlsParamsForEndpoint: a TLS
///   hint, gatewayTls or a gatewayTlsSha256, requires wss:// and never takes the TXT's
///   fingerprint as the pin; without one, ws:// only where GatewayHostSecurity.kt's
///   isLocalCleartextGatewayHost allows: loopback, `.local`, 10/8, 172.16/12, 192.168/16,
///   169.254/16, fc00::/7) and apps/android/.../gateway/GatewayTls.kt (2026.7, openclaw#110976:
///   a public DNS name, isGatewayTlsSystemTrustCandidate, is tried with Android's CA store and
///   host name check first; a certificate that fails it, and every other host, is shown to the
///   user to trust, decideGatewayTlsTrust).
/// - iOS: apps/ios/Sources/Gateway/GatewayConnectionController.swift (connectDiscoveredGateway,
///   discoveredGatewayConnectionAvailability): TLS or a stored pin, else "Discovered gateway is
///   missing TLS and no trusted fingerprint is stored."; with TLS the user is shown the
///   fingerprint to trust.
package enum PhoneVerdict: Sendable, Hashable {
    /// wss:// to a public DNS name: accepted without a question when a public CA issued its
    /// certificate for that name (Android's platform trust), else after the user trusts the
    /// fingerprint the phone shows.
    case platformTrust(host: String)
    /// wss://, after the user trusts the certificate's fingerprint the phone shows.
    case tlsAfterTrust
    /// ws:// in clear text to this host (a LAN or `.local` one).
    case plainText(host: String)
    /// The phone will not connect.
    case refused(PhoneRefusal)

    /// The word browse's and doctor's JSON use (clawnet.browse.v1 `phones`).
    package var name: String {
        switch self {
        case .platformTrust: "platformTrust"
        case .tlsAfterTrust: "trustFingerprint"
        case .plainText: "plainText"
        case .refused: "refuse"
        }
    }

    package var isRefused: Bool {
        if case .refused = self { return true }
        return false
    }
}

package enum PhoneRefusal: Sendable, Hashable {
    /// iOS: "Discovered gateway is missing TLS and no trusted fingerprint is stored."
    case iosNeedsTLS
    /// Android: clear text only to loopback, `.local`, 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7.
    case androidCleartextHost(String)

    /// The word of the JSON's `reason`.
    package var name: String {
        switch self {
        case .iosNeedsTLS: "tlsRequired"
        case .androidCleartextHost: "cleartextHostNotAllowed"
        }
    }
}

/// Both phones' verdicts on one beacon.
package struct PhoneVerdicts: Sendable, Hashable {
    package let android: PhoneVerdict
    package let ios: PhoneVerdict
    /// The host the phone dials: over mDNS the TXT's lanHost (else the SRV host), over wide-area
    /// DNS-SD the SRV host (lanHost is for the LAN only), else the first address.
    package let host: String

    package init(_ beacon: GatewayBeacon) {
        let info = beacon.reading.info
        let tls = info.tls || info.tlsSha256 != nil
        let host = Self.dialHost(beacon)
        self.host = host
        if tls {
            android = Self.systemTrustCandidate(host) ? .platformTrust(host: host) : .tlsAfterTrust
        } else {
            android = Self.cleartextAllowed(host) ? .plainText(host: host) : .refused(.androidCleartextHost(host))
        }
        ios = tls ? .tlsAfterTrust : .refused(.iosNeedsTLS)
    }

    package var refused: Bool { android.isRefused || ios.isRefused }

    static func dialHost(_ beacon: GatewayBeacon) -> String {
        let lanHost = beacon.sources.contains(.mdns) ? beacon.reading.info.lanHost.map(BeaconHost.init) : nil
        return (lanHost ?? beacon.host)?.key ?? beacon.addresses.first?.description.lowercased() ?? ""
    }

    /// isLocalCleartextGatewayHost: loopback, `.local`, or a private or link-local address
    /// (not the tailnet's 100.64.0.0/10, not a DNS name outside `.local`).
    static func cleartextAllowed(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".local") { return true }
        guard let address = IPAddress(host) else { return false }
        return address.isPrivate && !(address.family == .v4 && address.isTailscale)
    }

    /// isGatewayTlsSystemTrustCandidate: a DNS name of two labels or more, each a host label of
    /// lower-case letters, digits and inner hyphens, not all digits, outside `.local`.
    static func systemTrustCandidate(_ host: String) -> Bool {
        guard IPAddress(host) == nil, host.count <= 253, !host.hasSuffix(".local") else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, !labels.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return false }
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { ("a"..."z").contains($0) || $0.isASCIIDigit || $0 == "-" }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension GatewayBeacon {
    /// What OpenClaw's phones would do with this beacon (PhoneVerdicts).
    package var phones: PhoneVerdicts { PhoneVerdicts(self) }
}
