import Probes
import Testing

/// --origin goes into a request header as it is: only an http(s) origin of visible ASCII passes.
@Suite("browser origins for --origin")
struct BrowserOriginTests {
    @Test(
        "an origin is scheme://host[:port]; a header break, a path, another scheme or credentials are refused",
        arguments: [
            ("https://gw.example", true), ("http://127.0.0.1:18789", true), ("https://[fd7a:115c:a1e0::5]:443", true),
            ("https://gw.example\r\nX-Forwarded-User: admin", false), ("https://gw.example/ui", false), ("ftp://gw.example", false),
            ("https://user@gw.example", false), ("https://", false), ("https://gw example", false),
            ("https://" + String(repeating: "a", count: 300), false),
        ])
    func validates(_ text: String, _ valid: Bool) {
        #expect((BrowserOrigin(text) != nil) == valid, "\(text.debugDescription)")
    }
}
