import ArgumentParser
import ConditionsCore
import ConditionsMCP
import ConditionsProcess
import Foundation

/// `conditions mcp`: serves the configured sources to AI assistants over the Model Context
/// Protocol on stdin/stdout, in this process.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve conditions as Model Context Protocol tools and resources on stdin/stdout.",
        discussion: """
        For AI assistants: add {"command": "conditions", "args": ["mcp"]} to the client's MCP \
        servers. Tools: resolve, routes, sources; resources: conditions://report and one per \
        route example. Results come from the cache as for reports (--no-cache, --cache-dir, \
        --offline, --refresh), so repeated calls within a source's TTL cost no upstream request. \
        At most 8 calls resolve at once and 64 wait; more are refused with a "server busy" \
        tool error. Logs go to stderr (-v for more); stdout carries only the protocol.

        Examples:
          conditions mcp
          conditions mcp --profile offline --no-cache
          conditions mcp --config sources.json --cache-dir /tmp/conditions-mcp-cache -v
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: logger) } catch { throw Failure.configuration(error) }
        let policy = try cache.policy(runtime: runtime, environment: global.environment)
        // A client stopping the server with a signal (or Ctrl-C in its terminal) does not reach
        // the Exec programs and page renders in their own process groups: they are ended first.
        InterruptSignals.endChildren(then: .dieOfTheSignal)
        let location = try HistoryOptions.location(runtime.configuration.history, environment: global.environment)
        let httpClients = { @Sendable in HTTPClients.make(version: Version.current, logger: logger) }
        do {
            try await ConditionsMCPServer(runtime: runtime, cache: policy, httpClients: httpClients, logger: logger,
                                          historyLocation: location, historyRetain: runtime.configuration.history.retain).run()
        } catch {
            write("conditions: mcp: \(TerminalText.sanitized(LogSetup.redact(String(describing: error)), oneLine: true))\n", to: .standardError)
            throw ExitCode(1)
        }
    }
}
