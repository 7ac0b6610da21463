import ConditionsJSON
import ConditionsKit
import Foundation

/// A test-only module that combines others through the host, never importing them:
/// - `both:{a}:{b}` resolves `echo:{a}` and `echo:{b}` and joins their texts; a failed input
///   is said in the data (`missing`), not a failure of the whole;
/// - `strict:{a}` resolves `echo:{a}` and fails when it fails;
/// - `loop:{n}` resolves `loop:{n}` again (a cycle);
/// - `deep:{n}` resolves `deep:{n-1}` down to `deep:0` (a depth of n).
public struct CombineSource: ConditionsSource {
    public static let moduleName = "Combine"
    public static let summary = "Combines echo: answers (tests only)"
    public let routes: [RoutePattern] = ["both:{a}:{b}", "strict:{a}", "loop:{n}", "deep:{n}"]
    public let requiredSchemes = ["echo"]

    public init(configuration: SourceConfiguration) throws {
        let options = configuration.options
        try options.finish()
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        switch location.pattern.text {
        case "both:{a}:{b}":
            let answers = await context.resolve(["echo:\(try location.argument("a"))", "echo:\(try location.argument("b"))"])
            let texts = answers.compactMap { answer -> String? in
                guard case .success(let result) = answer.result else { return nil }
                return result.data["text"]?.stringValue
            }
            let missing = answers.filter { if case .failure = $0.result { true } else { false } }.map { JSONValue.string($0.urn) }
            return SourceResult(data: ["joined": .string(texts.joined(separator: "+")), "missing": .array(missing)], inputs: answers.map(\.input))
        case "strict:{a}":
            let answer = await context.resolve(["echo:\(try location.argument("a"))"])[0]
            switch answer.result {
            case .success(let result): return SourceResult(data: result.data, kind: result.kind, inputs: [answer.input])
            case .failure(let error): throw ConditionsError(error.kind, "\(answer.urn) failed: \(error.message)")
            }
        case "loop:{n}":
            let answer = await context.resolve(["loop:\(try location.argument("n"))"])[0]
            if case .failure(let error) = answer.result { throw error }
            return SourceResult(data: ["n": .string(try location.argument("n"))])
        default:
            guard let n = Int(try location.argument("n")), n >= 0 else { throw ConditionsError.invalidArguments(argument: "n", value: try location.argument("n"), allowed: "0 or more") }
            if n == 0 { return SourceResult(data: ["depth": 0]) }
            let answer = await context.resolve(["deep:\(n - 1)"])[0]
            switch answer.result {
            case .success(let result): return SourceResult(data: ["depth": .int((result.data["depth"]?.intValue ?? 0) + 1)], inputs: [answer.input])
            case .failure(let error): throw error
            }
        }
    }
}
