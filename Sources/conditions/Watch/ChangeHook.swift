import ConditionsKit
import Foundation
import Logging

/// `watch --exec`: runs a program for each change, argv only (no shell), with the change event
/// as JSON on stdin and `CONDITIONS_URN`, `CONDITIONS_STATUS`, `CONDITIONS_PREVIOUS_STATUS` in
/// its environment.
struct ChangeHook {
    let argv: [String]
    /// A hook that hangs is killed after this long, so one stuck notifier cannot stop watching.
    var timeout: TimeInterval = 30

    /// `--exec notify-send --exec "Pass changed"` or `--exec '["notify-send", "Pass changed"]'`.
    init(arguments: [String]) throws(Failure) {
        if arguments.count == 1, let first = arguments.first, first.hasPrefix("[") {
            guard let value = try? JSONValue.parse(first), let array = value.arrayValue,
                  let strings = Optional(array.compactMap(\.stringValue)), strings.count == array.count, !strings.isEmpty
            else { throw Failure.usage("--exec: \(first) is not a JSON array of strings") }
            argv = strings
        } else {
            argv = arguments
        }
        guard let program = argv.first, !program.isEmpty else { throw Failure.usage("--exec: no program given") }
    }

    func run(event: JSONValue, urn: String, status: String, previous: String?, logger: Logger) {
        let process = Process()
        let program = argv[0]
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(argv.dropFirst())
        } else {
            // Looked up on PATH by env(1), still without a shell.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = argv
        }
        var environment = ProcessInfo.processInfo.environment
        environment["CONDITIONS_URN"] = urn
        environment["CONDITIONS_STATUS"] = status
        environment["CONDITIONS_PREVIOUS_STATUS"] = previous ?? ""
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        do {
            try process.run()
        } catch {
            logger.error("--exec \(program): cannot run: \(error.localizedDescription)")
            return
        }
        // A hook that does not read stdin must not make us fail: ignore EPIPE.
        signal(SIGPIPE, SIG_IGN)
        input.fileHandleForWriting.write(Data((event.serialized() + "\n").utf8))
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            logger.error("--exec \(program): killed after \(Int(timeout)) s")
        }
        process.waitUntilExit()
        if process.terminationReason == .exit, process.terminationStatus != 0 {
            logger.warning("--exec \(program): exited with status \(process.terminationStatus) for \(urn)")
        }
    }
}
