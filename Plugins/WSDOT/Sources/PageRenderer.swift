import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Synchronization
// scripts/fuzz compiles this module from its sources without the process toolkit; it gets a
// build whose `render` fails in one line (see the end of this file).
#if canImport(ConditionsProcess)
import ConditionsProcess
#endif

/// The `render` option: a program that prints the DOM of a page after its scripts ran, given
/// the page's URL as its last argument.
///
/// The program runs as a child with a clean signal state (swift-subprocess) in a process group
/// of its own, so one signal reaches the browser and every helper process it forks. It gets the
/// source's `timeout`; on timeout or cancellation its group gets SIGTERM, then SIGKILL; when it
/// ends, whatever is left of its group is killed too, so no renderer outlives its page. Its
/// output is read as it comes, off the cooperative pool (swift-subprocess's async I/O), and a
/// page larger than `maxBodyBytes` ends the run. At most `maxConnectionsPerHost` renders run
/// at once per source instance.
struct PageRenderer: Sendable {
    /// How the program is chosen.
    enum Program: Sendable, Equatable {
        /// Find Chromium (`PageRenderer.chromiumNames` on PATH, then `chromiumPaths`).
        case chromium
        /// Exactly this argv; the URL is appended.
        case argv([String])
    }

    let program: Program
    /// Where the option lives, for messages.
    let optionPath: String
    /// Bounds concurrent renders; shared by every copy of one source instance.
    let gate = RenderGate()

    /// Binaries tried in order on PATH for `"render": "chromium"`.
    static let chromiumNames = ["chromium-headless-shell", "chromium", "headless_shell", "google-chrome"]
    /// Debian keeps the real binaries in `lib/chromium` beside `bin` (`/usr/lib/chromium/`), and
    /// a package may leave the PATH entry out; searched beside every PATH directory.
    static let chromiumLibraryFolder = "lib/chromium"

    /// Virtual time for a page's timers and fetches after load: the real site fills its report
    /// in from a request made after load. Virtual time runs ahead when the page is idle, so a
    /// quick page does not wait for it.
    static let virtualTimeBudgetMilliseconds = 10_000

    /// The argv for `url`, or a `configuration` error naming what was searched when no Chromium
    /// is installed.
    func argv(for url: URL) throws(ConditionsError) -> [String] {
        switch program {
        case .argv(let argv):
            return argv + [url.absoluteString]
        case .chromium:
            guard let binary = Self.findChromium() else { throw Self.missingChromium(optionPath: optionPath) }
            var argv = [
                binary, "--headless", "--dump-dom", "--virtual-time-budget=\(Self.virtualTimeBudgetMilliseconds)",
                "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-dev-shm-usage", "--mute-audio",
            ]
            // Chromium refuses to start as root without it; everyone else keeps the sandbox.
            if geteuid() == 0 { argv.append("--no-sandbox") }
            return argv + [url.absoluteString]
        }
    }

    /// The one line for `"render": "chromium"` on a machine without Chromium: what was searched,
    /// the Debian package, and the other way to get pass data.
    static func missingChromium(optionPath: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> ConditionsError {
        ConditionsError.configuration(
            "\(optionPath): no Chromium found (searched PATH \"\(path ?? "")\" for \(chromiumNames.joined(separator: ", ")), and \(chromiumLibraryFolder)/ beside each PATH directory); "
                + "install Debian's chromium-headless-shell (apt-get install chromium-headless-shell; scripts/dev does this), "
                + "or read WSDOT's feed instead: \"mode\": \"feed\" (no key) or \"mode\": \"api\" with WSDOT's free access code (the api profile, WSDOT_ACCESS_CODE)"
        )
    }

    /// The first executable of `chromiumNames` in a PATH directory, else in `lib/chromium` beside one.
    static func findChromium(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        let directories = ProgramSearch.directories(path)
        let libraries = directories.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent(chromiumLibraryFolder).path }
        for folders in [directories, libraries] {
            for name in chromiumNames {
                if let found = ProgramSearch.executable(named: name, in: folders) { return found }
            }
        }
        return nil
    }

}

#if canImport(ConditionsProcess)
extension PageRenderer {
    /// The rendered DOM of `url` as an HTML response, or an error of one line: the program
    /// missing, exiting non-zero, killed by a signal, printing nothing or too much, or timing out.
    func render(_ url: URL, limits: HTTPLimits) async throws -> HTTPResponse {
        let argv = try argv(for: url)
        let shownURL = Redaction.redact(url)
        let name = (argv[0] as NSString).lastPathComponent
        await gate.enter(limit: max(1, limits.maxConnectionsPerHost))
        defer { gate.leave() }
        try Task.checkCancellation()
        let outcome = await Self.run(argv, timeout: .milliseconds(Int64(max(0.001, limits.timeout) * 1000)), maxBytes: max(0, limits.maxBodyBytes))
        let what = "rendering \(shownURL) with \(name)"
        switch outcome {
        case .page(let data, let stderr) where data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }):
            throw ConditionsError.badResponse("\(what): the program printed nothing" + Self.lastWords(stderr))
        case .page(let data, _):
            return HTTPResponse(status: 200, headers: ["content-type": "text/html; charset=utf-8"], body: data, url: url)
        case .exited(let code, let stderr):
            throw ConditionsError.upstream("\(what): the program exited with status \(code)" + Self.lastWords(stderr))
        case .signalled(let signal, let stderr):
            throw ConditionsError.upstream("\(what): the program was killed by \(SignalName.describe(signal))" + Self.lastWords(stderr))
        case .tooLarge:
            throw ConditionsError.badResponse("\(what): the page is larger than maxBodyBytes (\(limits.maxBodyBytes) bytes); the program was stopped")
        case .timedOut:
            throw RenderTimeout(message: "\(what): timed out after \(Self.seconds(limits.timeout)) s; the program's process group was killed")
        case .notFound:
            throw ConditionsError.configuration("\(optionPath): cannot run \(argv[0]): no such program\(argv[0].contains("/") ? "" : " on PATH")")
        case .cannotRun(let reason):
            throw ConditionsError.upstream("\(what): cannot run the program: \(reason)")
        case .cancelled:
            throw CancellationError()
        }
    }

    /// `30`, `0.5`: seconds as messages print them.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    /// What the program said last on stderr, as `; it said: …`, or nothing: Chromium's own
    /// error (`net::ERR_NAME_NOT_RESOLVED`) says why far better than an exit status. A network
    /// error code anywhere in the tail wins over the last line, which Chromium may spend on a
    /// shutdown notice. At most 300 characters, control characters dropped.
    static func lastWords(_ stderr: Data) -> String {
        let text = String(decoding: stderr, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let networkError = lines.last { $0.contains("net::ERR_") }
        guard var line = networkError ?? lines.last else { return "" }
        // Chromium's "[1126/174537.039381:ERROR:…/headless_command_handler.cc:403] " prefix says nothing to a user.
        if line.hasPrefix("["), let end = line.range(of: "] ") { line = String(line[end.upperBound...]) }
        let cleaned = String(line.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
        return "; it said: " + (cleaned.count > 300 ? String(cleaned.prefix(299)) + "…" : cleaned)
    }

    /// How one run ended; stderr is the last of what the program wrote there.
    enum Outcome: Sendable {
        case page(Data, stderr: Data)
        case exited(Int, stderr: Data)
        case signalled(Int32, stderr: Data)
        case tooLarge
        case timedOut
        case notFound
        case cannotRun(String)
        case cancelled
    }

    /// Runs `argv` with stdout read up to `maxBytes`, stdin empty and the last 8 KiB of stderr
    /// kept (Chromium is chatty there; only its last words explain a failure).
    static func run(_ argv: [String], timeout: Duration, maxBytes: Int) async -> Outcome {
        let process = SupervisedProcess(
            program: argv[0], arguments: Array(argv.dropFirst()), output: .collect(limit: maxBytes, stderrTail: 8 << 10), timeout: timeout,
            // No SIGTERM first, unlike a `watch` hook: a late page is thrown away, so the
            // browser has nothing to finish, and a browser shutting down politely can take
            // seconds the caller is already owed.
            onTimeout: .kill,
            // Helpers the browser forked die with it, so no renderer outlives its page.
            leftovers: .kill)
        do {
            let run = try await process.run()
            switch run.ending {
            case .exited(0): return .page(run.stdout, stderr: run.stderrTail)
            case .exited(let code): return .exited(Int(code), stderr: run.stderrTail)
            case .signaled(let signal): return .signalled(signal, stderr: run.stderrTail)
            case .timedOut: return .timedOut
            case .outputTooLarge: return .tooLarge
            case .cancelled: return .cancelled
            }
        } catch {
            return error.programNotFound ? .notFound : .cannotRun(error.description)
        }
    }
}

#else
extension PageRenderer {
    /// Without the process toolkit (the fuzzing build) there is no way to run a browser.
    func render(_ url: URL, limits: HTTPLimits) async throws -> HTTPResponse {
        throw ConditionsError.configuration("\(optionPath): this build of conditions cannot run programs (built without ConditionsProcess)")
    }
}
#endif

/// A render that ran past the source's timeout: kind `timeout`, like an HTTP timeout.
struct RenderTimeout: ReportableError {
    let message: String
    var kind: ErrorKind { .timeout }
}

/// An async counting semaphore: at most `limit` renders at once, the rest wait in order.
final class RenderGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Waits for a place among `limit` and takes it.
    func enter(limit: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if state.running < limit {
                    state.running += 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives the place to the next waiter, if any.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
