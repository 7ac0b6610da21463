import ArgumentParser
import ConditionsCore
import ConditionsKit
import Foundation

/// `conditions doctor`: whether every route's sources answer now, what the modules need, the
/// cache and history folders and the clock, each with its fix (`Doctor`).
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Ask every source of every route once, check what each module needs, the cache and history folders and the clock, and say how to fix what does not work.",
        discussion: """
        Each route's example URN (the config's report list first) is asked of every instance in \
        its chain, nothing cached, each request given --timeout seconds at most. A route whose \
        first instance fails while a fallback answers is a warning: WSDOT's feed is undocumented, \
        and this is where you learn that its pages still answer.

        Exit status: 0 when every route answers (warnings included), 1 when a route has no \
        working instance, a folder cannot be written or the clock is over 5 minutes off, 2 when \
        the config cannot be loaded.

        \(HelpExamples.block([
            ("conditions doctor", "everything, the shipped config or yours"),
            ("conditions doctor --profile offline", "the recordings instead of the network"),
            ("conditions doctor --timeout 3", "give up on each upstream after 3 s"),
        ]))
        """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Seconds each live request may take, at most (default: 10).", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 600 else {
            throw ValidationError("--timeout: \(timeout) is not a number of seconds between 0 and 600")
        }
    }

    func run() async throws {
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: LogSetup.makeLogger(level: global.logLevel)) } catch {
            var lines = ["conditions doctor: the config cannot be loaded"]
            lines += error.problems.map { "FAIL  config  \($0)" }
            lines.append("      fix: edit the config; conditions check lists every problem, conditions config path says which file")
            write(lines.joined(separator: "\n") + "\n", to: .standardOutput)
            throw ExitCode(2)
        }
        let doctor = Doctor(runtime: runtime, environment: global.environment, logger: LogSetup.makeLogger(level: global.logLevel), timeout: timeout)
        let findings = await doctor.examine()
        let summary = runtime.configuration
        var text = "conditions doctor: \(summary.name)\(summary.profile.map { ", profile \($0)" } ?? "")\n"
        text += Self.table(findings)
        let failed = Doctor.fails(findings)
        let warnings = findings.count { $0.status == .warning }
        text += failed ? "\nSomething does not work: see FAIL above.\n"
            : warnings > 0 ? "\nEverything answers, with \(warnings) warning\(warnings == 1 ? "" : "s").\n" : "\nEverything answers.\n"
        write(text, to: .standardOutput)
        if failed { throw ExitCode(1) }
    }

    /// One line per finding (`ok`, `WARN`, `FAIL`, the check, what was found), its fix on the
    /// line below; checks padded to one column.
    static func table(_ findings: [Doctor.Finding]) -> String {
        let width = min(32, findings.map(\.check.count).max() ?? 0)
        return findings.map { finding in
            let status: String
            switch finding.status {
            case .ok: status = "ok  "
            case .warning: status = "WARN"
            case .failure: status = "FAIL"
            }
            let check = finding.check.count < width ? finding.check.padding(toLength: width, withPad: " ", startingAt: 0) : finding.check
            var line = "\(status)  \(check)  \(finding.detail)\n"
            if let fix = finding.fix, finding.status != .ok {
                line += String(repeating: " ", count: 8 + width) + "fix: \(fix)\n"
            }
            return line
        }.joined()
    }
}
