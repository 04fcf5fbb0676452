import DNSSD
import Doctor
import Foundation
import Output
import TestSupport
import Testing
import Watch

/// watch's JSON Lines in doctor's and browse's words (clawnet.watch-event.v2), without the test
/// bed: the fields each event carries, and the text line's words.
@Suite("watch's events say what doctor and browse say")
struct WatchEventLineTests {
    static let named = WatchedGateway(id: "_openclaw-gw._tcp|local.|studio", label: "Studio", instance: "Studio")
    static let reached = WatchedGateway(
        id: "manual|10.0.0.1:18789", label: "wss://10.0.0.1:18789", instance: "10.0.0.1:18789", url: "wss://10.0.0.1:18789")

    func json(_ gateway: WatchedGateway, _ change: WatchEvent.Change) throws -> [String: Any] {
        let line = try WatchEventLine(WatchEvent(gateway, change, date: Date(timeIntervalSince1970: 1_800_000_000)))
            .json(JSONOutput.LineEncoder())
        return try jsonObject(line)
    }

    @Test("down: the failing check's id, doctor's diagnosis id, and its cause and fix in words when a rule named one")
    func down() throws {
        let bare = try json(Self.reached, .down(check: .gwTCP, diagnosis: .checkFailed))
        #expect(bare["check"] as? String == "gw.tcp" && bare["diagnosis"] as? String == "check-failed", "\(bare)")
        #expect(bare["cause"] == nil && bare["fix"] == nil && bare["layer"] == nil && bare["message"] == nil, "\(bare)")
        let diagnosis = Diagnosis(.unknownTarget, .check(Check(.gwDNS, .fail, .ok), target: "studio"), evidence: [])
        let named = try json(Self.reached, .down(check: .gwDNS, diagnosis: .unknownTarget, finding: diagnosis))
        #expect(named["check"] as? String == "gw.dns" && named["diagnosis"] as? String == "unknown-target", "\(named)")
        #expect((named["cause"] as? String)?.hasPrefix("studio is neither") == true, "doctor's sentence: \(named)")
        #expect((named["fix"] as? String)?.isEmpty == false, "\(named)")
    }

    @Test("appeared: the source as browse names it; the Gateway's id, target, instance and url (null when none)")
    func appeared() throws {
        let event = try json(Self.named, .appeared(.mdns))
        #expect(event["source"] as? String == "mdns" && event["path"] == nil, "\(event)")
        let gateway = try #require(event["gateway"] as? [String: Any], "\(event)")
        #expect(gateway["target"] as? String == "Studio" && gateway["instance"] as? String == "Studio", "\(gateway)")
        #expect(gateway["url"] is NSNull, "no URL is null, as in browse: \(gateway)")
        let reached = try #require(try json(Self.reached, .up)["gateway"] as? [String: Any])
        #expect(reached["url"] as? String == "wss://10.0.0.1:18789" && reached["target"] as? String == "wss://10.0.0.1:18789")
    }

    @Test("the instance as browse carries it: exact text, and the presentation form of a name that is not UTF-8")
    func exactInstance() throws {
        let name = try InstanceName(presentation: "Bell\\007 and \\255")
        let gateway = WatchedGateway(id: "x", label: name.displayName, instance: name.displayName, exact: name)
        let exact = try #require(try json(gateway, .up)["gateway"] as? [String: Any])
        #expect(exact["instance"] as? String == "Bell\u{07} and \u{FFFD}", "\(exact)")
        #expect(exact["instancePresentation"] as? String == name.presentation, "\(exact)")
        let plain = try #require(try json(Self.named, .up)["gateway"] as? [String: Any])
        #expect(plain["instancePresentation"] == nil, "only for a name that is not UTF-8: \(plain)")
    }

    @Test("the text line names the source, not the path")
    func textLine() {
        let line = WatchEventLine(WatchEvent(Self.named, .disappeared(.unicast), date: Date(timeIntervalSince1970: 0)))
        #expect(line.text(Terminal(color: false)).hasSuffix("disappeared  Studio  source unicast"), "\(line.text(Terminal(color: false)))")
    }

    @Test("the text line names a Gateway by its URL and its instance name, made safe; a manual target's once")
    func textLineNamesTheInstance() {
        let hostile = WatchedGateway(
            id: "_openclaw-gw._tcp|local.|studio", label: "wss://gw.local:18789", instance: "Studio\u{1B}[2J (OpenClaw)",
            url: "wss://gw.local:18789")
        let text = WatchEventLine(WatchEvent(hostile, .up, date: Date(timeIntervalSince1970: 0))).text(Terminal(color: false))
        #expect(text.hasSuffix("up  wss://gw.local:18789 \"Studio\\027[2J (OpenClaw)\""), "\(text)")
        let manual = WatchEventLine(WatchEvent(Self.reached, .up, date: Date(timeIntervalSince1970: 0))).text(Terminal(color: false))
        #expect(manual.hasSuffix("up  wss://10.0.0.1:18789"), "\(manual)")
    }

    @Test("an instance name holding quotes and backslashes reads as one quoted token: both escaped with a backslash")
    func textLineEscapesQuotes() {
        let quoting = WatchedGateway(
            id: "_openclaw-gw._tcp|local.|q", label: "wss://gw.local:18789", instance: #"Say "hi" \ there\007"#, url: "wss://gw.local:18789"
        )
        let text = WatchEventLine(WatchEvent(quoting, .up, date: Date(timeIntervalSince1970: 0))).text(Terminal(color: false))
        #expect(text.hasSuffix(#"up  wss://gw.local:18789 "Say \"hi\" \\ there\\007""#), "\(text)")
    }

    @Test("a Gateway no path lists: disappeared says until when it is probed (forgetAt), forgotten after how long (afterMs)")
    func keptAndForgotten() throws {
        let until = Date(timeIntervalSince1970: 1_800_086_400)
        let kept = try json(Self.named, .disappeared(.mdns, forgetAt: until))
        #expect(kept["source"] as? String == "mdns" && kept["forgetAt"] as? String == "2027-01-16T08:00:00Z", "\(kept)")
        #expect(try json(Self.named, .disappeared(.mdns))["forgetAt"] == nil, "another path still lists it: no forgetAt")
        let forgotten = try json(Self.named, .forgotten(after: .seconds(86_400)))
        #expect(forgotten["event"] as? String == "forgotten" && forgotten["afterMs"] as? Int == 86_400_000, "\(forgotten)")
        let text = WatchEventLine(WatchEvent(Self.named, .disappeared(.mdns, forgetAt: until), date: until)).text(Terminal(color: false))
        #expect(text.hasSuffix("source mdns; no path lists it: probed until 2027-01-16T08:00:00Z, unless one lists it again"), "\(text)")
        let gone = WatchEventLine(WatchEvent(Self.named, .forgotten(after: .seconds(86_400)), date: until)).text(Terminal(color: false))
        #expect(gone.hasSuffix("forgotten  Studio  no path listed it for 86400s: no longer watched"), "\(gone)")
    }

    @Test("certificateChanged: both fingerprints, pinned, and beaconAgrees when a beacon advertises a fingerprint (absent otherwise)")
    func certificateChanged() throws {
        let (from, to) = (
            TLSFingerprint(digest: [UInt8](repeating: 1, count: 32)), TLSFingerprint(digest: [UInt8](repeating: 2, count: 32))
        )
        let agreed = try json(Self.named, .certificateChanged(from: from, to: to, pinned: true, beaconAgrees: true))
        #expect(agreed["from"] as? String == from.hex && agreed["to"] as? String == to.hex && agreed["pinned"] as? Bool == true)
        #expect(agreed["beaconAgrees"] as? Bool == true, "\(agreed)")
        #expect(try json(Self.named, .certificateChanged(from: from, to: to, pinned: false))["beaconAgrees"] == nil)
        let text = WatchEventLine(
            WatchEvent(Self.named, .certificateChanged(from: from, to: to, pinned: false, beaconAgrees: true), date: Date())
        )
        .text(Terminal(color: false))
        #expect(text.contains("a renewal"), "\(text)")
    }
}
