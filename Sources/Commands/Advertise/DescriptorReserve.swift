import Glibc

/// A few descriptors held back while advertise serves, given up just before the wide-area
/// withdrawal: however many connections the stand-in took, the DNS UPDATE that takes the
/// records out finds descriptors to open its sockets with (issue 30: EMFILE left the records).
final class DescriptorReserve {
    private var held: [Int32]

    /// The UPDATE over UDP, its TCP fallback, and a TSIG key file to read.
    init(count: Int = 4) {
        held = (0..<count).map { _ in open("/dev/null", O_RDONLY | O_CLOEXEC) }.filter { $0 >= 0 }
    }

    func release() {
        for descriptor in held { close(descriptor) }
        held = []
    }

    deinit { release() }
}
