import ArgumentParser
import ConditionsCore
import Foundation

/// `conditions serve`: the same URNs over HTTP (see docs/server.md). The server is the sibling
/// program `conditions-serve` (ConditionsServer), exec'd in place of this process once the
/// options and the config are checked: Hummingbird and SwiftNIO linked into `conditions` made
/// every other command start slower and larger (LinkingTests, docs/performance.md).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve URNs over HTTP: /v1/urn/{urn}, /v1/resolve, /v1/events, /metrics (see docs/server.md).",
        discussion: """
        Listens on 127.0.0.1:8080 unless --listen or "serve": {"listen"} says otherwise, and \
        prints "listening on http://HOST:PORT" on stderr once it accepts connections (port 0 \
        picks a free one). Any address other than loopback needs a bearer token (--token, \
        CONDITIONS_SERVE_TOKEN or "serve": {"token": "${…}"}) or --no-auth.

        Examples:
          conditions serve                              # 127.0.0.1:8080
          conditions serve --listen 127.0.0.1:0 -v      # any free port, log requests
          CONDITIONS_SERVE_TOKEN=$(openssl rand -hex 32) \\
            conditions serve --listen 0.0.0.0:8080
          conditions serve --profile offline --no-cache # fixtures, no disk cache
          curl -s localhost:8080/v1/urn/pass:snoqualmie | jq -r .data.status
          curl -s localhost:8080/v1/openapi.json        # OpenAPI 3.1

        SIGTERM or Ctrl-C stops accepting, lets requests in flight finish (at most 10 s), ends \
        event streams and exits 0. Runs conditions-serve, installed next to conditions; the \
        token reaches it in the environment, never on its command line.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions

    @Option(name: .long, help: ArgumentHelp("Address to listen on (default: config \"serve.listen\", else 127.0.0.1:8080).", valueName: "host:port"))
    var listen: String?

    @Option(name: .long, help: ArgumentHelp("Bearer token clients must send (default: $CONDITIONS_SERVE_TOKEN, else config \"serve.token\").", valueName: "token"))
    var token: String?

    @Flag(name: .long, help: "Serve without authentication off loopback (prints a warning).")
    var noAuth = false

    func run() throws {
        // Fail here, in the CLI's words (as report and watch do), rather than after the exec.
        if cache.offline && (cache.refresh || cache.noCache) {
            throw Failure.usage("--offline cannot be combined with --refresh or --no-cache")
        }
        do { _ = try global.loadConfiguration() } catch { throw Failure.configuration(error) }
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let server = folder.appendingPathComponent("conditions-serve").path
        var environment = global.environment
        if let token { environment["CONDITIONS_SERVE_TOKEN"] = token }
        let argv = (["conditions-serve"] + forwardedArguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(server, argv, envp)
        // Only reached when the exec failed.
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        throw Failure.usage("serve: cannot run \(server): \(reason); install conditions-serve next to conditions (swift build builds both)")
    }

    /// Every option but the token, in `conditions-serve`'s syntax (the same as ours); values
    /// joined with `=`, so one that starts with a dash cannot be read as an option.
    var forwardedArguments: [String] {
        var arguments: [String] = []
        if let config = global.config { arguments.append("--config=" + config) }
        if let profile = global.profile { arguments.append("--profile=" + profile) }
        if global.verbose > 0 { arguments.append("-" + String(repeating: "v", count: global.verbose)) }
        if let listen { arguments.append("--listen=" + listen) }
        if noAuth { arguments.append("--no-auth") }
        arguments += cache.arguments
        return arguments
    }
}
