import DNSClient
import DNSSD
import DNSWire
import Synchronization
import Testing

@testable import Discovery

/// Answers recorded as (name, type) -> lookup, counting what was asked.
final class RecordedResolver: DNSResolving {
    let answers: [String: DNSLookup]
    private let asked = Mutex<[String]>([])

    init(_ answers: [String: DNSLookup]) {
        self.answers = answers
    }

    var questions: [String] { asked.withLock { $0 } }

    /// The questions asked together, batch by batch.
    var batches: [[String]] { batched.withLock { $0 } }
    private let batched = Mutex<[[String]]>([])

    func lookup(_ questions: [DNSQuestionKey]) async -> [DNSLookup] {
        batched.withLock { $0.append(questions.map { "\($0.name.description.lowercased()) \($0.type)" }) }
        var lookups: [DNSLookup] = []
        for question in questions { lookups.append(await lookup(question.name, question.type)) }
        return lookups
    }

    func lookup(_ name: DNSName, _ type: RRType) async -> DNSLookup {
        let key = "\(name.description.lowercased()) \(type)"
        asked.withLock { $0.append(key) }
        return answers[key] ?? .negative(.nxDomain, server: server, nodata: false)
    }
}

let server = DNSServer(address: IPAddress("127.0.0.1")!, port: 5303)

func name(_ text: String) -> DNSName { try! DNSName(presentation: text) }

func response(_ answers: [DNSRecord], additional: [DNSRecord] = [], truncated: Bool = false) -> DNSResponse {
    DNSResponse(
        message: DNSMessage(
            id: 1, rcode: .noError, truncated: truncated, authoritative: true, isResponse: true,
            question: nil, answers: answers, authority: [], additional: additional),
        server: server, overTCP: truncated)
}

func records(_ list: [DNSRecord], additional: [DNSRecord] = [], truncated: Bool = false) -> DNSLookup {
    .records(list, response: response(list, additional: additional, truncated: truncated))
}

let service = "_openclaw-gw._tcp.openclaw.internal."
func ptr(_ instance: String) -> DNSRecord {
    DNSRecord(name: name(service), type: .ptr, ttl: 60, data: .ptr(name("\(instance).\(service)")))
}
func srv(_ instance: String, port: UInt16 = 18789, target: String = "studio.openclaw.internal.", priority: UInt16 = 0, weight: UInt16 = 0)
    -> DNSRecord
{
    DNSRecord(
        name: name("\(instance).\(service)"), type: .srv, ttl: 60,
        data: .srv(priority: priority, weight: weight, port: port, target: name(target)))
}
func txt(_ instance: String, _ pairs: [(key: String, value: String?)]) -> DNSRecord {
    DNSRecord(name: name("\(instance).\(service)"), type: .txt, ttl: 60, data: .txt(try! TXTRecord(pairs: pairs)))
}
func a(_ host: String, _ address: String) -> DNSRecord { DNSRecord(name: name(host), type: .a, ttl: 60, data: .a(IPAddress(address)!)) }

func browse(_ resolver: RecordedResolver) async -> UnicastBrowse.Result {
    await UnicastBrowse(resolver: resolver, type: .gateway, domain: try! DomainName(validating: "openclaw.internal")).run()
}

@Suite("Unicast DNS-SD walk (recorded answers)")
struct UnicastBrowseTests {
    let gatewayTXT: [(key: String, value: String?)] = [
        (key: "displayName", value: "Studio"), (key: "role", value: "gateway"), (key: "gatewayPort", value: "18789"),
    ]

    @Test("PTR, then SRV and TXT, then A and AAAA")
    func fullWalk() async throws {
        let resolver = RecordedResolver([
            "\(service) PTR": records([ptr(#"Studio\032\(OpenClaw\)"#)]),
            #"studio\032\(openclaw\).\#(service) SRV"#: records([srv(#"Studio\032\(OpenClaw\)"#)]),
            #"studio\032\(openclaw\).\#(service) TXT"#: records([txt(#"Studio\032\(OpenClaw\)"#, gatewayTXT)]),
            "studio.openclaw.internal. A": records([a("studio.openclaw.internal.", "100.101.102.103")]),
            "studio.openclaw.internal. AAAA": .negative(.noError, server: server, nodata: true),
        ])
        let result = await browse(resolver)
        #expect(result.issues.isEmpty)
        let beacon = try #require(result.beacons.first)
        #expect(beacon.instance.displayName == "Studio (OpenClaw)")
        #expect(beacon.host?.text == "studio.openclaw.internal.")
        #expect(beacon.port == 18789)
        #expect(beacon.addresses == [IPAddress("100.101.102.103")!])
        #expect(beacon.sources == [.unicast])
        #expect(beacon.resolvers == ["127.0.0.1#5303"])
        #expect(beacon.gateway.displayName == "Studio")
        #expect(beacon.warnings.isEmpty, "\(beacon.warnings)")
        #expect(result.ttl == 60)
    }

    @Test("records in the additional section are used instead of asking again")
    func additionalSection() async throws {
        let instance = "studio-gateway"
        let resolver = RecordedResolver([
            "\(service) PTR": records(
                [ptr(instance)],
                additional: [
                    srv(instance), txt(instance, gatewayTXT), a("studio.openclaw.internal.", "100.101.102.103"),
                    // outside the browsed domain: not the server's to give, so not trusted
                    a("evil.example.", "203.0.113.66"),
                ])
        ])
        let result = await browse(resolver)
        #expect(result.beacons.count == 1)
        #expect(result.beacons.first?.addresses == [IPAddress("100.101.102.103")!])
        #expect(resolver.questions == ["\(service) PTR", "studio.openclaw.internal. AAAA"], "only PTR and the missing AAAA were asked")
    }

    @Test("hosts shared by many instances are looked up once")
    func sharedHosts() async {
        var answers: [String: DNSLookup] = ["studio.openclaw.internal. A": records([a("studio.openclaw.internal.", "100.101.102.103")])]
        var ptrs: [DNSRecord] = []
        for index in 0..<50 {
            ptrs.append(ptr("g\(index)"))
            answers["g\(index).\(service) SRV"] = records([srv("g\(index)")])
            answers["g\(index).\(service) TXT"] = records([txt("g\(index)", gatewayTXT)])
        }
        answers["\(service) PTR"] = records(ptrs)
        let resolver = RecordedResolver(answers)
        let result = await browse(resolver)
        #expect(result.beacons.count == 50)
        #expect(resolver.questions.filter { $0.hasPrefix("studio.openclaw.internal.") }.count == 2)
    }

    @Test("a round trip per record type: every instance's SRV and TXT asked together, then every host's A and AAAA")
    func batchesPerRecordType() async {
        var answers: [String: DNSLookup] = [:]
        var ptrs: [DNSRecord] = []
        for index in 0..<3 {
            let host = "host\(index % 2).openclaw.internal."
            ptrs.append(ptr("g\(index)"))
            answers["g\(index).\(service) SRV"] = records([srv("g\(index)", target: host)])
            answers["g\(index).\(service) TXT"] = records([txt("g\(index)", gatewayTXT)])
            answers["\(host) A"] = records([a(host, "100.101.102.10\(index % 2)")])
        }
        answers["\(service) PTR"] = records(ptrs)
        let resolver = RecordedResolver(answers)
        let result = await browse(resolver)
        #expect(result.beacons.count == 3)
        #expect(resolver.batches.map(\.count) == [6, 4], "SRV and TXT of 3 instances, then A and AAAA of 2 hosts: \(resolver.batches)")
        #expect(resolver.batches.first?.filter { $0.hasSuffix(" SRV") }.count == 3)
        #expect(
            result.beacons.map(\.addresses) == [
                [IPAddress("100.101.102.100")!], [IPAddress("100.101.102.101")!], [IPAddress("100.101.102.100")!],
            ])
    }

    @Test("a PTR to a missing SRV: an error naming the instance; the others still reported")
    func missingSRV() async throws {
        let resolver = RecordedResolver([
            "\(service) PTR": records([ptr("good"), ptr("ghost")]),
            "good.\(service) SRV": records([srv("good")]),
            "good.\(service) TXT": records([txt("good", gatewayTXT)]),
            "studio.openclaw.internal. A": records([a("studio.openclaw.internal.", "100.101.102.103")]),
        ])
        let result = await browse(resolver)
        #expect(result.beacons.map(\.instance.displayName) == ["good"])
        let issue = try #require(result.issues.first)
        guard case .srvMissing(let instance, _, let type, let explanation) = issue.code else {
            Issue.record("not an instance without SRV: \(issue)")
            return
        }
        #expect(instance == "ghost" && type == "_openclaw-gw._tcp", "\(issue)")
        #expect(explanation.hasPrefix("NXDOMAIN from 127.0.0.1#5303"), "the server's answer, with the server: \(issue)")
        #expect(issue.domain == "openclaw.internal.")
    }

    @Test("a PTR pointing at itself or outside the type is refused")
    func badPTRTargets() async {
        let resolver = RecordedResolver([
            "\(service) PTR": records([
                DNSRecord(name: name(service), type: .ptr, ttl: 60, data: .ptr(name(service))),
                DNSRecord(name: name(service), type: .ptr, ttl: 60, data: .ptr(name("x._other._tcp.openclaw.internal."))),
            ])
        ])
        let result = await browse(resolver)
        #expect(result.beacons.isEmpty)
        #expect(result.issues.count == 2)
        #expect(
            result.issues.allSatisfy {
                if case .ptrNotInstance(_, _, let type) = $0.code { type == "_openclaw-gw._tcp" } else { false }
            }, "\(result.issues)")
    }

    @Test("several SRV records: lowest priority, then highest weight; noted")
    func srvOrdering() async throws {
        let resolver = RecordedResolver([
            "\(service) PTR": records([ptr("multi")]),
            "multi.\(service) SRV": records([
                srv("multi", port: 1, target: "backup.openclaw.internal.", priority: 10, weight: 100),
                srv("multi", port: 2, target: "light.openclaw.internal.", priority: 0, weight: 1),
                srv("multi", port: 3, target: "heavy.openclaw.internal.", priority: 0, weight: 50),
            ]),
            "multi.\(service) TXT": records([txt("multi", gatewayTXT)]),
            "heavy.openclaw.internal. A": records([a("heavy.openclaw.internal.", "10.0.0.3")]),
        ])
        let beacon = try #require(await browse(resolver).beacons.first)
        #expect(beacon.port == 3)
        #expect(beacon.host?.text == "heavy.openclaw.internal.")
        #expect(beacon.warnings.contains { $0.contains("3 SRV records; using priority 0 weight 50") })
    }

    @Test("SRV target '.', port 0, no address and no TXT become warnings on the beacon")
    func degenerateServices() async throws {
        let resolver = RecordedResolver([
            "\(service) PTR": records([ptr("dot"), ptr("zero")]),
            "dot.\(service) SRV": records([srv("dot", target: ".")]),
            "dot.\(service) TXT": records([txt("dot", gatewayTXT)]),
            "zero.\(service) SRV": records([srv("zero", port: 0, target: "nowhere.openclaw.internal.")]),
            "zero.\(service) TXT": .negative(.noError, server: server, nodata: true),
        ])
        let result = await browse(resolver)
        let dot = try #require(result.beacons.first { $0.instance.displayName == "dot" })
        #expect(dot.warnings.contains { $0.contains("decidedly not available") })
        let zero = try #require(result.beacons.first { $0.instance.displayName == "zero" })
        #expect(zero.warnings.contains("SRV port is 0: the service says it is not available here"))
        #expect(zero.warnings.contains { $0.contains("no TXT record (NODATA from 127.0.0.1#5303") })
        #expect(zero.warnings.contains { $0.contains("address lookup for nowhere.openclaw.internal.: A NXDOMAIN") })
    }

    @Test(
        "NXDOMAIN, NODATA, SERVFAIL, REFUSED and timeout are told apart, with the server",
        arguments: [
            (DNSLookup.negative(.nxDomain, server: server, nodata: false), "NXDOMAIN from 127.0.0.1#5303"),
            (.negative(.noError, server: server, nodata: true), "NODATA from 127.0.0.1#5303"),
            (.negative(.servFail, server: server, nodata: false), "SERVFAIL from 127.0.0.1#5303"),
            (.negative(.refused, server: server, nodata: false), "REFUSED from 127.0.0.1#5303"),
            (.failed(.timeout(server, attempts: 3)), "no answer from 127.0.0.1#5303 (3 tries)"),
        ])
    func ptrFailures(lookup: DNSLookup, text: String) async throws {
        let result = await browse(RecordedResolver(["\(service) PTR": lookup]))
        #expect(result.beacons.isEmpty)
        let issue = try #require(result.issues.first)
        guard case .ptrUnanswered(let service, _, let explanation, _) = issue.code else {
            Issue.record("not a PTR without records: \(issue)")
            return
        }
        #expect(service == service && explanation.contains(text), "\(issue)")
        #expect(!result.ptrAnswered)
    }

    @Test("a domain that does not exist (NXDOMAIN for the service): one issue whose fix names the domain and how to check it")
    func noSuchDomain() async throws {
        let result = await browse(RecordedResolver(["\(service) PTR": .negative(.nxDomain, server: server, nodata: false)]))
        #expect(result.issues.count == 1, "\(result.issues)")
        guard case .ptrUnanswered(_, _, _, let answer)? = result.issues.first?.code else {
            Issue.record("not a PTR without records: \(result.issues)")
            return
        }
        #expect(answer == .noSuchDomain(server: "127.0.0.1#5303", dig: "@127.0.0.1 -p 5303"), "the fix names how to ask that server")
    }

    @Test("a PTR set truncated even over TCP is reported with what arrived")
    func truncatedPTR() async throws {
        let resolver = RecordedResolver([
            "\(service) PTR": records([], truncated: true)
        ])
        let result = await browse(resolver)
        let issue = try #require(result.issues.first)
        #expect(issue.code == .ptrTruncated(service: service, server: "127.0.0.1#5303", records: 0), "\(issue)")
    }

    @Test("a PTR set of more instances than a browse resolves: the first 1,000 are asked about, and the rest is named")
    func instanceLimit() async throws {
        let listed = (0..<1_200).map { "g\($0)" }
        let resolver = RecordedResolver(["\(service) PTR": records(listed.map(ptr))])
        let result = await browse(resolver)
        let asked = resolver.questions.filter { $0.hasSuffix(" SRV") }
        #expect(asked.count == UnicastBrowse.instanceLimit, "\(asked.count) SRV questions")
        #expect(!asked.contains("g1000.\(service) SRV") && asked.contains("g999.\(service) SRV"))
        #expect(
            result.issues.map(\.code).contains(.tooManyInstances(service: service, count: 1_200, limit: 1_000)), "\(result.issues)")
    }
}
