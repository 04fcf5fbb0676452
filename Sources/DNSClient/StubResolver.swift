import DNSSD
import DNSWire
import NIOSupport

/// What one question got: records, or the reason there are none, and who said so.
package enum DNSLookup: Sendable {
    case records([DNSRecord], response: DNSResponse)
    /// The server answered with an error code or without records of the type (NODATA).
    case negative(RCode, server: DNSServer, nodata: Bool)
    case failed(DNSQueryFailure)

    /// NXDOMAIN, NODATA (name exists, type does not), SERVFAIL, REFUSED or a transport failure,
    /// with the server that said it: the words an operator searches for.
    package var explanation: String {
        switch self {
        case .records(let records, let response): "\(Plural.counted(records.count, "record")) from \(response.server)"
        case .negative(_, let server, true): "NODATA from \(server) (the name exists, the record type does not)"
        case .negative(.nxDomain, let server, _): "NXDOMAIN from \(server) (no such name)"
        case .negative(let code, let server, _): "\(code) from \(server)"
        case .failed(let failure): failure.description
        }
    }

    /// Why no answer came, when none did.
    package var failure: DNSQueryFailure? {
        if case .failed(let failure) = self { return failure }
        return nil
    }

    package var records: [DNSRecord] {
        if case .records(let records, _) = self { return records }
        return []
    }

    package var server: DNSServer? {
        switch self {
        case .records(_, let response): response.server
        case .negative(_, let server, _): server
        case .failed(let failure): failure.server
        }
    }

    /// A definitive "no": further servers would say the same.
    var isAuthoritativeNegative: Bool {
        if case .negative(let code, _, let nodata) = self { return nodata || code == .nxDomain }
        return false
    }
}

/// Asks DNS questions. The real one is `StubResolver`; tests replay recorded answers.
package protocol DNSResolving: Sendable {
    func lookup(_ name: DNSName, _ type: RRType) async -> DNSLookup
    /// Every question at once, the lookups in the questions' order.
    func lookup(_ questions: [DNSQuestionKey]) async -> [DNSLookup]
}

extension DNSResolving {
    /// One lookup per question, all at once.
    package func lookup(_ questions: [DNSQuestionKey]) async -> [DNSLookup] {
        await withTaskGroup(of: (Int, DNSLookup).self) { group in
            for (index, question) in questions.enumerated() {
                group.addTask { (index, await lookup(question.name, question.type)) }
            }
            var lookups = [DNSLookup?](repeating: nil, count: questions.count)
            for await (index, lookup) in group { lookups[index] = lookup }
            return lookups.map { $0! }
        }
    }
}

/// A stub resolver over a list of servers, tried in order like the C library does: the next
/// one only after a timeout, an unreachable server, SERVFAIL or REFUSED. CNAMEs are followed
/// (at most 8), using records already in the answer before asking again.
package struct StubResolver: DNSResolving {
    package let client: DNSClient
    package let servers: [DNSServer]

    package init(client: DNSClient, servers: [DNSServer]) {
        self.client = client
        self.servers = servers
    }

    package func lookup(_ name: DNSName, _ type: RRType) async -> DNSLookup {
        await lookup([(name, type)])[0]
    }

    /// The questions go to each server together (one round trip for all of them); those a
    /// server fails go on to the next. An answer that is a CNAME is followed on its own.
    package func lookup(_ questions: [DNSQuestionKey]) async -> [DNSLookup] {
        var lookups: [DNSLookup] = []
        for (question, answer) in zip(questions, await ask(questions)) {
            lookups.append(await following(question, answer))
        }
        return lookups
    }

    /// `answer` to `question`, with the CNAMEs in it followed.
    private func following(_ question: DNSQuestionKey, _ answer: DNSLookup) async -> DNSLookup {
        let (name, type) = (question.name, question.type)
        var current = name
        var result = answer
        for hop in 0..<8 {
            if hop > 0 { result = await ask([(current, type)])[0] }
            guard case .records(let records, let response) = result else { return result }
            let wanted = records.filter { $0.type == type && $0.name == current }
            // Truncated even over TCP: what arrived is all there is; the caller says so.
            if !wanted.isEmpty || response.message.truncated { return .records(wanted, response: response) }
            guard let alias = Self.cnameTarget(of: current, in: records) else {
                return .negative(.noError, server: response.server, nodata: true)
            }
            // The chain may continue inside the same answer.
            var target = alias
            var hops = 0
            while let next = Self.cnameTarget(of: target, in: records), hops < 8 {
                target = next
                hops += 1
            }
            let resolved = records.filter { $0.type == type && $0.name == target }
            if !resolved.isEmpty { return .records(resolved, response: response) }
            current = target
        }
        return .failed(.malformed(servers.first ?? .tailscale, "CNAME chain for \(name) is longer than 8"))
    }

    private static func cnameTarget(of name: DNSName, in records: [DNSRecord]) -> DNSName? {
        for record in records where record.name == name {
            if case .cname(let target) = record.data { return target }
        }
        return nil
    }

    /// The questions against the servers in order, the next server asked only what the one
    /// before could not answer; answer records come with the response's additional section.
    private func ask(_ questions: [DNSQuestionKey]) async -> [DNSLookup] {
        var lookups = [DNSLookup](
            repeating: .failed(.unreachable(servers.first ?? .tailscale, "no DNS server configured")), count: questions.count)
        var open = Array(questions.indices)
        // A cancelled lookup asks no further server: what the ones before answered stands.
        for server in servers where !open.isEmpty && !Task.isCancelled {
            let answers = await client.query(open.map { questions[$0] }, server: server)
            var unanswered: [Int] = []
            for (index, answer) in zip(open, answers) {
                let (lookup, final) = Self.lookup(answer, from: server)
                lookups[index] = lookup
                if !final { unanswered.append(index) }
            }
            open = unanswered
        }
        return lookups
    }

    /// What one server's answer says, and whether it is the final word (else the next server
    /// is asked: a timeout, an unreachable server, SERVFAIL, REFUSED).
    private static func lookup(_ answer: DNSClient.Answer, from server: DNSServer) -> (DNSLookup, final: Bool) {
        switch answer {
        case .success(let response) where response.message.rcode == .noError:
            let message = response.message
            if message.answers.isEmpty && !message.truncated { return (.negative(.noError, server: server, nodata: true), true) }
            return (.records(message.answers, response: response), true)
        case .success(let response):
            return (.negative(response.message.rcode, server: server, nodata: false), response.message.rcode == .nxDomain)
        case .failure(let failure):
            return (.failed(failure), false)
        }
    }
}
