import Foundation

extension CLI {
    /// `run` on a thread of its own. Swift Testing runs tests on the cooperative pool, which
    /// has one thread per core; a test spending many seconds in blocking runs would starve
    /// every other test's async work (timing assertions elsewhere then fail). Long suites
    /// await this instead.
    static func runOnOwnThread(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                               stdin: String? = nil, timeout: TimeInterval = 60) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try CLI.run(arguments, in: directory, environment: environment, stdin: stdin, timeout: timeout) })
            }.start()
        }
    }
}
