import ArgumentParser
import ConditionsCore
import ConditionsProcess
import ConditionsServer
import Foundation
import NIOCore
import NIOPosix

// `conditions serve` execs this program: Hummingbird and SwiftNIO stay out of `conditions`,
// whose every command would otherwise start slower and larger (LinkingTests). The options
// are `conditions serve`'s, already checked there, except the token, which comes in
// CONDITIONS_SERVE_TOKEN so that it never shows in `ps` (ServeExecTests).

/// The command line `conditions serve` passes on.
struct ServeOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conditions-serve",
        abstract: "The HTTP server behind 'conditions serve' (see 'conditions help serve'); the token comes from $CONDITIONS_SERVE_TOKEN or the config.")

    @Option(name: .long, help: ArgumentHelp("Config file.", valueName: "file")) var config: String?
    @Option(name: .long, help: ArgumentHelp("Profile from the config.", valueName: "name")) var profile: String?
    @Flag(name: .shortAndLong, help: "Log to stderr; repeat for more detail.") var verbose: Int
    @Option(name: .long, help: ArgumentHelp("Address to listen on.", valueName: "host:port")) var listen: String?
    @Flag(name: .long, help: "Serve without authentication off loopback.") var noAuth = false
    @Flag(name: .long, help: "Answer from the cache only.") var offline = false
    @Flag(name: .long, help: "Fetch even when the cache holds a fresh result.") var refresh = false
    @Flag(name: .long, help: "Neither read nor write the cache.") var noCache = false
    @Option(name: .long, help: ArgumentHelp("Cache folder.", valueName: "dir")) var cacheDir: String?
}

StandardStreams.prepare()
let options: ServeOptions
do {
    options = try ServeOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if ServeOptions.exitCode(for: error) == .success {
        write(ServeOptions.fullMessage(for: error) + "\n", to: .standardOutput)
        exit(0)
    }
    var message = ServeOptions.fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
    if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
    write("conditions: serve: \(TerminalText.sanitized(message, oneLine: true))\n", to: .standardError)
    exit(2)
}
// Swift concurrency's jobs run on NIO's event loops instead of a pool of their own: a request's
// handler no longer hops between the loop that read it and a pool thread and back (scenario 9:
// docs/performance.md). Called once, from the main thread, before any task is started.
NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
let status = await ServerLaunch.run(.init(config: options.config, profile: options.profile, verbosity: options.verbose, listen: options.listen,
                                          noAuth: options.noAuth, offline: options.offline, refresh: options.refresh, noCache: options.noCache,
                                          cacheDirectory: options.cacheDir))
// The drain is bounded, so an Exec program or page render may still run for a request that
// was not waited for; none outlives the server.
SupervisedProcess.terminateAll()
exit(status)
