import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with `CachedAnswerHandler` in its pipeline, right after
/// NIO's HTTP/1 decoder (it keeps the idle timeout, since the connection state handler after
/// it does not see the requests it answers), and `EventStreamHangup`, which ends an event
/// stream whose client has gone. Otherwise the pipeline is `HTTP1Channel`'s.
struct ServerChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let idleTimeout: Duration
    let answers: CachedAnswers

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let operations = channel.pipeline.syncOperations
            try operations.configureHTTPServerPipeline(
                withPipeliningAssistance: false,  // responses are ordered by the async channel and CachedAnswerHandler
                withErrorHandling: false,  // Hummingbird answers parse errors
                withOutboundHeaderValidation: false,  // HTTPTypes validates header fields
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: Self.decoderLimits)
            try operations.addHandler(CachedAnswerHandler(answers: answers, idleTimeout: idleTimeout))
            try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            // Graceful shutdown's bookkeeping for the requests Hummingbird answers; the idle
            // timeout is CachedAnswerHandler's, which sees every request.
            try operations.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            try operations.addHandler(EventStreamHangup())
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    /// `HTTP1Channel`'s limits.
    private static var decoderLimits: NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = 80 * 1024
        limits.maxHeaderListSize = 80 * 1024
        limits.maxHeaderFieldCount = 1000
        return limits
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
