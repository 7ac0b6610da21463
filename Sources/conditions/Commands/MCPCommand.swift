import ArgumentParser
import ConditionsCore
import ConditionsMCP
import Foundation

/// `conditions mcp`: serves the configured sources to AI assistants over the Model Context
/// Protocol on stdin/stdout (the work is in ConditionsMCP).
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve conditions as Model Context Protocol tools and resources on stdin/stdout.",
        discussion: """
        For AI assistants: add {"command": "conditions", "args": ["mcp"]} to the client's MCP \
        servers. Tools: resolve, routes, sources; resources: conditions://report and one per \
        route example. Logs go to stderr (-v for more); stdout carries only the protocol.
        """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: logger) } catch { throw Failure.configuration(error) }
        let server = ConditionsMCPServer(runtime: runtime, http: HTTPClients.make(version: Version.current, logger: logger), logger: logger)
        try await server.run()
    }
}
