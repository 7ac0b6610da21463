import ConditionsCore
import ConditionsKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// `conditions serve` as a library: the HTTP API over one shared `ResultCoordinator`, with
/// caching headers, authentication, limits, events and metrics. The executable only parses
/// options and calls `run`.
package struct ConditionsServer: Sendable {
    /// The loaded configuration.
    package let runtime: Runtime
    /// Address, token, CORS and limits.
    package let settings: ServerSettings
    /// The coordinator every request resolves through.
    package let coordinator: ResultCoordinator
    /// The metrics `/metrics` renders.
    package let metrics: ServerMetrics
    /// One watcher per URN for `/v1/events`.
    let events: EventHub
    /// The event hub as the service `makeApplication` needs beside it (tests run it in process).
    package var eventService: any Service { events }
    /// Where every fresh resolution is recorded and `/v1/history` reads; nil with `--no-history`.
    let history: HistoryRecorder?
    let logger: Logger
    /// URNs this configuration answers (`Runtime.exampleURNs`), for hints and the documents.
    package let exampleURNs: [String]
    /// What replicas share through PostgreSQL (`"history": {"url"}`); nil for a server alone.
    let fleet: FleetDatabase?
    /// Sends the notify rules' notices; nil when the config has no rules.
    package var notifier: Notifier?
    /// The broker the `mqtt` section's Home Assistant devices are published to
    /// (`HomeAssistantPublisher`), and the connection's status for `/readyz`; nil without one.
    package var homeAssistant: HomeAssistantConnection?
    /// Where changes recorded by this process, or by another replica, are heard.
    let changeFeeds: [any ChangeFeed]

    /// A server over `runtime`, with the on-disk cache of `cachePolicy` behind its memory,
    /// recording in `history`; with `fleet`, the database replicas share, asked for an upstream
    /// document before this one fetches it. Its event streams hear of the changes `history`
    /// records and of those `changeFeeds` tell of (recorded by another process or replica).
    package init(runtime: Runtime, settings: ServerSettings, cachePolicy: Resolver.CachePolicy, logger: Logger,
                 history: HistoryRecorder? = nil, fleet: FleetDatabase? = nil, changeFeeds: [any ChangeFeed] = []) {
        self.runtime = runtime
        self.fleet = fleet
        exampleURNs = runtime.exampleURNs
        self.history = history
        self.settings = settings
        self.logger = logger
        let metrics = ServerMetrics()
        self.metrics = metrics
        let coordinator = ResultCoordinator(runtime: runtime, cachePolicy: cachePolicy, limits: settings.memoryCache, logger: logger, metrics: metrics, history: history,
                                            share: fleet)
        self.coordinator = coordinator
        // A fleet announces every change any replica stores, this one's included (read once:
        // the hub sends a change to a stream only if it is newer than what that stream showed).
        let feeds: [any ChangeFeed] = (history.map { [$0.changes] } ?? []) + (fleet.map { [$0] } ?? []) + changeFeeds
        self.changeFeeds = feeds
        self.events = EventHub(coordinator: coordinator, history: history, feeds: feeds, metrics: metrics, logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting, lets requests in flight finish
    /// (for at most `settings.shutdownGrace`), ends event streams and returns.
    /// `announce` receives the bound address (`127.0.0.1:53124`) once the server listens.
    package func run(announce: @escaping @Sendable (String) -> Void) async throws {
        let app = makeApplication(announce: announce)
        // Shut down in reverse order: the event hub first, so open streams end and the
        // application's drain only waits for ordinary requests.
        // The fleet's connections last longest, so the last changes recorded still reach it.
        let fleetService: [ServiceGroupConfiguration.ServiceConfiguration] = fleet.map { [.init(service: FleetService(fleet: $0))] } ?? []
        let group = ServiceGroup(configuration: .init(
            services: fleetService + [.init(service: app), .init(service: events)]
                + (notifier.map { [.init(service: NoticePollers(notifier: $0, server: self))] } ?? [])
                + (homeAssistant.map { [.init(service: HomeAssistantPublisher(connection: $0, server: self))] } ?? []),
            gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [],
            logger: logger).withShutdownGrace(settings.shutdownGrace))
        try await group.run()
        await history?.close()
    }

    /// Hummingbird's HTTP/1 server over `makeRouter()`, with fresh answers from memory given
    /// in front of it (`CachedAnswers`): what `run` serves, and what tests drive in process
    /// (HummingbirdTesting's live mode, with `eventService` among `services`; `package`, so the
    /// serve harness builds in a release build, where nothing is `@testable`).
    package func makeApplication(services: [any Service] = [], announce: @escaping @Sendable (String) -> Void = { _ in }) -> some ApplicationProtocol {
        let answers = CachedAnswers(coordinator: coordinator, policy: policy, metrics: metrics, logger: logger)
        let idleTimeout = settings.idleTimeout
        let settings = settings
        return Application(
            router: makeRouter(),
            server: HTTPServerBuilder { responder in ServerChannel(responder: responder, idleTimeout: idleTimeout, answers: answers) },
            configuration: .init(address: .hostname(settings.listen.host, port: settings.listen.port), serverName: nil),
            services: services,
            onServerRunning: { channel in
                let host = settings.listen.host
                let port = channel.localAddress?.port ?? settings.listen.port
                announce(host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
            },
            logger: logger)
    }

    /// The rules every request meets, whichever path answers it.
    var policy: RequestPolicy { RequestPolicy(settings: settings, secrets: runtime.secrets) }

    func makeRouter() -> Hummingbird.Router<ServerRequestContext> {
        // HEAD is GET without the body (RFC 9110, 9.3.2), on every path that answers GET.
        let router = Hummingbird.Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        let allowed = AllowedMethods()
        router.add(middleware: FrontMiddleware(policy: policy, allowed: allowed, metrics: metrics, logger: logger))
        let api = API(server: self)
        router.get("/healthz") { _, _ in api.text("ok\n") }
        router.get("/readyz") { _, _ in api.ready() }
        router.get("/metrics") { _, _ in api.text(metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8") }
        router.get("/v1/routes") { request, _ in api.json(api.routes(), request: request) }
        router.get("/v1/sources") { request, _ in api.json(api.sources(), request: request) }
        router.get("/v1/urn/**") { request, _ in await api.single(request) }
        router.get("/v1/resolve") { request, _ in
            try await api.many(try API.urns(query: request.uri.queryParameters.getAll("urn").map { String($0) }, examples: exampleURNs), request: request)
        }
        router.post("/v1/resolve") { request, _ in
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: ServerSettings.maximumBodyBytes)
            } catch is NIOTooManyBytesError {
                throw API.RequestError(status: .contentTooLarge, kind: .tooLarge, message: "request body over \(ServerSettings.maximumBodyBytes) bytes")
            }
            return try await api.many(try API.urns(body: Data(buffer: body), examples: exampleURNs), request: request)
        }
        router.get("/v1/events") { request, context in try api.stream(request, closing: context.channel.closeFuture) }
        router.get("/v1/history/**") { request, _ in try await api.history(request) }
        let openAPI: Result<OpenAPIDocument, OpenAPIDocument.Unusable>
        do {
            openAPI = .success(try OpenAPIDocument.load(examples: .init(runtime: runtime, urns: exampleURNs)))
        } catch {
            logger.warning("openapi: \(error.message)")
            openAPI = .failure(error)
        }
        router.get("/v1/openapi.json") { request, _ in
            switch openAPI {
            case .success(let document):
                api.body(document.body, etag: document.etag, contentType: "application/json", request: request, status: .ok, maxAge: 0, lastModified: nil)
            case .failure(let unusable):
                API.errorResponse(status: .internalServerError, kind: .internal, message: unusable.message)
            }
        }
        Dashboard.addRoutes(to: router, server: self)
        // A CORS preflight is answered on every path (FrontMiddleware).
        allowed.record(router.routes, everywhere: settings.cors.isEmpty ? [] : [.options])
        return router
    }
}

/// Runs the fleet's connections until graceful shutdown.
struct FleetService: Service {
    let fleet: FleetDatabase

    func run() async throws {
        await cancelWhenGracefulShutdown { await fleet.run() }
    }
}

extension ServiceGroupConfiguration {
    func withShutdownGrace(_ grace: Duration) -> ServiceGroupConfiguration {
        var copy = self
        copy.maximumGracefulShutdownDuration = grace
        return copy
    }
}
