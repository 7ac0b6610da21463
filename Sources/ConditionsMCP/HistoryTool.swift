import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import MCP

/// The `history` tool: the changes `watch` and `serve` recorded, read from the history store.
/// It opens the store for each call and creates none: the MCP server itself records nothing.
extension MCPHandlers {
    /// At most this many changes per URN in one answer (the latest of the window): a model's
    /// context is no place for a year of a flapping source.
    package static let maximumHistoryChanges = 200

    /// The tool; `examples`: URNs this configuration answers.
    static func historyTool(examples: [String]) -> Tool { Tool(
        name: "history",
        title: "Recorded changes of a URN",
        description: """
        The changes `conditions watch` and `conditions serve` recorded for a URN: one entry per change of \
        its state (the status its source reports), with when it was first and last seen and the full \
        result then. Answers questions like "when did this last change?" or "how often was it in that \
        state this month?". `since` and `until` are durations \
        back from now ("7d", "36h") or ISO 8601 dates or date-times; the default is the last 7 days. \
        At most \(maximumHistoryChanges) changes per URN, the latest.
        """,
        inputSchema: [
            "type": "object",
            "properties": [
                "urn": ["type": "string", "minLength": 1, "maxLength": .int(maximumURNBytes), "description": .string("The URN, e.g. \(ExampleURNs.pick(examples, 0)).")],
                "since": ["type": "string", "description": "Start: \"7d\", \"36h\", \"2026-11-01\" (default 7d)."],
                "until": ["type": "string", "description": "End, as since (default now)."],
            ],
            "required": ["urn"],
            "additionalProperties": false,
        ],
        annotations: .init(title: "Recorded changes of a URN", readOnlyHint: true, idempotentHint: false, openWorldHint: false)) }

    /// The URN and window of a `history` call, or what is wrong with its arguments.
    static func validateHistory(_ arguments: [String: Value]?, now: Date, timeZone: TimeZone, examples: [String] = []) -> Result<(String, HistoryWindow), ValidationFailure> {
        guard let arguments, let value = arguments["urn"] else {
            return .failure(ValidationFailure("missing \"urn\": pass {\"urn\": \"\(ExampleURNs.pick(examples, 0))\", \"since\": \"30d\"}"))
        }
        if let extra = arguments.keys.filter({ !["urn", "since", "until"].contains($0) }).sorted().first {
            return .failure(ValidationFailure("unknown argument \"\(extra.prefix(100))\"; history takes \"urn\", \"since\" and \"until\""))
        }
        guard let urn = value.stringValue, !urn.isEmpty else { return .failure(ValidationFailure("\"urn\" must be a non-empty string, not \(typeName(value))")) }
        guard urn.utf8.count <= maximumURNBytes else {
            return .failure(ValidationFailure("\"urn\" is \(urn.utf8.count) bytes; a URN is at most \(maximumURNBytes)"))
        }
        var texts: [String: String] = [:]
        for name in ["since", "until"] {
            guard let given = arguments[name], given != .null else { continue }
            guard let text = given.stringValue, text.utf8.count <= 100 else {
                return .failure(ValidationFailure("\"\(name)\" must be a short string such as \"7d\" or \"2026-11-01\", not \(typeName(given))"))
            }
            texts[name] = text
        }
        do {
            return .success((urn, try HistoryWindow(since: texts["since"], until: texts["until"], now: now, timeZone: timeZone, inEitherOrder: true)))
        } catch {
            return .failure(ValidationFailure(error.message))
        }
    }

    /// The recorded changes of `urn` in `window`: a line per change, then the JSON.
    func history(_ urn: String, _ window: HistoryWindow) async -> CallTool.Result {
        guard let location = historyLocation else {
            return CallTool.Result(content: [.text(text: "This server has no history store configured.", annotations: nil, _meta: nil)], isError: true)
        }
        let logger = Logger(label: "conditions.mcp.history")
        let changes: [HistoryChange]
        let truncated: Bool
        do {
            guard let store = try await location.openIfPresent(retain: historyRetain, logger: logger) else {
                return historyAnswer(urn, window, [], truncated: false, note: "Nothing recorded yet: no history store at \(location). `conditions watch` and `conditions serve` record one.")
            }
            do {
                (changes, truncated) = try await store.changes(urn: urn, from: window.from, to: window.to, limit: Self.maximumHistoryChanges)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        } catch {
            return CallTool.Result(content: [.text(text: "The history store cannot be read: \(error)", annotations: nil, _meta: nil)], isError: true)
        }
        return historyAnswer(urn, window, changes, truncated: truncated, note: nil)
    }

    private func historyAnswer(_ urn: String, _ window: HistoryWindow, _ changes: [HistoryChange], truncated: Bool, note: String?) -> CallTool.Result {
        let place = runtime.configuration.place
        let renderer = TextRenderer(catalog: runtime.catalog, style: TextStyle(enabled: false), timeZone: place.timeZone ?? .current, placeName: place.name)
        let period = "\(renderer.localTime(window.from, withDate: true)) to \(renderer.localTime(window.to, withDate: true))"
        var lines = ["\(urn): \(changes.count) change\(changes.count == 1 ? "" : "s") recorded from \(period)\(truncated ? " (the latest \(changes.count); earlier ones left out)" : "")"]
        if let note { lines.append(note) }
        for change in changes {
            var line = "  \(renderer.localTime(change.firstSeen, withDate: true))  \(change.status)"
            if change.observations > 1 { line += " (seen until \(renderer.localTime(change.lastSeen, withDate: true)), \(change.observations) times)" }
            lines.append(TerminalText.sanitized(line))
        }
        let structured: JSONValue = [
            "urn": .string(urn), "since": JSONValue(window.from), "until": JSONValue(window.to),
            "truncated": .bool(truncated), "changes": .array(changes.map(\.json)),
        ]
        return CallTool.Result(content: [.text(text: lines.joined(separator: "\n"), annotations: nil, _meta: nil)],
                               structuredContent: Optional.some(Value(json: structured)))
    }
}
