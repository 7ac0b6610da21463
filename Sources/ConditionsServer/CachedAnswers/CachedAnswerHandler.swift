import Hummingbird
import NIOCore
import NIOHTTP1

/// Answers, on the event loop, the requests `CachedAnswers` can answer from memory, and passes
/// every other request on to Hummingbird unchanged.
///
/// Hand-written below Hummingbird because a benchmark showed the need: a cached
/// `GET /v1/urn/{urn}` through Hummingbird's async channel, router and middleware cost about
/// 40 µs of CPU, nearly three times nginx's (docs/performance.md, scenario 9). It sits right
/// after NIO's HTTP/1 decoder, in NIO's types, before the HTTPTypes codec: without converting
/// each request head and response head between the two, and with one handler between it and
/// the socket instead of three, an answer costs 15–18 µs instead of 20–26 (Issue 45 §3).
///
/// Answers keep their order: a request is answered here only while no request passed on to
/// Hummingbird awaits its response, and while the channel is writable (a client that does not
/// read its responses meets Hummingbird's backpressure).
///
/// Because Hummingbird's `HTTPConnectionStateHandler` never sees the requests answered here,
/// this handler keeps the connection's idle timeout for every request (the state handler is
/// given none), with the same rules: a connection with no request in progress, or one stopped
/// in the middle of a request, is closed once nothing was read or answered for the timeout. A
/// graceful shutdown's quiesce event waits here until the request being read is answered.
final class CachedAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let answers: CachedAnswers
    private let idleTimeout: Duration
    /// Requests passed on whose response has not ended yet.
    private var passedOn = 0
    /// The request being answered here, until its end arrives.
    private var answering: (request: HTTPRequestHead, reply: CachedAnswers.Reply, started: ContinuousClock.Instant)?
    /// A request's head has been read and its end has not.
    private var readingRequest = false
    private var unflushed = false
    /// The last read, or the last response ended with no request left in progress; on the
    /// event loop's clock, which a test's `EmbeddedEventLoop` moves.
    private var lastActive = NIODeadline.uptimeNanoseconds(0)
    private var idleCheck: Scheduled<Void>?
    /// A graceful shutdown asked to quiesce while a request answered here was being read.
    private var quiesceHeld = false

    init(answers: CachedAnswers, idleTimeout: Duration) {
        self.answers = answers
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive {
            lastActive = context.eventLoop.now
            scheduleIdleCheck(context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        lastActive = context.eventLoop.now
        scheduleIdleCheck(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = context.eventLoop.now
        switch unwrapInboundIn(data) {
        case .head(let request):
            readingRequest = true
            let started = ContinuousClock.now
            if passedOn == 0, context.channel.isWritable, let reply = answers.reply(to: request) {
                answering = (request, reply, started)
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            // A body on a GET means nothing here; it is read and dropped, as Hummingbird would.
            if answering == nil { context.fireChannelRead(data) }
        case .end:
            readingRequest = false
            guard let (request, reply, started) = answering else {
                context.fireChannelRead(data)
                return
            }
            answering = nil
            context.write(wrapOutboundOut(.head(reply.head)), promise: nil)
            if let body = reply.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            unflushed = true
            answers.answered(request, status: Int(reply.head.status.code), started: started)
            if quiesceHeld {
                // The answer goes out before the state handler, which saw no request, closes.
                quiesceHeld = false
                unflushed = false
                context.flush()
                context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // One flush for every answer of this read: pipelined requests share one system call.
        if unflushed {
            unflushed = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, answering != nil {
            quiesceHeld = true
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Never below zero: Hummingbird also ends responses to requests never passed on (a
        // parse error's 400), and a negative count would let a later answer overtake one.
        if case .end = unwrapOutboundIn(data) {
            passedOn = max(0, passedOn - 1)
            if passedOn == 0 {
                lastActive = context.eventLoop.now
                scheduleIdleCheck(context)
            }
        }
        context.write(data, promise: promise)
    }

    /// Checks for idleness when the timeout after the last activity has passed; a busy
    /// connection's check finds activity since and sets itself again for the new deadline.
    private func scheduleIdleCheck(_ context: ChannelHandlerContext) {
        guard idleCheck == nil else { return }
        idleCheck = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: lastActive + TimeAmount(idleTimeout)) { [self] in
            self.idleCheck = nil
            // A request read in full and not yet answered by Hummingbird is not idle; its
            // response's end sets the check again.
            if passedOn > 0, !readingRequest { return }
            if context.eventLoop.now >= lastActive + TimeAmount(idleTimeout) {
                context.close(promise: nil)
            } else {
                scheduleIdleCheck(context)
            }
        }
    }
}
