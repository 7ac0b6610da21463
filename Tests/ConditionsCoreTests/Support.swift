import ConditionsKit
import Foundation
import HostTestSupport
import TestSources
@testable import ConditionsCore

/// The package's root folder.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The modules these tests register: test-only ones the host knows nothing about, as it knows
/// none of the real ones (those are exercised through the host in ConditionsProgramTests).
let testModules = SourceCatalog([EchoSource.self, CombineSource.self])

extension Workspace {
    /// The config loaded with the test modules.
    func runtime(profile: String? = nil, environment: [String: String] = [:]) throws(ConfigurationError) -> Runtime {
        try runtime(profile: profile, environment: environment, catalog: testModules)
    }
}
