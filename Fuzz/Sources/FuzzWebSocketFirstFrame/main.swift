import FuzzSupport
import Glibc
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Probes

/// What a server sends after its 101: frames through NIO's decoder (with the probe's frame
/// limit) into the probe's FirstFrameHandler, in two reads split where the input says. It
/// never traps, and it never has more pongs queued than its frame budget.
func fuzz(_ bytes: [UInt8]) {
    var bytes = bytes[...]
    let split = Int(bytes.popFirst() ?? 0)
    let channel = EmbeddedChannel()
    let frame = channel.eventLoop.makePromise(of: FirstFrame.self)
    let closed = channel.eventLoop.makePromise(of: Void.self)
    try! channel.pipeline.syncOperations.addHandlers([
        ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: WebSocketProbe.frameLimit)),
        FirstFrameHandler(frame: frame, closed: closed),
    ])
    try! channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 18789)).wait()
    for part in [bytes.prefix(split), bytes.dropFirst(split)] where channel.isActive {
        _ = try? channel.writeInbound(ByteBuffer(bytes: part))
    }
    var written = 0
    while (try? channel.readOutbound(as: WebSocketFrame.self)) ?? nil != nil { written += 1 }
    precondition(written <= FirstFrameHandler.frameLimit, "\(written) frames written back")
    struct Done: Error {}
    frame.fail(Done())
    closed.fail(Done())
    _ = try? channel.finish()
    // A channel the handler closed makes finish() throw before it runs the loop's queued
    // tasks (the pipeline's teardown among them): run them, or every input leaks its channel.
    channel.embeddedEventLoop.run()
}

runFuzzer(fuzz)
