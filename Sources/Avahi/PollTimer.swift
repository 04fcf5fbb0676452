import CAvahi
import DNSSD

/// A timeout on an Avahi poll whose action is a Swift closure. Used only on the poll thread
/// (or before it starts); freed by its owner after the poll has stopped.
final class PollTimer {
    private let api: UnsafePointer<AvahiPoll>
    private var timeout: OpaquePointer?
    private var action: () -> Void = {}

    init(api: UnsafePointer<AvahiPoll>) {
        self.api = api
    }

    func arm(after delay: Duration, _ action: @escaping () -> Void) {
        self.action = action
        var tv = timeval()
        avahi_elapse_time(&tv, UInt32(clamping: delay.milliseconds), 0)
        if let timeout {
            api.pointee.timeout_update(timeout, &tv)
        } else {
            timeout = api.pointee.timeout_new(
                api, &tv,
                { _, userdata in
                    Unmanaged<PollTimer>.fromOpaque(userdata!).takeUnretainedValue().action()
                }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    func free() {
        if let timeout { api.pointee.timeout_free(timeout) }
        timeout = nil
    }
}
