import Foundation

/// nginx and Caddy (the Debian packages) in front of a Gateway stand-in, each with a config file
/// of its own in the test bed's directory, run in the node namespace the tests run in and
/// stopped by PID: never the system services, never the system's config. Each listens on
/// 127.0.0.1 unless told an address of the node namespace.
package struct ReverseProxy: Sendable {
    package let process: ChildProcess
    package let port: Int
    /// The config file it runs with (printed when a test fails).
    package let config: String

    package func stop() async {
        _ = try? await process.stop()
    }
}

extension TestBed {
    /// nginx 1.22 on `address`:`port`, passing everything to `upstream` (`http://127.0.0.1:N`,
    /// `https://...`) with `directives` in its `location /`; TLS with `certificate` when given.
    package func startNginx(
        port: Int, upstream: String, directives: [String], certificate: TestCertificate? = nil, address: String = "127.0.0.1"
    ) async throws -> ReverseProxy {
        let directory = "\(self.directory)/nginx-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: "\(directory)/temp", withIntermediateDirectories: true)
        let temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "\($0)_temp_path \(directory)/temp/\($0);" }
        let tls = certificate.map { "ssl_certificate \($0.certificate); ssl_certificate_key \($0.key); ssl_protocols TLSv1.3;" } ?? ""
        let config = """
            master_process off;
            daemon off;
            pid \(directory)/nginx.pid;
            error_log stderr notice;
            events { worker_connections 64; }
            http {
              access_log off;
              \(temps.joined(separator: "\n  "))
              server {
                listen \(address):\(port)\(certificate == nil ? "" : " ssl");
                \(tls)
                location / {
                  proxy_pass \(upstream);
                  \(directives.joined(separator: "\n      "))
                }
              }
            }

            """
        try config.write(toFile: "\(directory)/nginx.conf", atomically: true, encoding: .utf8)
        let process = try spawn(on: .node, ["nginx", "-p", directory, "-c", "\(directory)/nginx.conf"])
        do {
            // Logged after the listening sockets are open (ngx_init_cycle opens them first).
            try await process.waitForOutput("using the \"epoll\" event method", timeout: .seconds(20))
        } catch {
            _ = try? await process.stop()
            throw Missing(description: "nginx did not start: \(error)\n\(process.outputTail)\n\(config)")
        }
        return ReverseProxy(process: process, port: port, config: config)
    }

    /// Caddy 2.6 on `address`:`port` with `reverse_proxy upstream { directives }`; with
    /// `internalTLS` its own local CA issues the site's certificate (`tls internal`, never
    /// installed into the system's trust store: skip_install_trust).
    package func startCaddy(
        port: Int, upstream: String, directives: [String], internalTLS: Bool, address: String = "127.0.0.1"
    ) async throws -> ReverseProxy {
        let directory = "\(self.directory)/caddy-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = """
            {
            \tadmin off
            \tstorage file_system \(directory)/storage
            \tskip_install_trust
            \tauto_https disable_redirects
            \t\(internalTLS ? "default_sni 127.0.0.1" : "")
            }
            \(internalTLS ? "https" : "http")://\(address):\(port) {
            \t\(internalTLS ? "tls internal" : "")
            \treverse_proxy \(upstream) {
            \t\t\(directives.joined(separator: "\n\t\t"))
            \t}
            }

            """
        try config.write(toFile: "\(directory)/Caddyfile", atomically: true, encoding: .utf8)
        let process = try spawn(
            on: .node, ["caddy", "run", "--config", "\(directory)/Caddyfile", "--adapter", "caddyfile"],
            environment: ["HOME": directory, "XDG_DATA_HOME": directory, "XDG_CONFIG_HOME": directory])
        do {
            // Logged once its servers listen; its own CA issues the site's certificate after that.
            try await process.waitForOutput("serving initial configuration", timeout: .seconds(30))
            if internalTLS { try await process.waitForOutput("certificate obtained successfully", timeout: .seconds(30)) }
        } catch {
            _ = try? await process.stop()
            throw Missing(description: "caddy did not start: \(error)\n\(process.outputTail)\n\(config)")
        }
        return ReverseProxy(process: process, port: port, config: config)
    }
}
