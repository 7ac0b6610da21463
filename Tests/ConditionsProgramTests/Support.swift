import ConditionsKit
import ConditionsModules
import Foundation
import HostTestSupport
@testable import ConditionsCore

/// The package's root folder (for the shipped `Fixtures/`).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The modules the program registers: these tests run the host with them in process, as
/// `conditions` links them.
let registered = SourceCatalog(RegisteredModules.all)

extension Workspace {
    /// The config loaded with the registered modules.
    func runtime(profile: String? = nil, environment: [String: String] = [:]) throws(ConfigurationError) -> Runtime {
        try runtime(profile: profile, environment: environment, catalog: registered)
    }

    /// A config replaying the shipped fixtures, with the live Astronomy module beside them.
    static func replay(extraSourceOptions: String = "") throws -> Workspace {
        try Workspace(config: """
            {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
             "sources": {"fixtures": {"module": "Fixtures", "options": {"directory": "\(packageRoot.appendingPathComponent("Fixtures").path)"}\(extraSourceOptions)},
                         "astronomy": {"module": "Astronomy"}},
             "routes": {"pass": "fixtures", "moon": "fixtures", "phases": "fixtures"},
             "profiles": {"live": {"routes": {"moon": "astronomy", "phases": "astronomy"}}}}
            """)
    }
}
