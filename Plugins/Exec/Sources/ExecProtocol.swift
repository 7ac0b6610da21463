import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsProcess
import Foundation

/// The wire format between the host and a program, and what each way a run can end means
/// for the URN.
///
/// Request, one JSON object on stdin followed by a newline:
/// `{"urn", "route", "arguments", "now", "location", "places", "options"}`.
/// Response, one JSON object on stdout: `{"data": …, "fetchedAt"?: "…"}` or
/// `{"error": {"kind": "notFound", "message": "…", "suggestions"?: ["…"]}}`.
enum ExecProtocol {
    /// Longest message taken from a program's error response.
    static let maximumMessageLength = 1000

    /// The request for `location`, serialized.
    static func request(location: Location, context: SourceContext, options: JSONObject) -> Data {
        let arguments = JSONObject(location.arguments.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
        let request: JSONValue = [
            "urn": .string(location.urn.rawValue),
            "route": .string(location.pattern.text),
            "arguments": .object(arguments),
            "now": JSONValue(context.now),
            "location": context.place.json,
            "places": .object(JSONObject(context.places.names.compactMap { name in context.places.place(named: name).map { (name, $0.json) } })),
            "options": .object(options),
        ]
        return Data((request.serialized() + "\n").utf8)
    }

    /// The URN's result, or the error that fails it.
    static func result(of outcome: SupervisedProcess.Outcome, program: String, timeout: Double, maxOutputBytes: Int) throws -> SourceResult {
        let stderr = stderrSuffix(outcome)
        switch outcome.ending {
        case .cancelled:
            throw CancellationError()
        case .timedOut:
            throw ConditionsError(.timeout, "\(program) timed out after \(seconds(timeout)) s\(stderr)")
        case .outputTooLarge:
            throw ConditionsError.badResponse("\(program) printed more than \(maxOutputBytes) bytes\(stderr)")
        case .signaled(let signal):
            throw ConditionsError.upstream("\(program) was killed by signal \(signal)\(SignalName.of(signal).map { " (\($0))" } ?? "")\(stderr)")
        case .exited(let status) where status != 0:
            // A program may report its error properly and still exit non-zero; its own
            // words are better than "exited with status 1".
            if let response = try? JSONValue.parse(outcome.stdout), let error = response["error"], let reported = programError(error) {
                throw reported
            }
            throw ConditionsError.upstream("\(program) exited with status \(status)\(stderr)")
        case .exited:
            return try parse(outcome.stdout, program: program, stderr: stderr)
        }
    }

    /// The response on a successful exit.
    static func parse(_ stdout: Data, program: String, stderr: String) throws -> SourceResult {
        guard stdout.contains(where: { !Set<UInt8>([0x20, 0x09, 0x0A, 0x0D]).contains($0) }) else {
            throw ConditionsError.badResponse("\(program) printed nothing; expected one JSON object, {\"data\": …} or {\"error\": …}\(stderr)")
        }
        let response: JSONValue
        do { response = try JSONValue.parse(stdout) } catch {
            throw ConditionsError.badResponse("\(program) printed invalid JSON at line \(error.line), column \(error.column): \(error.reason)\(stderr)")
        }
        guard let object = response.objectValue else {
            throw ConditionsError.badResponse("\(program) printed \(response.typeName), not an object with \"data\" or \"error\"")
        }
        if let error = object["error"] {
            guard let reported = programError(error) else {
                throw ConditionsError.badResponse("\(program) printed an \"error\" that is not {\"kind\": …, \"message\": \"…\"}")
            }
            throw reported
        }
        guard let data = object["data"] else {
            throw ConditionsError.badResponse("\(program) printed an object with neither \"data\" nor \"error\" (keys: \(object.keys.joined(separator: ", ")))")
        }
        var fetchedAt: Date?
        if let value = object["fetchedAt"], !value.isNull {
            guard let text = value.stringValue, let date = Timestamp.parse(text) else {
                throw ConditionsError.badResponse("\(program) printed fetchedAt \(value.serialized()), not an ISO 8601 date-time")
            }
            fetchedAt = date
        }
        // A program may say what its data is (`"kind": "moon"`) to read through that kind's
        // presentation; anything but a string is ignored rather than failing a good answer.
        return SourceResult(data: data, kind: object["kind"]?.stringValue.map(ResultKind.init(rawValue:)), fetchedAt: fetchedAt)
    }

    /// The error a program reported, or nil when `value` is not `{"kind"?, "message"}`. A kind
    /// outside the vocabulary (`ErrorKind`), or none, is `upstream`; so is `cancelled`, the
    /// host's word for a URN it gave up.
    static func programError(_ value: JSONValue) -> ConditionsError? {
        guard let message = value["message"]?.stringValue else { return nil }
        let named = value["kind"]?.stringValue.flatMap(ErrorKind.init(rawValue:))
        let text = String(message.oneLine().prefix(maximumMessageLength))
        let suggestions = (value["suggestions"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(10).map { $0.oneLine() }
        return ConditionsError(named.flatMap { $0 == .cancelled ? nil : $0 } ?? .upstream, text, suggestions: Array(suggestions))
    }

    /// `; stderr: …` with the tail of stderr on one line, or nothing when it was empty.
    static func stderrSuffix(_ outcome: SupervisedProcess.Outcome) -> String {
        let text = String(decoding: outcome.stderrTail, as: UTF8.self).oneLine()
        guard !text.isEmpty else { return "" }
        return "; stderr: \(outcome.stderrTruncated ? "…" : "")\(text)"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
