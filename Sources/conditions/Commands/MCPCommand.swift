import ArgumentParser
import ConditionsCore
import Foundation

/// `conditions mcp`: serves the configured sources to AI assistants over the Model Context
/// Protocol on stdin/stdout. The server is the sibling program `conditions-mcp`
/// (ConditionsMCP), exec'd in place of this process: the MCP SDK links FoundationNetworking
/// and so libcurl at start-up, which would slow every other command (LinkingTests).
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve conditions as Model Context Protocol tools and resources on stdin/stdout.",
        discussion: """
        For AI assistants: add {"command": "conditions", "args": ["mcp"]} to the client's MCP \
        servers. Tools: resolve, routes, sources; resources: conditions://report and one per \
        route example. Results come from the cache as for reports (--no-cache, --cache-dir, \
        --offline, --refresh), so repeated calls within a source's TTL cost no upstream request. \
        At most 8 calls resolve at once and 64 wait; more are refused with a "server busy" \
        tool error. Logs go to stderr (-v for more); stdout carries only the protocol. Runs \
        conditions-mcp, installed next to conditions.

        Examples:
          conditions mcp
          conditions mcp --profile offline --no-cache
          conditions mcp --config sources.json --cache-dir /tmp/conditions-mcp-cache -v
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions

    func run() throws {
        // Fail here, in the CLI's words, rather than in the server's first reply.
        let configuration: Configuration
        do { configuration = try global.loadConfiguration() } catch { throw Failure.configuration(error) }
        _ = try cache.policy(settings: configuration.cache, environment: global.environment)
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let server = folder.appendingPathComponent("conditions-mcp").path
        var arguments = ["conditions-mcp"]
        if let config = global.config { arguments += ["--config", config] }
        if let profile = global.profile { arguments += ["--profile", profile] }
        arguments += cache.arguments
        if global.verbose > 0 { arguments.append("-" + String(repeating: "v", count: global.verbose)) }
        let argv = arguments.map { strdup($0) } + [nil]
        execv(server, argv)
        // Only reached when the exec failed.
        let reason = String(cString: strerror(errno))
        throw Failure.usage("mcp: cannot run \(server): \(reason); install conditions-mcp next to conditions (swift build builds both)")
    }
}
