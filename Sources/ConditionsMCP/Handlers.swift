import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import MCP
import Synchronization

/// What the server's requests do, apart from the SDK: tools, resources and their limits.
/// Every argument is treated as hostile: a model may send any type, any size.
package final class MCPHandlers: Sendable {
    /// URNs one `resolve` call may ask for; more is a tool error telling the model to split.
    package static let maximumURNs = 100
    /// The longest URN accepted, in UTF-8 bytes: far beyond any real URN, far below what
    /// would make an error message or a log line unwieldy.
    package static let maximumURNBytes = 4096
    /// Calls (`resolve`, `resources/read`) resolving at once: enough for an assistant's
    /// parallel tool calls, few enough that a flood cannot start thousands of fetches.
    package static let maximumConcurrentCalls = 8
    /// Calls waiting for a turn; one more is refused at once with a "server busy" error.
    /// (Both limits are also stated in `conditions mcp --help` and docs/mcp.md.)
    package static let maximumWaitingCalls = 64

    let limiter = CallLimiter(running: maximumConcurrentCalls, waiting: maximumWaitingCalls)
    let runtime: Runtime
    /// URNs this configuration answers, for the instructions, tool descriptions and hints.
    let examples: [String]
    /// The result cache as the CLI uses it: an assistant asking again within a source's TTL
    /// gets the stored answer, and the cache is shared with `conditions` reports.
    let cache: Resolver.CachePolicy
    /// Makes the HTTP client factory of one call (`HTTPClients.make`): identical requests
    /// share one fetch within a call, as within one report, and never across calls, since
    /// the factory keeps every response it coalesced for as long as it lives.
    let httpClients: @Sendable () -> @Sendable (HTTPLimits) -> any HTTPClient
    /// The history store the `history` tool reads; nil: none.
    let historyLocation: HistoryLocation?
    let historyRetain: Double
    private let initialized = Mutex(false)

    /// Handlers answering from `runtime` through `cache`, with `httpClients` making each
    /// call's HTTP client factory, and the `history` tool reading the store at `historyLocation`.
    package init(runtime: Runtime, cache: Resolver.CachePolicy = .init(),
                 httpClients: @escaping @Sendable () -> @Sendable (HTTPLimits) -> any HTTPClient, historyLocation: HistoryLocation? = nil, historyRetain: Double = Configuration.HistorySettings.defaultRetain) {
        self.runtime = runtime
        examples = runtime.exampleURNs
        self.historyLocation = historyLocation
        self.historyRetain = historyRetain
        self.cache = cache
        self.httpClients = httpClients
    }

    /// A resolver for one call, at the current instant.
    func resolver() -> Resolver {
        var resolver = Resolver(runtime: runtime, now: Date(), pinned: false, http: httpClients())
        resolver.cache = cache
        return resolver
    }

    /// Records that the client has sent `initialize`.
    package func markInitialized() { initialized.withLock { $0 = true } }

    /// Throws the protocol error for a request sent before `initialize`.
    package func requireInitialized() throws(MCPError) {
        guard initialized.withLock({ $0 }) else {
            throw MCPError.invalidRequest("Server is not initialized: send \"initialize\" first")
        }
    }

    // MARK: Tools

    /// Shown to the model as the server's instructions; `examples`: URNs this configuration
    /// answers (`Runtime.exampleURNs`).
    package static func instructions(examples: [String]) -> String {
        """
        Outdoor conditions behind URNs such as \(examples.prefix(3).joined(separator: ", ")). \
        Call `routes` to learn which URNs this configuration answers, then `resolve` with up to \
        \(maximumURNs) URNs at once; `history` tells what changed in the past, as far as \
        `conditions watch` or `serve` recorded it.
        """
    }

    /// The tools, with input schemas and descriptions written for a model; `examples`: URNs
    /// this configuration answers.
    package static func tools(examples: [String]) -> [Tool] { [
        Tool(
            name: "resolve",
            title: "Resolve condition URNs",
            description: """
            Fetch current outdoor conditions for one or more URNs, e.g. \
            [\(examples.prefix(3).map { "\"\($0)\"" }.joined(separator: ", "))]. Returns, for each URN in the order asked, a human-readable text block and a JSON \
            result ({"urn", "route", "source", "fetchedAt", "data"}). A URN that cannot be answered is \
            reported in its place as {"urn", "error": {"kind", "message", "suggestions"}} while the other \
            URNs still resolve; use the suggestions or the `routes` tool to correct it. Ask for several \
            URNs in one call rather than calling repeatedly (at most \(maximumURNs) per call).
            """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "urns": [
                        "type": "array",
                        "description": "URNs to resolve, scheme:value (see the routes tool).",
                        "items": ["type": "string", "minLength": 1, "maxLength": .int(maximumURNBytes)],
                        "minItems": 1,
                        "maxItems": .int(maximumURNs),
                    ],
                ],
                "required": ["urns"],
                "additionalProperties": false,
            ],
            annotations: .init(title: "Resolve condition URNs", readOnlyHint: true, idempotentHint: true, openWorldHint: true)),
        Tool(
            name: "routes",
            title: "List URN routes",
            description: """
            List the URN patterns this server answers (scheme:{argument}), with the source and module behind \
            each (several, in the order tried, when a route falls back) and example URNs. Call this first \
            to discover what can be asked of `resolve`.
            """,
            inputSchema: ["type": "object", "properties": [:], "additionalProperties": false],
            annotations: .init(title: "List URN routes", readOnlyHint: true, idempotentHint: true, openWorldHint: false)),
        Tool(
            name: "sources",
            title: "List sources",
            description: """
            List the configured source instances (id, module, the URN schemes routed to each) and every \
            source module this build knows, with what it serves. Options and credentials are never shown.
            """,
            inputSchema: ["type": "object", "properties": [:], "additionalProperties": false],
            annotations: .init(title: "List sources", readOnlyHint: true, idempotentHint: true, openWorldHint: false)),
        historyTool(examples: examples),
    ] }

    /// Runs the tool `name`. An unknown tool is a protocol error (the request names nothing
    /// this server has); invalid arguments are a tool error the model can read and correct.
    package func call(_ name: String, arguments: [String: Value]?) async throws(MCPError) -> CallTool.Result {
        switch name {
        case "resolve":
            switch Self.validateResolve(arguments, examples: examples) {
            case .failure(let message): return Self.toolError(message)
            case .success(let urns):
                switch await limited({ await self.resolve(urns) }) {
                case .success(let result): return result
                case .failure(let refusal): return CallTool.Result(content: [.text(text: refusal.message, annotations: nil, _meta: nil)], isError: true)
                }
            }
        case "routes":
            if let message = Self.rejectArguments(arguments, tool: name) { return Self.toolError(message) }
            return routes()
        case "sources":
            if let message = Self.rejectArguments(arguments, tool: name) { return Self.toolError(message) }
            return sources()
        case "history":
            switch Self.validateHistory(arguments, now: Date(), timeZone: runtime.configuration.place.timeZone ?? .current, examples: examples) {
            case .failure(let message): return Self.toolError(message)
            case .success(let (urn, window)):
                // Limited as resolving is: each call opens the store and reads from disk.
                switch await limited({ await self.history(urn, window) }) {
                case .success(let result): return result
                case .failure(let refusal): return CallTool.Result(content: [.text(text: refusal.message, annotations: nil, _meta: nil)], isError: true)
                }
            }
        default:
            let shown = name.utf8.count > 100 ? String(name.prefix(100)) + "…" : name
            throw MCPError.invalidParams("Unknown tool \"\(shown)\"; the tools are: \(Self.tools(examples: examples).map(\.name).joined(separator: ", "))")
        }
    }

    /// The tool name and arguments of a `tools/call` request's `parameters`, or the protocol
    /// error saying which part has the wrong type.
    package static func callParameters(_ parameters: Value) throws(MCPError) -> (String, [String: Value]?) {
        guard let object = parameters.objectValue else {
            throw MCPError.invalidParams("tools/call takes {\"name\": string, \"arguments\": object}, not \(typeName(parameters))")
        }
        guard let name = object["name"]?.stringValue else {
            throw MCPError.invalidParams("tools/call: \"name\" must be a string naming a tool (\(tools(examples: []).map(\.name).joined(separator: ", ")))")
        }
        switch object["arguments"] {
        case nil, .null?: return (name, nil)
        case .object(let arguments)?: return (name, arguments)
        case let other?: throw MCPError.invalidParams("tools/call: \"arguments\" must be an object, not \(typeName(other))")
        }
    }

    /// The URNs of a `resolve` call, or what is wrong with its arguments.
    package static func validateResolve(_ arguments: [String: Value]?, examples: [String] = []) -> Result<[String], ValidationFailure> {
        guard let arguments, let value = arguments["urns"] else {
            let shown = [ExampleURNs.pick(examples, 0), ExampleURNs.pick(examples, 1)].map { "\"\($0)\"" }.joined(separator: ", ")
            return .failure(ValidationFailure("missing \"urns\": pass {\"urns\": [\(shown)]}"))
        }
        if let extra = arguments.keys.filter({ $0 != "urns" }).sorted().first {
            return .failure(ValidationFailure("unknown argument \"\(extra.prefix(100))\"; resolve takes only \"urns\""))
        }
        guard let items = value.arrayValue else {
            return .failure(ValidationFailure("\"urns\" must be an array of strings, not \(typeName(value))"))
        }
        guard !items.isEmpty else { return .failure(ValidationFailure("\"urns\" is empty; give at least one URN")) }
        guard items.count <= maximumURNs else {
            return .failure(ValidationFailure("\"urns\" has \(items.count) URNs; at most \(maximumURNs) per call, split the list"))
        }
        var urns: [String] = []
        urns.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let urn = item.stringValue else {
                return .failure(ValidationFailure("urns[\(index)] must be a string, not \(typeName(item))"))
            }
            guard urn.utf8.count <= maximumURNBytes else {
                return .failure(ValidationFailure("urns[\(index)] is \(urn.utf8.count) bytes; a URN is at most \(maximumURNBytes)"))
            }
            guard !urn.isEmpty else { return .failure(ValidationFailure("urns[\(index)] is empty")) }
            urns.append(urn)
        }
        return .success(urns)
    }

    /// A message saying why a tool's arguments were refused.
    package struct ValidationFailure: Error, Equatable {
        /// What is wrong and how to fix it, for the model to read.
        package let message: String
        init(_ message: String) { self.message = message }
    }

    static func rejectArguments(_ arguments: [String: Value]?, tool: String) -> ValidationFailure? {
        guard let key = arguments?.keys.sorted().first else { return nil }
        return ValidationFailure("\(tool) takes no arguments; got \"\(key.prefix(100))\"")
    }

    static func typeName(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .data: "data"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Why a call that resolves did not run.
    package struct Refusal: Error {
        /// For the model (tool calls) or the client (resource reads) to read.
        package let message: String
    }

    /// Runs `work` once the limiter admits it, or says why it did not run.
    func limited<T: Sendable>(_ work: @Sendable () async -> T) async -> Result<T, Refusal> {
        switch await limiter.acquire() {
        case .admitted:
            let result = await work()
            await limiter.release()
            return .success(result)
        case .refused:
            return .failure(Refusal(message: """
                Server busy: \(Self.maximumConcurrentCalls) calls are resolving and \(Self.maximumWaitingCalls) more are waiting, \
                the most this server takes; retry once earlier calls have answered
                """))
        case .cancelled:
            return .failure(Refusal(message: "Cancelled before it started: the call was waiting for a turn"))
        }
    }

    static func toolError(_ failure: ValidationFailure) -> CallTool.Result {
        CallTool.Result(content: [.text(text: "Invalid arguments: \(failure.message)", annotations: nil, _meta: nil)], isError: true)
    }

    func resolve(_ urns: [String]) async -> CallTool.Result {
        // A URN several chains answered (`pass:all` of two states) is a result per answer.
        let records = await resolver().resolve(urns).flatMap(\.answers)
        var content: [Tool.Content] = records.map { .text(text: text(for: $0), annotations: nil, _meta: nil) }
        let results = records.map(\.json)
        content.append(.text(text: JSONValue.array(results).serialized(pretty: true), annotations: nil, _meta: nil))
        return CallTool.Result(content: content, structuredContent: .object(["results": .array(results.map(Value.init(json:)))]))
    }

    /// What `conditions` prints for `record`, uncoloured; a failure with its suggestions.
    func text(for record: ResultRecord) -> String {
        switch record.outcome {
        case .success(_, _, let fetchedAt, let data, let staleAge):
            let place = runtime.configuration.place
            let renderer = TextRenderer(catalog: runtime.catalog, style: TextStyle(enabled: false), timeZone: place.timeZone ?? .current, placeName: place.name)
            var lines = renderer.render(urn: record.urn, data: TerminalText.sanitized(data), kind: record.kind)
            if let staleAge {
                lines.append("  stale: upstream failed; showing the result fetched \(renderer.localTime(fetchedAt, withDate: true)) (\(TextRenderer.age(staleAge)) ago)")
            }
            return lines.joined(separator: "\n")
        case .failure(let kind, let message, let suggestions):
            var text = "\(record.urn): \(kind.rawValue): \(message)"
            if !suggestions.isEmpty { text += "\n  try: " + suggestions.joined(separator: " ") }
            return TerminalText.sanitized(text)
        }
    }

    func routes() -> CallTool.Result {
        let rows = runtime.router.routes.map(\.json)
        let table = Table(headers: ["PATTERN", "SOURCE", "MODULE", "EXAMPLES"], rows: runtime.router.routes.map { route in
            [route.pattern.text, route.handler.sourcesText, route.handler.modulesText, route.examples.joined(separator: " ")]
        })
        return CallTool.Result(content: [.text(text: table.rendered(), annotations: nil, _meta: nil)],
                               structuredContent: .object(["routes": .array(rows.map(Value.init(json:)))]))
    }

    func sources() -> CallTool.Result {
        // Only ids, module names and schemes: options (where secrets live) never leave the process.
        let configuration = runtime.configuration
        let instances: [JSONValue] = runtime.instances.map { instance in
            let schemes = configuration.schemes(of: instance.id)
            return ["id": .string(instance.id), "module": .string(instance.module), "schemes": .array(schemes.map(JSONValue.string))]
        }
        let modules: [JSONValue] = runtime.catalog.modules.map { ["module": .string($0.moduleName), "serves": .string($0.summary)] }
        var text = "Instances:\n"
        text += Table(headers: ["ID", "MODULE", "ROUTED SCHEMES"], rows: instances.map { row in
            [row["id"]?.stringValue ?? "", row["module"]?.stringValue ?? "",
             (row["schemes"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")]
        }).rendered(indent: 2)
        text += "\nModules:\n"
        text += Table(headers: ["MODULE", "SERVES"], rows: runtime.catalog.modules.map { [$0.moduleName, $0.summary] }).rendered(indent: 2)
        let structured: JSONValue = ["instances": .array(instances), "modules": .array(modules)]
        return CallTool.Result(content: [.text(text: LogSetup.redact(text), annotations: nil, _meta: nil)],
                               structuredContent: Optional.some(Value(json: structured)))
    }

    // MARK: Resources

    /// The report resource's address.
    package static let reportURI = "conditions://report"
    /// Prefix of one URN's resource: `conditions://urn/scheme:name`.
    package static let urnPrefix = "conditions://urn/"

    /// `conditions://report` and one resource per route example.
    package func resources() -> [Resource] {
        var resources = [Resource(
            name: "report", uri: Self.reportURI, title: "Configured report",
            description: "The configuration's report list, resolved now: \(runtime.configuration.report.joined(separator: " "))",
            mimeType: "text/plain")]
        var seen: Set<String> = []
        for route in runtime.router.routes {
            for example in route.examples where seen.insert(example).inserted {
                resources.append(Resource(
                    name: example, uri: Self.uri(for: example), title: example,
                    description: "Current result of \(example) (\(route.pattern.text), source \(route.handler.sourcesText))",
                    mimeType: "text/plain"))
            }
        }
        return resources
    }

    /// The resource address of `urn`: colons stay readable, anything else unsafe is escaped.
    package static func uri(for urn: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return urnPrefix + (urn.addingPercentEncoding(withAllowedCharacters: allowed) ?? urn)
    }

    /// The contents of resource `uri`: the text presentation, then the JSON results.
    package func read(_ uri: String) async throws(MCPError) -> ReadResource.Result {
        let urns: [String]
        if uri == Self.reportURI {
            urns = runtime.configuration.report
        } else if uri.hasPrefix(Self.urnPrefix), uri.utf8.count <= Self.maximumURNBytes * 3,
                  let urn = String(uri.dropFirst(Self.urnPrefix.count)).removingPercentEncoding, !urn.isEmpty {
            urns = [urn]
        } else {
            let shown = uri.utf8.count > 200 ? String(uri.prefix(200)) + "…" : uri
            throw MCPError.invalidParams("Unknown resource \"\(shown)\"; resources/list names them (\(Self.reportURI), \(Self.urnPrefix)<urn>)")
        }
        let records: [ResultRecord]
        switch await limited({ await self.resolver().resolve(urns) }) {
        case .success(let resolved): records = resolved.flatMap(\.answers)
        case .failure(let refusal): throw MCPError.serverError(code: -32000, message: refusal.message)
        }
        let text = records.isEmpty ? "The configuration has no report list." : records.map(text(for:)).joined(separator: "\n")
        return ReadResource.Result(contents: [
            .text(text, uri: uri, mimeType: "text/plain"),
            .text(JSONValue.array(records.map(\.json)).serialized(pretty: true), uri: uri, mimeType: "application/json"),
        ])
    }
}

extension Value {
    /// The MCP SDK's value for a ConditionsKit JSON value; member order is lost (SDK objects
    /// are dictionaries), which JSON allows.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(Value.init(json:)))
        case .object(let object):
            var members: [String: Value] = [:]
            members.reserveCapacity(object.count)
            for (key, value) in object { members[key] = Value(json: value) }
            self = .object(members)
        }
    }
}
