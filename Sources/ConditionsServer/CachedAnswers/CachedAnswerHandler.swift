import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers, on the event loop, the requests `CachedAnswers` can answer from memory, and passes
/// every other request on to Hummingbird unchanged.
///
/// Hand-written below Hummingbird because a benchmark showed the need: a cached
/// `GET /v1/urn/{urn}` through Hummingbird's async channel, router and middleware cost about
/// 40 µs of CPU, nearly three times nginx's, which kept scenario 9 under its 0.5× target
/// (docs/performance.md). Answered here the whole request, kernel included, costs 22–28 µs
/// (nginx: 14–15 µs), and the scenario meets its targets.
///
/// It sits after `HTTPConnectionStateHandler`, which therefore sees every request and response
/// (idle timeout and graceful shutdown work as for any request). Answers keep their order: a
/// request is answered here only while no request passed on to Hummingbird awaits its
/// response, and while the channel is writable (a client that does not read its responses
/// meets Hummingbird's backpressure).
final class CachedAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let answers: CachedAnswers
    /// Requests passed on whose response has not ended yet.
    private var passedOn = 0
    /// The request being answered here, until its end arrives.
    private var answering: (request: HTTPRequest, reply: CachedAnswers.Reply, started: ContinuousClock.Instant)?
    private var unflushed = false

    init(answers: CachedAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
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
            guard let (request, reply, started) = answering else {
                context.fireChannelRead(data)
                return
            }
            answering = nil
            context.write(wrapOutboundOut(.head(reply.head)), promise: nil)
            if let body = reply.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            unflushed = true
            answers.answered(request, status: reply.head.status.code, started: started)
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

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Never below zero: Hummingbird also ends responses to requests never passed on (a
        // parse error's 400), and a negative count would let a later answer overtake one.
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }
}
