import ConditionsCore
import ConditionsModules
import ConditionsServer
import Foundation
import HummingbirdTesting
import Logging

/// `conditions serve`'s server in this test process: the config in a folder loaded as the
/// command loads it, and the whole HTTP stack (Hummingbird's HTTP/1 server with the
/// cached-answer handler in front of the router, and the event hub) listening on a free
/// loopback port through HummingbirdTesting's live mode. Requests go over real sockets, so
/// concurrency and connection handling are the server's own.
///
/// For what the API answers. What only a process shows (signals and the exit status, what it
/// writes on stderr, limits of the process) stays with `ServeProcess`, through the binary.
/// The modules the program registers, as `conditions` links them.
package let registered = SourceCatalog(RegisteredModules.all)

package struct InProcessServer: ServedHTTP {
    package let port: Int
    /// The server, for tests that look inside (its coordinator, its metrics).
    package let server: ConditionsServer

    /// Serves the `sources.json` in `directory` for the length of `body`.
    /// `listen`: the address, as `--listen` gives it (nil: the config's `serve.listen`).
    /// `adjust`: changes the resolved settings, for what no config may say (a test's deliberately
    /// broken server). `history`: records in the config's history store, as `serve` does without
    /// `--no-history` (off by default here); `changeFeeds`: what else tells the event streams of
    /// recorded changes.
    package static func with(in directory: URL, environment: [String: String] = [:], listen: String? = "127.0.0.1:0", token: String? = nil,
                     noAuth: Bool = false, catalog: SourceCatalog = registered, history: Bool = false, changeFeeds: [any ChangeFeed] = [],
                     refresh: Bool = false,
                     adjust: (inout ServerSettings) -> Void = { _ in },
                     _ body: @escaping @Sendable (InProcessServer) async throws -> Void) async throws {
        // NIO relies on SIGPIPE being ignored process-wide and ignores it once, at its first
        // socket. Nothing in this process may restore the default afterwards (ExecTests once
        // did, saving the disposition before NIO's first socket and restoring it after); saying
        // it again here keeps this server safe from any such test, present or future.
        signal(SIGPIPE, SIG_IGN)
        let environment = ["HOME": directory.path, "TZ": "UTC"].merging(environment) { $1 }
        var logger = Logger(label: "conditions-serve-test")
        logger.logLevel = .warning
        let configuration = try Configuration.load(try ConfigFile.read(directory.appendingPathComponent("sources.json")), profile: nil, catalog: catalog)
        let runtime = try Runtime(configuration, catalog: catalog, environment: environment, logger: logger)
        var settings = try ServerSettings.resolve(listen: listen, token: token, noAuth: noAuth, configured: configuration.serve,
                                                  environment: environment).settings
        adjust(&settings)
        let cache = try Resolver.CachePolicy(settings: configuration.cache, offline: false, refresh: refresh, noCache: false,
                                             directory: nil, environment: environment)
        let recorder = history ? HistoryRecorder(location: try configuration.history.location(environment: environment), retain: configuration.history.retain,
                                                 catalog: catalog, logger: logger) : nil
        let server = ConditionsServer(runtime: runtime, settings: settings, cachePolicy: cache, logger: logger, history: recorder,
                                      changeFeeds: changeFeeds)
        do {
            try await server.makeApplication(services: [server.eventService]).test(.live) { client in
                guard let port = client.port else { throw HarnessFailure("the live test client has no port") }
                try await body(InProcessServer(port: port, server: server))
            }
        } catch {
            await recorder?.close()
            throw error
        }
        await recorder?.close()
    }
}

/// The harness could not start what it stands up; the test fails with this message.
package struct HarnessFailure: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
