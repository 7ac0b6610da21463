/// One thing an instance needs, checked (`ConditionsSource.healthChecks`): what was looked at,
/// and, when it is missing or broken, what is wrong and how to fix it.
///
/// ```swift
/// HealthCheck("page renderer", problem: "chromium-headless-shell not found on PATH",
///             fix: "apt-get install chromium-headless-shell, or set options.renderer")
/// ```
public struct HealthCheck: Sendable, Equatable {
    /// What was checked, in a few words ("page renderer", "recordings folder").
    public let name: String
    /// What was found when all is well ("/usr/bin/chromium-headless-shell").
    public let detail: String?
    /// What is wrong; nil when the check passed.
    public let problem: String?
    /// How to put it right.
    public let fix: String?

    /// A check that passed, saying what it found.
    public init(_ name: String, found detail: String) {
        self.name = name
        self.detail = detail
        problem = nil
        fix = nil
    }

    /// A check that failed: `problem`, and how to `fix` it.
    public init(_ name: String, problem: String, fix: String) {
        self.name = name
        detail = nil
        self.problem = problem
        self.fix = fix
    }

    /// Whether the check passed.
    public var passed: Bool { problem == nil }
}
