import FoundationEssentials

/// What Tailscale Serve does on this machine, from `tailscale serve status --json` (ipn.ServeConfig
/// in tailscale/tailscale ipn/serve.go: `Web` maps `host:port` to its `Handlers`, each mount
/// point to a `Proxy` target). tailscaled does not run in the test bed: tests give recorded
/// answers.
package struct TailscaleServeStatus: Sendable, Equatable {
    /// One mount point: `https://host:port/path` proxied to `target`.
    package struct Route: Sendable, Equatable {
        package let site: String
        package let path: String
        package let target: String
    }

    package let routes: [Route]

    /// The most routes read: a Serve config has a handful.
    static let routeLimit = 256

    package init(routes: [Route]) {
        self.routes = routes
    }

    /// Reads the JSON; an empty object (`{}`, no Serve config) gives no routes; text that is not
    /// a Serve config gives nil.
    package init?(json: [UInt8]) {
        // ipn.ServeConfig's field names are Go's, capitalised.
        struct Config: Decodable {
            struct Site: Decodable {
                struct Handler: Decodable {
                    let proxy: String?
                    enum CodingKeys: String, CodingKey { case proxy = "Proxy" }
                }
                let handlers: [String: Handler]?
                enum CodingKeys: String, CodingKey { case handlers = "Handlers" }
            }
            let web: [String: Site]?
            enum CodingKeys: String, CodingKey { case web = "Web" }
        }
        guard let config = try? JSONDecoder().decode(Config.self, from: Data(json)) else { return nil }
        var routes: [Route] = []
        for (site, web) in (config.web ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (path, handler) in (web.handlers ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let target = handler.proxy, routes.count < Self.routeLimit else { continue }
                routes.append(Route(site: site, path: path, target: target))
            }
        }
        self.routes = routes
    }

    /// The route at `/` that proxies to this machine's `port` (`http://127.0.0.1:18789`,
    /// `https+insecure://localhost:18789`, or the bare port Serve accepts).
    package func route(toPort port: Int) -> Route? {
        routes.first { route in
            route.path == "/"
                && (route.target == String(port) || route.target.hasSuffix("127.0.0.1:\(port)")
                    || route.target.hasSuffix("localhost:\(port)"))
        }
    }
}
