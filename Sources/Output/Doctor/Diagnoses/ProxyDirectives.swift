import Doctor

/// The directive that fixes each proxy failure, in each program's own words (nginx 1.22's
/// ngx_http_proxy_module, Caddy 2.6's reverse_proxy), for the intermediary doctor saw; for one it
/// cannot name, what to look for.
enum ProxyDirectives {
    /// OpenClaw's default gateway.port, where doctor knows no other.
    static let defaultPort = 18789

    static func passUpgrade(_ intermediary: Intermediary?) -> String {
        switch intermediary {
        case .nginx?:
            "in nginx's `location` for the Gateway: `proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; "
                + "proxy_set_header Connection \"upgrade\";`"
        case .caddy?:
            "Caddy's `reverse_proxy` passes WebSockets by itself: remove the `header_up` lines that drop or overwrite Upgrade or "
                + "Connection (`header_up -Upgrade`, `header_up Connection ...`)"
        case .cloudflare?: "turn WebSockets on for the zone (Cloudflare dashboard: Network, WebSockets)"
        case .tailscaleServe?: "Tailscale Serve passes WebSockets; check the route with `tailscale serve status`"
        case .other?, nil:
            "let the proxy pass WebSockets: HTTP/1.1 to the Gateway with the client's Upgrade and Connection headers (nginx: "
                + "`proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection \"upgrade\";`)"
        }
    }

    /// The upstream a proxy needs: https:// to a Gateway with gateway.tls.enabled, http:// to
    /// one without; both when doctor does not know which.
    static func upstream(_ intermediary: Intermediary?, gatewayTLS: Bool?, port: Int?) -> String {
        let port = port ?? defaultPort
        let tls = "for a Gateway with TLS (gateway.tls.enabled): " + upstreamDirective(intermediary, tls: true, port: port)
        let plain = "for a plain one: " + upstreamDirective(intermediary, tls: false, port: port)
        switch gatewayTLS {
        case true?: return "this host's Gateway speaks TLS (gateway.tls.enabled): " + upstreamDirective(intermediary, tls: true, port: port)
        case false?: return "this host's Gateway speaks plain HTTP: " + upstreamDirective(intermediary, tls: false, port: port)
        case nil: return "point the proxy at the Gateway with the scheme it speaks; \(tls); \(plain)"
        }
    }

    static func upstreamDirective(_ intermediary: Intermediary?, tls: Bool, port: Int) -> String {
        switch (intermediary, tls) {
        case (.caddy?, true): "`reverse_proxy https://127.0.0.1:\(port) { transport http { tls_insecure_skip_verify } }`"
        case (.caddy?, false): "`reverse_proxy 127.0.0.1:\(port)` (no https://, no tls transport)"
        case (.tailscaleServe?, true): "`tailscale serve --bg https+insecure://127.0.0.1:\(port)`"
        case (.tailscaleServe?, false): "`tailscale serve --bg http://127.0.0.1:\(port)`"
        case (_, true): "nginx `proxy_pass https://127.0.0.1:\(port);` (it does not verify the Gateway's self-signed certificate)"
        case (_, false): "nginx `proxy_pass http://127.0.0.1:\(port);`"
        }
    }

    /// How to keep an idle WebSocket open past OpenClaw's 30 s tick.
    static func idleTimeout(_ intermediary: Intermediary?) -> String {
        switch intermediary {
        case .nginx?:
            "in nginx's `location` for the Gateway: `proxy_read_timeout 3600s; proxy_send_timeout 3600s;` (the default, 60s, is enough "
                + "too: anything under 30s cuts every idle WebSocket)"
        case .caddy?:
            "in Caddy's `reverse_proxy`: remove `stream_timeout` or set it well above 30s; check `servers { timeouts { ... } }` and any "
                + "load balancer in front"
        case .cloudflare?: "Cloudflare keeps idle WebSockets 100 s; look for another proxy or load balancer between it and the Gateway"
        case .tailscaleServe?, .other?, nil:
            "raise the idle (read) timeout of whatever is in the path above 30 s, OpenClaw's tick (nginx: `proxy_read_timeout 3600s;`; "
                + "a load balancer: its idle timeout)"
        }
    }

    /// The proxy's address as the Gateway sees it: loopback when doctor reached the proxy there.
    static func trustedProxies(loopback: Bool) -> String {
        let address = loopback ? "127.0.0.1" : "<the proxy's address as the Gateway sees it>"
        return "add the proxy to gateway.trustedProxies in the Gateway's ~/.openclaw/openclaw.json "
            + "(`\"gateway\": { \"trustedProxies\": [\"\(address)\"] }`) and restart the Gateway"
    }

    /// How to make the proxy send the user header of auth mode trusted-proxy.
    static func userHeader(_ intermediary: Intermediary?) -> String {
        switch intermediary {
        case .caddy?:
            "Caddy: `header_up X-Forwarded-User {http.auth.user.id}` after its authentication (or the header "
                + "gateway.auth.trustedProxy.userHeader names)"
        default:
            "nginx: `proxy_set_header X-Forwarded-User $remote_user;` after its authentication (or the header "
                + "gateway.auth.trustedProxy.userHeader names)"
        }
    }
}
