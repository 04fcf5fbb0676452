import CAvahi
import DNSSD
import Host

/// One service published through an Avahi entry group until the stream is cancelled, which
/// withdraws it (Avahi sends the goodbye packets).
///
/// Threading contract, hence `@unchecked Sendable`: as in AvahiBrowseSession, mutable state is
/// touched only in the AvahiLoop's setup (poll locked), then on the poll thread, and last in
/// `release`, after the poll thread stopped.
final class AvahiPublishSession: @unchecked Sendable {
    struct Service: Sendable {
        var name: String
        var type: ServiceType
        var port: Int
        var txt: TXTRecord
    }

    private var service: Service
    private let continuation: AsyncStream<AdvertiseEvent>.Continuation
    private let loop: AvahiLoop
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var retryTimer: PollTimer?

    /// Events waiting at the C boundary. A reader that falls this far behind (a daemon that
    /// fails and comes back over and over while nobody reads) loses the oldest: the newest say
    /// where the publication stands now.
    static let bufferLimit = 64

    static func events(service: Service) -> AsyncStream<AdvertiseEvent> {
        AsyncStream(bufferingPolicy: .bufferingNewest(bufferLimit)) { continuation in
            guard let loop = AvahiLoop() else {
                continuation.yield(
                    .failed(DiscoveryIssue(source: .mdns, kind: .daemonMissing, .eventLoopFailed)))
                continuation.finish()
                return
            }
            let session = AvahiPublishSession(service: service, continuation: continuation, loop: loop)
            continuation.onTermination = { _ in loop.stop { session.release() } }
            loop.start { running in
                guard running else {
                    let issue = DiscoveryIssue(source: .mdns, kind: .daemonMissing, .eventLoopThreadFailed)
                    continuation.yield(.failed(issue))
                    return continuation.finish()
                }
                session.connect()
            }
        }
    }

    private init(service: Service, continuation: AsyncStream<AdvertiseEvent>.Continuation, loop: AvahiLoop) {
        self.service = service
        self.continuation = continuation
        self.loop = loop
    }

    private var api: UnsafePointer<AvahiPoll> { loop.api }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func session(_ userdata: UnsafeMutableRawPointer?) -> AvahiPublishSession {
        Unmanaged<AvahiPublishSession>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// After the poll thread stopped.
    private func release() {
        retryTimer?.free()
        if let client { avahi_client_free(client) }  // frees the group: the daemon says goodbye
        client = nil
    }

    private func connect() {
        var error: Int32 = 0
        client = avahi_client_new(
            api, AVAHI_CLIENT_NO_FAIL,
            { client, state, userdata in
                AvahiPublishSession.session(userdata).clientChanged(client, state)
            }, userdata, &error)
        if client == nil {
            continuation.yield(.failed(AvahiDiagnosis.issue(for: error, purpose: .publish)))
            retryLater(after: .seconds(1))
        }
    }

    private func clientChanged(_ changed: OpaquePointer?, _ state: AvahiClientState) {
        guard let changed else { return }
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            publish(on: changed)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The host name is being (re)negotiated: withdraw and publish again once running.
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING:
            continuation.yield(.failed(AvahiDiagnosis.issue(for: Int32(AVAHI_ERR_NO_DAEMON), purpose: .publish)))
        case AVAHI_CLIENT_FAILURE:
            continuation.yield(.failed(AvahiDiagnosis.issue(for: avahi_client_errno(changed), lost: true, purpose: .publish)))
            retryLater(after: .zero)
        default:
            break
        }
    }

    private func publish(on client: OpaquePointer) {
        if group == nil {
            group = avahi_entry_group_new(
                client,
                { group, state, userdata in
                    AvahiPublishSession.session(userdata).groupChanged(group, state)
                }, userdata)
        }
        guard let group else {
            continuation.yield(.failed(issue(.entryGroupFailed(error: Self.error(client)))))
            return
        }
        guard avahi_entry_group_is_empty(group) != 0 else { return }
        let list = Self.stringList(service.txt)
        defer { avahi_string_list_free(list) }
        let added = avahi_entry_group_add_service_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
            service.name, service.type.name, nil, nil, UInt16(service.port), list)
        if added == Int32(AVAHI_ERR_COLLISION) {
            rename()
            return
        }
        guard added == 0, avahi_entry_group_commit(group) == 0 else {
            continuation.yield(.failed(issue(.publishRefused(name: service.name, error: Self.error(client)))))
            return
        }
    }

    private func groupChanged(_ changed: OpaquePointer?, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            continuation.yield(.established(name: service.name))
        case AVAHI_ENTRY_GROUP_COLLISION:
            rename()
        case AVAHI_ENTRY_GROUP_FAILURE:
            if let client { continuation.yield(.failed(issue(.publishFailed(name: service.name, error: Self.error(client))))) }
        default:
            break
        }
    }

    /// Another host holds the name: take Avahi's alternative ("Name #2") and try again.
    private func rename() {
        guard let alternative = avahi_alternative_service_name(service.name) else { return }
        let next = String(cString: alternative)
        avahi_free(alternative)
        continuation.yield(.renamed(from: service.name, to: next))
        service.name = next
        if let group { avahi_entry_group_reset(group) }
        if let client { publish(on: client) }
    }

    /// Rebuild the client from a timeout (never inside the client's own callback).
    private func retryLater(after delay: Duration) {
        if retryTimer == nil { retryTimer = PollTimer(api: api) }
        retryTimer?.arm(after: delay) { [unowned self] in
            if let client { avahi_client_free(client) }
            client = nil
            group = nil
            connect()
        }
    }

    private func issue(_ code: DiscoveryIssue.Code) -> DiscoveryIssue {
        DiscoveryIssue(source: .mdns, kind: .browseFailed, code)
    }

    /// What Avahi says of the client's last error.
    private static func error(_ client: OpaquePointer) -> String {
        AvahiDiagnosis.message(for: avahi_client_errno(client))
    }

    /// Avahi puts a list on the wire last node first (as avahi-publish's arguments, which it
    /// prepends one by one, come out in order), so prepend the strings in wire order.
    private static func stringList(_ txt: TXTRecord) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for string in txt.strings {
            list = string.withUnsafeBufferPointer { avahi_string_list_add_arbitrary(list, $0.baseAddress, $0.count) }
        }
        return list
    }
}
