import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with `CachedAnswerHandler` in its pipeline, placed after
/// `HTTPConnectionStateHandler`: `HTTP1Channel`'s own additional handlers go before it, where
/// requests answered early would escape the idle timeout and the graceful shutdown's
/// bookkeeping; and `EventStreamHangup`, which ends an event stream whose client has gone.
/// Otherwise the pipeline is `HTTP1Channel`'s.
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
            try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try operations.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            try operations.addHandler(CachedAnswerHandler(answers: answers))
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
