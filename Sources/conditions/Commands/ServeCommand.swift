import ArgumentParser
import ConditionsCore
import ConditionsProcess
import ConditionsServer
import Foundation

/// `conditions serve`: the same URNs over HTTP (see docs/server.md), in this process.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve URNs over HTTP: /v1/urn/{urn}, /v1/resolve, /v1/events, /metrics, the dashboard at / (see docs/server.md).",
        discussion: """
        Listens on 127.0.0.1:8080 unless --listen or "serve": {"listen"} says otherwise, and \
        prints "listening on http://HOST:PORT" on stderr once it accepts connections (port 0 \
        picks a free one). Any address other than loopback needs a bearer token (--token, \
        CONDITIONS_SERVE_TOKEN or "serve": {"token": "${…}"}) or --no-auth. Prefer the \
        environment or the config for the token: a command line shows in `ps`.

        Examples:
          conditions serve                              # 127.0.0.1:8080
          conditions serve --listen 127.0.0.1:0 -v      # any free port, log requests
          CONDITIONS_SERVE_TOKEN=$(openssl rand -hex 32) \\
            conditions serve --listen 0.0.0.0:8080
          conditions serve --profile offline --no-cache # fixtures, no disk cache
          curl -s localhost:8080/v1/urn/\(HelpExamples.urn(2)) | jq .data
          curl -s localhost:8080/v1/openapi.json        # OpenAPI 3.1

        Every fresh resolution is recorded in the history store, committed before it is \
        answered (GET /v1/history/{urn}; 'conditions history --help'); --no-history records \
        nothing.

        With an "mqtt" section in sources.json, each of its URNs (default: the report list) \
        is published to Home Assistant as a device over MQTT discovery (docs/home-assistant.md); \
        with "notify" rules, changes are pushed to ntfy, webhooks or Apprise \
        (docs/notifications.md).

        SIGTERM or Ctrl-C stops accepting, lets requests in flight finish (at most 10 s), ends \
        event streams and exits 0.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions
    @OptionGroup var history: HistoryOptions

    @Option(name: .long, help: ArgumentHelp("Address to listen on (default: config \"serve.listen\", else 127.0.0.1:8080).", valueName: "host:port"))
    var listen: String?

    @Option(name: .long, help: ArgumentHelp("Bearer token clients must send (default: $CONDITIONS_SERVE_TOKEN, else config \"serve.token\").", valueName: "token"))
    var token: String?

    @Flag(name: .long, help: "Serve without authentication off loopback (prints a warning).")
    var noAuth = false

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let server: ConditionsServer
        let recorder: HistoryRecorder?
        do {
            let runtime = try global.loadRuntime(logger: logger)
            let resolved = try ServerSettings.resolve(listen: listen, token: token, noAuth: noAuth,
                                                      configured: runtime.configuration.serve, environment: global.environment)
            if let token = resolved.settings.token { LogSetup.secrets.withLock { _ = $0.insert(token) } }
            if let warning = resolved.warning { write("conditions: \(warning)\n", to: .standardError) }
            recorder = try history.recorder(runtime: runtime, environment: global.environment, logger: logger)
            // A login the database refuses stops the server before it listens (exit 2).
            if let recorder { try await HistoryOptions.checkLogin(recorder.location, logger: logger) }
            // Replicas sharing PostgreSQL share upstream documents and change announcements too.
            var fleet: FleetDatabase?
            if let recorder, case .postgres(let database) = recorder.location {
                let deadline = runtime.configuration.history.fleetTimeout.map { Duration.milliseconds(Int(($0 * 1000).rounded())) } ?? .seconds(2)
                do { fleet = try FleetDatabase(database: database, logger: logger, deadline: deadline) } catch {
                    throw Failure.configuration(ConfigurationError("history: \(database.displayURL): \(error)"))
                }
            }
            var made = ConditionsServer(runtime: runtime, settings: resolved.settings,
                                        cachePolicy: try cache.policy(runtime: runtime, environment: global.environment), logger: logger,
                                        history: recorder, fleet: fleet)
            made.notifier = try await NotifySetup.notifier(runtime: runtime, recorder: recorder, environment: global.environment, logger: logger)
            made.homeAssistant = try HomeAssistantSetup.connection(runtime: runtime, environment: global.environment)
            server = made
        } catch let error as ConfigurationError {
            throw Failure.configuration(error)
        }
        DescriptorLimit.raise(logger: logger)
        do {
            try await server.run { address in write("conditions: listening on http://\(address)\n", to: .standardError) }
        } catch let refused as HomeAssistantPublisher.Refused {
            // The broker refused the credentials before ever accepting them: exit 2, one line.
            SupervisedProcess.terminateAll()
            throw Failure.usage(LogSetup.redact(refused.description))
        } catch {
            throw Failure.usage("serve: \(LogSetup.redact(String(describing: error)))")
        }
        // The drain is bounded, so an Exec program or page render may still run for a request
        // that was not waited for; none outlives the server.
        SupervisedProcess.terminateAll()
    }
}
