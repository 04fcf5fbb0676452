/// Why a check came out as it did. One code per distinct outcome that a rule, a relaxation or
/// a test can tell apart; the output says the same in words.
package enum CheckReason: String, Sendable, Hashable, CaseIterable {
    /// The check passed.
    case ok
    /// The check did not run: its phase was not asked for, or it does not apply.
    case notRun
    /// Skipped, because the layer below gave nothing to build on (the table collapses a run of
    /// skips that share one of these).
    case needsBus, needsDaemon, needsAddress, needsTCP, needsTLS, noCertificate, needsWebSocket, needsChallenge

    // openclaw.config
    case configMissing, configInvalid, configUnreadable, bindLoopback, remoteURLMissing
    // openclaw.advertising (the switch that is off is in its evidence)
    case notGatewayHost, advertisingOff, advertisingInWSL
    // mdns.dbus, mdns.daemon, mdns.interfaces, mdns.port5353, mdns.nss
    case busMissing, daemonUnavailable, daemonNotInstalled, noMulticastInterface, otherResponders, nsswitchMissing, nssMdnsMissing,
        nssModuleMissing
    // mdns.browse
    case localNotBrowsed, hostAnswersWithoutBeacon, hostSilent, nothingInLocal
    // dns.resolver, dns.widearea, tailscale.interface
    case resolvConfMissing, resolvConfUnreadable, noDomain, splitDNS, domainError, domainEmpty, notOnTailnet

    // gw.dns
    case noAddress, unknownTarget, nameNotFound, localNameWithoutNSS, magicDNSNotApplied
    // gw.dns of a `.local` name: resolved by avahi-daemon only (a warning), or answered by no host
    case localNameOnlyByAvahi, localNameUnanswered
    // gw.tls of the default 127.0.0.1 target: it speaks TLS though no config says so (a warning)
    case tlsNotConfigured
    // gw.tcp
    case nothingListensLocally, refused, timedOut, unreachable, partlyUnreachable
    // gw.tcp: accepted, then reset at once (a server out of connections, or limiting this address)
    case connectionReset
    // gw.tcp not tried: this machine had no descriptor or socket buffer left (EMFILE, ENOBUFS)
    case localShortage
    // gw.tcp of the default 127.0.0.1 target when Gateways were found elsewhere: nothing runs
    // here (a node), or this machine's Gateway is down (it has an OpenClaw config)
    case noLocalGateway, localGatewayDown
    // gw.tls
    case plainGateway, tlsVersion, notTLS, tlsAlert, handshakeFailed, handshakeTimedOut
    // gw.pin
    case pinMismatch, advertisedMismatch, advertisedStale
    // gw.pin: a record of the Gateway (another path's) advertises a certificate before the one served
    case recordStale
    // gw.cert
    case certificateUnreadable, certificateExpired, certificateNotYetValid, certificateExpiresSoon
    // gw.http
    case notReady, unhealthy, notGatewayHealth, healthFailed, healthTimedOut
    // gw.websocket (and gw.http): a TLS server asked in plain text
    case wantsTLS
    // gw.websocket
    case upgradeRefused, upgradeFailed, upgradeTimedOut, webSocketFailed
    // gw.protocol
    case unexpectedFirstFrame, frameTooLarge, closedBeforeFirstFrame, firstFrameTimedOut, framesBroken
    // gw.connect
    case credentialsRequired, pairingRequired, tokenMismatch, tokenMissing, authRejected, deviceAuthRejected, protocolMismatch
    case gatewayStarting, closedByGateway, connectRejected, connectTimedOut, unexpectedConnectAnswer, connectFailed
    // gw.connect: the credentials were not sent (CredentialPolicy)
    case withheldPinMismatch, withheldUnverified, withheldPlainText, withheldLocalListener

    // gw.pin: pinned to a certificate a CA issued (renewed on the CA's schedule)
    case pinOnIssuedCertificate
    // gw.websocket: the upgrade worked, and something in the path cut the idle WebSocket
    case closedWhenIdle
    // gw.connect: the Gateway refused what a proxy in front of it forwarded (the browser's
    // Origin; a proxy outside gateway.trustedProxies, or one that sent no user)
    case originNotAllowed, proxyNotTrusted
    // gw.connect: behind Tailscale Serve, the Gateway refused the Tailscale identity (details.authReason tailscale_*)
    case tailscaleIdentityRefused
    // tailscale.interface: gateway.tailscale.mode serve, and Serve has no route to the Gateway's port
    case serveRouteMissing
    // openclaw.config on a Gateway host: systemd keeps restarting the Gateway's unit
    case restartLoop
    // gw.websocket, OpenClaw 2's refusals before the WebSocket: 403 proxy_attribution_required, an
    // identity-aware proxy's 30x/401/403 with a Location, 429 rate limited; 503 while the Gateway
    // restarts or drains (a warning)
    case proxyAttributionRequired, identityProxy, upgradeRateLimited, upgradeUnavailable
    // openclaw.config on a Gateway host: gateway.bind is a host alias (0.0.0.0, localhost, ::), which 2026.9 refuses
    case bindHostAlias
    // openclaw.config on a Gateway host: a tailnet or custom bind, and nothing answers on 127.0.0.1:PORT
    case loopbackListenerMissing
    // gw.connect: hello-ok on the previous protocol (a Gateway older than current clients)
    case olderProtocol
    // gw.connect, OpenClaw 2: a Gateway draining for a restart, a suspension or a close (or
    // closing 1012/1013), still so after doctor asked again; too many failed attempts; a frame
    // over 64 KiB before login (close 1009); the operator's pairing decision; an operator
    // access policy that grants nothing; a policy that wants a verified user
    case gatewayRestarting, rateLimited, frameTooLargeBeforeLogin, pairingRejected, pairingExpired, operatorAccessDenied
    case verifiedUserRequired
    // gw.websocket: the Gateway refuses the upgrade for the connections this address already
    // holds that have not logged in (HTTP 503 "Too many unauthenticated sockets")
    case unauthenticatedLimit
    // openclaw.identity (the file that breaks, and its reader, are in its evidence)
    case notNode, identityInvalid, identityUnreadable, identityElsewhere, identityMissing, identityExposed, identityNotRead
    // discovery.gateways (what disagrees, and where, is in its evidence)
    case noGatewaysSeen, txtDisagreesWithSRV, hostNameCollision, advertisedTwice, multipleGateways
    // discovery.phones (which phone, which beacon and why are in its evidence)
    case phoneRefuses
}

extension CheckReason {
    /// A skip for a reason that holds for the layers above too (a phase that was not run, mDNS
    /// not checked), rather than for a layer that gave nothing.
    var passesOn: Bool { self == .notRun || self == .localNotBrowsed }
}
