import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the connection the request came on, so an answer that
/// runs for as long as the client listens (`/v1/events`) can end when the connection does.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection; its `closeFuture` completes when the client is gone.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
