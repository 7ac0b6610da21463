import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client stopped sending while it is being answered an event
/// stream. Hummingbird allows half-closed connections, so a client that goes away is only a
/// FIN (`inputClosed`); without this, the stream would go on (and its URNs' pollers keep
/// asking upstreams) until a heartbeat write failed, up to two heartbeats later. Any other
/// answer still reaches a client that half-closed after its request.
final class EventStreamHangup: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// An event stream's head has been written and its end has not.
    private var streaming = false
    private var inputClosed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            streaming = head.headerFields[.contentType] == "text/event-stream"
            if streaming && inputClosed {
                promise?.fail(ChannelError.ioOnClosedChannel)
                context.close(promise: nil)
                return
            }
        case .end:
            streaming = false
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            if streaming { context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }
}
