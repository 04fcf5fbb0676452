import DNSSD

/// The words of OpenClaw's connect errors, read once into cases that checks match on. Each
/// enum keeps an unknown word as `.other` with its wire text, for display. Names follow
/// OpenClaw: ErrorCodes (packages/gateway-protocol/src/gateway-error-details.ts),
/// ConnectErrorDetailCodes and CONNECT_RECOVERY_NEXT_STEP_VALUES
/// (packages/gateway-protocol/src/connect-error-details.ts).
extension ConnectError {
    /// The ErrorShape's `code`.
    package enum Code: KnownWord {
        case notLinked, notPaired, invalidRequest, forbidden, unavailable
        case other(String)

        package static let spellings: [(Code, String)] = [
            (.notLinked, "NOT_LINKED"), (.notPaired, "NOT_PAIRED"), (.invalidRequest, "INVALID_REQUEST"), (.forbidden, "FORBIDDEN"),
            (.unavailable, "UNAVAILABLE"),
        ]

        package var unknownWord: String? {
            if case .other(let word) = self { return word }
            return nil
        }
    }

    /// `details.code`: the reason a connect was refused.
    package enum DetailCode: KnownWord {
        case deviceIdentityRequired, pairingRequired, protocolMismatch, authTokenMissing, authTokenMismatch
        /// Another AUTH_* code (AUTH_RATE_LIMITED, AUTH_PASSWORD_MISMATCH, ...): the credentials were refused.
        case auth(String)
        /// A DEVICE_AUTH_* code (DEVICE_AUTH_SIGNATURE_EXPIRED, ...): the device proof was refused.
        case deviceAuth(String)
        case other(String)
        /// CONTROL_UI_ORIGIN_NOT_ALLOWED: the upgrade's Origin is not in gateway.controlUi.allowedOrigins.
        case originNotAllowed
        /// AUTH_RATE_LIMITED: too many failed attempts from this address (gateway.auth.rateLimit).
        case authRateLimited
        /// PAIRING_REJECTED and PAIRING_EXPIRED: an operator rejected the pending request, or it
        /// expired (5 minutes after the device's last try); told by device.pair.resolved.
        case pairingRejected, pairingExpired
        /// OPERATOR_ACCESS_DENIED: authenticated, but the operator access policy grants nothing.
        case operatorAccessDenied
        /// AUTH_TAILSCALE_*: Tailscale Serve's identity missing, its proxy headers missing, `tailscale
        /// whois` failed, or the identity is not the one the headers name.
        case tailscaleIdentityMissing, tailscaleProxyMissing, tailscaleWhoisFailed, tailscaleIdentityMismatch
        /// AUTH_IDENTITY_HEADER_REQUIRED (trusted_proxy_missing_header_*) and AUTH_VERIFIED_USER_REQUIRED.
        case identityHeaderRequired, verifiedUserRequired

        package static let spellings: [(DetailCode, String)] = [
            (.deviceIdentityRequired, "DEVICE_IDENTITY_REQUIRED"), (.pairingRequired, "PAIRING_REQUIRED"),
            (.protocolMismatch, "PROTOCOL_MISMATCH"), (.authTokenMissing, "AUTH_TOKEN_MISSING"),
            (.authTokenMismatch, "AUTH_TOKEN_MISMATCH"),
            (.originNotAllowed, "CONTROL_UI_ORIGIN_NOT_ALLOWED"), (.authRateLimited, "AUTH_RATE_LIMITED"),
            (.pairingRejected, "PAIRING_REJECTED"), (.pairingExpired, "PAIRING_EXPIRED"),
            (.operatorAccessDenied, "OPERATOR_ACCESS_DENIED"),
            (.tailscaleIdentityMissing, "AUTH_TAILSCALE_IDENTITY_MISSING"), (.tailscaleProxyMissing, "AUTH_TAILSCALE_PROXY_MISSING"),
            (.tailscaleWhoisFailed, "AUTH_TAILSCALE_WHOIS_FAILED"), (.tailscaleIdentityMismatch, "AUTH_TAILSCALE_IDENTITY_MISMATCH"),
            (.identityHeaderRequired, "AUTH_IDENTITY_HEADER_REQUIRED"), (.verifiedUserRequired, "AUTH_VERIFIED_USER_REQUIRED"),
        ]

        /// The four AUTH_TAILSCALE_* codes.
        package var isTailscale: Bool {
            [.tailscaleIdentityMissing, .tailscaleProxyMissing, .tailscaleWhoisFailed, .tailscaleIdentityMismatch].contains(self)
        }

        /// OpenClaw names its codes by family (resolveAuthConnectErrorDetailCode gives AUTH_*,
        /// resolveDeviceAuthConnectErrorDetailCode DEVICE_AUTH_*); the prefix is the family.
        package init(word: String) {
            if let known = Self.spellings.first(where: { $0.1 == word }) {
                self = known.0
            } else if word.hasPrefix("DEVICE_AUTH_") {
                self = .deviceAuth(word)
            } else if word.hasPrefix("AUTH_") {
                self = .auth(word)
            } else {
                self = .other(word)
            }
        }

        package var unknownWord: String? {
            switch self {
            case .auth(let word), .deviceAuth(let word), .other(let word): word
            default: nil
            }
        }
    }

    /// `details.recommendedNextStep`: what the Gateway suggests the client do.
    package enum NextStep: KnownWord {
        case retryWithDeviceToken, updateAuthConfiguration, updateAuthCredentials, waitThenRetry, reviewAuthConfiguration
        case other(String)

        package static let spellings: [(NextStep, String)] = [
            (.retryWithDeviceToken, "retry_with_device_token"), (.updateAuthConfiguration, "update_auth_configuration"),
            (.updateAuthCredentials, "update_auth_credentials"), (.waitThenRetry, "wait_then_retry"),
            (.reviewAuthConfiguration, "review_auth_configuration"),
        ]

        package var unknownWord: String? {
            if case .other(let word) = self { return word }
            return nil
        }
    }

    /// `details.reason` of PAIRING_REQUIRED (PAIRING_CONNECT_REASON_METADATA in
    /// connect-error-details.ts; set by connect-device-pairing.ts and connect-existing-device.ts).
    package enum PairingReason: KnownWord {
        /// The Gateway has no approved device with this public key.
        case notPaired
        /// Paired, but not for the role asked for (a node asking as `node` when approved as operator).
        case roleUpgrade
        /// Paired, but asking for scopes beyond the approved ones.
        case scopeUpgrade
        /// Paired, but the platform or device family differs from the approved record.
        case metadataUpgrade
        case other(String)

        package static let spellings: [(PairingReason, String)] = [
            (.notPaired, "not-paired"), (.roleUpgrade, "role-upgrade"), (.scopeUpgrade, "scope-upgrade"),
            (.metadataUpgrade, "metadata-upgrade"),
        ]

        package var unknownWord: String? {
            if case .other(let word) = self { return word }
            return nil
        }
    }
}
