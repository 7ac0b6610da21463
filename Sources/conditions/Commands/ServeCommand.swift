import ArgumentParser
import ConditionsCore
import ConditionsServer
import Foundation

/// `conditions serve`: the same URNs over HTTP (see docs/server.md). The work is in the
/// ConditionsServer library; this only gathers options.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve URNs over HTTP: /v1/urn/{urn}, /v1/resolve, /v1/events, /metrics (see docs/server.md).",
        discussion: """
        Listens on 127.0.0.1:8080 unless --listen or "serve": {"listen"} says otherwise, and \
        prints "listening on http://HOST:PORT" on stderr once it accepts connections (port 0 \
        picks a free one). Any address other than loopback needs a bearer token (--token, \
        CONDITIONS_SERVE_TOKEN or "serve": {"token": "${…}"}) or --no-auth.

        SIGTERM or Ctrl-C stops accepting, lets requests in flight finish (at most 10 s), ends \
        event streams and exits 0.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Address to listen on (default: config \"serve.listen\", else 127.0.0.1:8080).", valueName: "host:port"))
    var listen: String?

    @Option(name: .long, help: ArgumentHelp("Bearer token clients must send (default: $CONDITIONS_SERVE_TOKEN, else config \"serve.token\").", valueName: "token"))
    var token: String?

    @Flag(name: .long, help: "Serve without authentication off loopback (prints a warning).")
    var noAuth = false

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: logger) } catch { throw Failure.configuration(error) }
        let resolved: (settings: ServerSettings, warning: String?)
        do {
            resolved = try ServerSettings.resolve(listen: listen, token: token, noAuth: noAuth, configured: runtime.configuration.serve,
                                                  environment: global.environment)
        } catch { throw Failure.configuration(error) }
        if let token = resolved.settings.token { LogSetup.secrets.withLock { _ = $0.insert(token) } }
        if let warning = resolved.warning { write("conditions: \(warning)\n", to: .standardError) }

        let settings = runtime.configuration.cache
        let cachePolicy = settings.enabled
            ? Resolver.CachePolicy(store: ResultCache(directory: settings.directory ?? ResultCache.defaultDirectory(environment: global.environment)))
            : Resolver.CachePolicy()
        let server = ConditionsServer(runtime: runtime, settings: resolved.settings, cachePolicy: cachePolicy, logger: logger)
        do {
            try await server.run { address in write("conditions: listening on http://\(address)\n", to: .standardError) }
        } catch {
            throw Failure.usage("serve: \(error)")
        }
    }
}
