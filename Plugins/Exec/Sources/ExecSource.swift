import ConditionsJSON
import ConditionsKit
import ConditionsProcess
import Foundation

/// Answers URNs by running a program of your own, in any language: one run per URN, a JSON
/// request on its stdin, one JSON response on its stdout.
///
/// ```json
/// "exec-ferries": { "module": "Exec", "options": {
///     "command": ["python3", "ferries.py"], "routes": ["ferry:{route}"],
///     "timeout": 5, "maxOutputBytes": 1048576 } }
/// ```
///
/// The program runs without a shell, in the config file's folder, in its own process group,
/// with a minimal environment (`PATH`, `HOME`, `LANG`, `TZ` and the `environment` option).
/// Its response is data and nothing else: it cannot make the host read files or run
/// anything. A timeout, a crash, a non-zero exit, invalid JSON or too much output fails
/// that URN only, with the tail of the program's stderr in the message.
public struct ExecSource: ConditionsSource {
    public static let moduleName = "Exec"
    public static let summary = "Runs a program of your own (any language) per URN: JSON request on stdin, JSON response on stdout"
    /// `sample.json`, compiled in: what `conditions config init --module Exec` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// The program's extra environment: it is where an API key for the program goes. Its
    /// members with secret-looking names (`FERRY_API_KEY`, `TOKEN`) are masked; others
    /// (`LANG`, `DEBUG`) are not, since masking short ordinary values would garble output.
    public static let secretOptions: Set<String> = ["environment"]

    public let routes: [RoutePattern]
    public let examples: [String]

    let process: SupervisedProcess
    /// Seconds from spawn until the program is terminated (SIGTERM, SIGKILL a second later).
    let timeout: Double
    /// More stdout than this ends the program.
    let maxOutputBytes: Int
    /// The `options` option, passed through to the program in every request.
    let programOptions: JSONObject
    /// How errors name the program: the command as configured.
    let displayName: String

    /// The names copied from the host's environment; everything else the program gets
    /// must be given in the `environment` option, so secrets stay out unless passed.
    static let inheritedVariables = ["PATH", "HOME", "LANG", "TZ"]
    /// How much of the end of stderr is kept for error messages.
    static let stderrTailBytes = 2048

    public init(configuration: SourceConfiguration) throws {
        try self.init(configuration: configuration, hostEnvironment: ProcessInfo.processInfo.environment)
    }

    /// As `init(configuration:)`, with the host environment the program's is drawn from.
    init(configuration: SourceConfiguration, hostEnvironment: [String: String]) throws {
        var options = configuration.options
        let path = options.path

        guard let command = try options.strings("command"), let program = command.first else {
            throw ConditionsError.configuration("\(path).command: expected the program and its arguments, as in [\"python3\", \"plugin.py\"]")
        }

        guard let patterns = try options.strings("routes"), !patterns.isEmpty else {
            throw ConditionsError.configuration("\(path).routes: expected the URN patterns the program serves, as in [\"ferry:{route}\"]")
        }
        routes = try patterns.enumerated().map { index, text in try Self.pattern(text, path: "\(path).routes[\(index)]") }

        let examples = try options.strings("examples") ?? []
        for (index, example) in examples.enumerated() {
            do { _ = try URN(example) } catch {
                throw ConditionsError.configuration("\(path).examples[\(index)]: \(error.message)")
            }
        }
        self.examples = examples

        let timeout = try options.double("timeout", in: 0.1...600) ?? 10
        let maxOutputBytes = try options.int("maxOutputBytes", in: 1...(256 << 20)) ?? 1 << 20
        programOptions = try options.object("options")?.object ?? JSONObject()

        var environment = hostEnvironment.filter { Self.inheritedVariables.contains($0.key) }
        if let extra = try options.object("environment") {
            for (name, value) in extra.object {
                guard !name.isEmpty, !name.contains("="), !name.contains("\0") else {
                    throw ConditionsError.configuration("\(extra.path): \"\(name)\" is not a valid environment variable name")
                }
                guard let string = value.stringValue, !string.contains("\0") else {
                    throw ConditionsError.configuration("\(extra.path).\(name): expected a string, found \(value.typeName)")
                }
                environment[name] = string
            }
        }
        try options.finish()

        let executable = try ProgramLocator.locate(program, path: "\(path).command[0]",
                                                   configDirectory: configuration.configDirectory,
                                                   searchPath: hostEnvironment["PATH"])
        let fullCommand = command.joined(separator: " ")
        displayName = fullCommand.count <= 80 ? fullCommand : fullCommand.prefix(79) + "…"
        self.timeout = timeout
        self.maxOutputBytes = maxOutputBytes
        process = SupervisedProcess(
            program: executable, argv0: command[0], arguments: Array(command.dropFirst()), environment: .exactly(environment),
            workingDirectory: configuration.configDirectory.path,
            output: .collect(limit: maxOutputBytes, stderrTail: Self.stderrTailBytes),
            timeout: .milliseconds(Int64((timeout * 1000).rounded())), onTimeout: .terminate(grace: .seconds(1)),
            // Nothing the program started may outlive its answer or hold its pipes open.
            leftovers: .kill)
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let request = ExecProtocol.request(location: location, context: context, options: programOptions)
        let started = ContinuousClock.now
        let outcome: SupervisedProcess.Outcome
        do { outcome = try await process.run(input: request) } catch {
            throw ConditionsError.upstream("cannot run \(displayName): \(error)")
        }
        context.logger.debug("\(displayName) for \(location.urn): \(outcome.ending) after \(ContinuousClock.now - started), \(outcome.stdout.count) bytes")
        return try ExecProtocol.result(of: outcome, program: displayName, timeout: timeout, maxOutputBytes: maxOutputBytes)
    }

    /// A route pattern from the options, which must start with a literal scheme: an Exec
    /// instance serves exactly the schemes its program knows.
    static func pattern(_ text: String, path: String) throws(ConditionsError) -> RoutePattern {
        let pattern = RoutePattern(text)
        let segmentsValid = pattern.segments.allSatisfy { segment in
            if case .literal(let literal) = segment { return !literal.isEmpty && !literal.contains("{") && !literal.contains("}") }
            return true
        }
        guard segmentsValid, pattern.segments.count >= 2, let scheme = pattern.scheme, (try? URN(scheme + ":x")) != nil else {
            throw ConditionsError.configuration("\(path): \"\(text)\" is not a route pattern starting with a scheme, as in \"ferry:{route}\"")
        }
        return pattern
    }
}
