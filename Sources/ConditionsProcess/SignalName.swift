#if canImport(Glibc)
import Glibc
#endif

/// `SIGSEGV` rather than 11 in messages: signal numbers differ between platforms.
package enum SignalName {
    private static let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
        SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
        SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
    ]

    /// The name of `signal`, nil for one without a well-known name.
    package static func of(_ signal: Int32) -> String? { names[signal] }

    /// The name of `signal`, else `signal N`.
    package static func describe(_ signal: Int32) -> String { names[signal] ?? "signal \(signal)" }
}
