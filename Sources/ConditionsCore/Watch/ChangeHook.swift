import ConditionsJSON
import ConditionsKit
import ConditionsProcess
import Foundation
import Logging

/// `watch --exec`: runs a program for each change, argv only (no shell), with the change event
/// as JSON on stdin and `CONDITIONS_URN`, `CONDITIONS_STATUS`, `CONDITIONS_PREVIOUS_STATUS` in
/// its environment.
///
/// The contract a hook gets, and why:
/// - stdin is an unlinked regular file holding the event, not a pipe, so writing it never
///   blocks watch and a hook that ignores it (`true`, `notify-send`) is normal;
/// - it starts with a clean signal mask and default dispositions (swift-subprocess resets both;
///   watch itself handles SIGINT/SIGTERM/SIGHUP) in a process group of its
///   own, so one signal reaches the hook and everything it started;
/// - its stdout and stderr are watch's stderr descriptor itself: nothing it prints can land
///   inside watch's stdout lines, and watch never waits on a pipe a grandchild might hold;
/// - watch waits for the hook process only (pidfd, off the cooperative pool); after `timeout`
///   its group gets SIGTERM, then SIGKILL after `grace`;
/// - every outcome but exit 0 is one log line.
package struct ChangeHook: Sendable {
    let argv: [String]
    /// A hook that hangs is killed after this long, so one stuck notifier cannot stop watching.
    var timeout: Duration = .seconds(30)
    /// How long a timed-out hook's group has between SIGTERM and SIGKILL.
    var grace: Duration = .seconds(2)

    /// `--exec notify-send --exec "Pass changed"` or `--exec '["notify-send", "Pass changed"]'`.
    package init(arguments: [String], timeout: Duration = .seconds(30)) throws(Failure) {
        if arguments.count == 1, let first = arguments.first, first.hasPrefix("[") {
            guard let value = try? JSONValue.parse(first), let array = value.arrayValue,
                  let strings = Optional(array.compactMap(\.stringValue)), strings.count == array.count, !strings.isEmpty
            else { throw Failure.usage("--exec: \(first) is not a JSON array of strings") }
            argv = strings
        } else {
            argv = arguments
        }
        guard let program = argv.first, !program.isEmpty else { throw Failure.usage("--exec: no program given") }
        self.timeout = timeout
    }

    /// How one run ended; everything but `.succeeded` is logged.
    package enum Outcome: Equatable, Sendable {
        case succeeded
        case exited(Int32)
        case signalled(Int32)
        /// Ran past the timeout; `killed` when its group still had members after the grace.
        case timedOut(killed: Bool)
        case notFound
        case cannotRun(String)
    }

    /// Runs the hook for one change and logs its outcome unless it exited 0. Returns when the
    /// hook process has ended (at most `timeout` plus `grace`), not when its descendants have.
    @discardableResult
    package func run(event: JSONValue, urn: String, status: String, previous: String?, logger: Logger) async -> Outcome {
        let process = SupervisedProcess(
            program: argv[0], arguments: Array(argv.dropFirst()),
            environment: .inherit(updating: ["CONDITIONS_URN": urn, "CONDITIONS_STATUS": status, "CONDITIONS_PREVIOUS_STATUS": previous ?? ""]),
            output: .standardError, timeout: timeout, onTimeout: .terminate(grace: grace),
            // A hook may start something on purpose (a daemonizing notifier); only a timed-out
            // hook's group is killed.
            leftovers: .keep)
        let outcome: Outcome
        do {
            let run = try await process.run(input: Data((event.serialized() + "\n").utf8))
            switch run.ending {
            case .exited(0): outcome = .succeeded
            case .exited(let code): outcome = .exited(code)
            case .signaled(let signal): outcome = .signalled(signal)
            case .timedOut(let killed): outcome = .timedOut(killed: killed)
            case .outputTooLarge, .cancelled: outcome = .cannotRun("cancelled")
            }
        } catch {
            outcome = error.programNotFound ? .notFound : .cannotRun(error.description)
        }
        if let message = describe(outcome, urn: urn) { logger.error("\(message)") }
        return outcome
    }

    /// The log line for `outcome`, nil for success.
    func describe(_ outcome: Outcome, urn: String) -> String? {
        let name = "--exec \(argv[0])"
        switch outcome {
        case .succeeded: return nil
        case .exited(let code): return "\(name): exited with status \(code) for \(urn)"
        case .signalled(let signal): return "\(name): killed by \(SignalName.describe(signal)) for \(urn)"
        case .timedOut(let killed):
            let how = killed ? "SIGTERM to its process group, then SIGKILL after \(Self.seconds(grace)) s" : "SIGTERM to its process group"
            return "\(name): timed out after \(Self.seconds(timeout)) s for \(urn); ended with \(how)"
        case .notFound: return "\(name): cannot run: no such program\(argv[0].contains("/") ? "" : " on PATH")"
        case .cannotRun(let reason): return "\(name): cannot run: \(reason)"
        }
    }

    /// `30`, `1.5`: durations as the log lines print them.
    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
