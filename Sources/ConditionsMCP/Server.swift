import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import MCP
import Synchronization

/// `conditions mcp`: the configured sources as Model Context Protocol tools and resources,
/// served on stdin/stdout. Everything else (logs, diagnostics) goes to stderr, since any stray
/// byte on stdout would corrupt the protocol stream.
package struct ConditionsMCPServer: Sendable {
    let handlers: MCPHandlers
    let logger: Logger

    /// A server answering from `runtime` through `cache`, with `httpClients` making each
    /// call's HTTP client factory (`HTTPClients.make`).
    package init(runtime: Runtime, cache: Resolver.CachePolicy = .init(),
                 httpClients: @escaping @Sendable () -> @Sendable (HTTPLimits) -> any HTTPClient, logger: Logger, historyLocation: HistoryLocation? = nil,
                 historyRetain: Double = Configuration.HistorySettings.defaultRetain) {
        handlers = MCPHandlers(runtime: runtime, cache: cache, httpClients: httpClients, historyLocation: historyLocation, historyRetain: historyRetain)
        self.logger = logger
    }

    /// Serves stdin/stdout until the client closes stdin.
    package func run() async throws {
        let server = await makeServer()
        try await server.start(transport: DrainingTransport(LineTransport(logger: logger), logger: logger)) { [handlers] _, _ in
            handlers.markInitialized()
        }
        await server.waitUntilCompleted()
        await server.stop()
    }

    /// The SDK server with every handler registered; the transport is the caller's.
    package func makeServer() async -> Server {
        // Not `.strict`: the SDK's strict check throws before any response is sent, leaving a
        // client that calls before `initialize` waiting forever. The handlers check instead.
        let server = Server(
            name: "conditions", version: Version.current, title: "Conditions",
            instructions: MCPHandlers.instructions(examples: handlers.examples),
            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { [handlers] _ in
            try handlers.requireInitialized()
            return ListTools.Result(tools: MCPHandlers.tools(examples: handlers.examples))
        }
        await server.withMethodHandler(LenientCallTool.self) { [handlers] parameters in
            try handlers.requireInitialized()
            let (name, arguments) = try MCPHandlers.callParameters(parameters)
            return try await handlers.call(name, arguments: arguments)
        }
        await server.withMethodHandler(ListResources.self) { [handlers] _ in
            try handlers.requireInitialized()
            return ListResources.Result(resources: handlers.resources())
        }
        await server.withMethodHandler(LenientReadResource.self) { [handlers] parameters in
            try handlers.requireInitialized()
            guard let uri = parameters.objectValue?["uri"]?.stringValue else {
                throw MCPError.invalidParams("resources/read takes {\"uri\": string}; resources/list names the resources")
            }
            return try await handlers.read(uri)
        }
        return server
    }
}

/// `tools/call` with its parameters as any JSON. With the SDK's typed parameters, a wrong type
/// (`"name": 5`) fails to decode before any handler runs and the client gets an opaque
/// internal error; taking any value lets the handler say exactly what is wrong.
enum LenientCallTool: Method {
    static let name = CallTool.name
    typealias Parameters = Value
    typealias Result = CallTool.Result
}

/// `resources/read` with its parameters as any JSON, for the same reason as `LenientCallTool`.
enum LenientReadResource: Method {
    static let name = ReadResource.name
    typealias Parameters = Value
    typealias Result = ReadResource.Result
}
