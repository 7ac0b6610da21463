import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsModules
import Foundation
import Logging
@testable import ConditionsCore

/// The package's root folder (for the shipped `Fixtures/`).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The modules the program registers (interim: these tests still exercise real modules through the host).
let registered = SourceCatalog(RegisteredModules.all)

let pacific = TimeZone(identifier: "America/Los_Angeles")!

/// A folder of its own holding `sources.json`, removed by `remove()`.
struct Workspace {
    let folder: URL

    init(config: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(config.utf8).write(to: configFile)
    }

    var configFile: URL { folder.appendingPathComponent("sources.json") }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The config loaded as the CLI loads it, without a process, with `catalog`'s modules.
    func runtime(profile: String? = nil, environment: [String: String] = [:], catalog: SourceCatalog = registered) throws(ConfigurationError) -> Runtime {
        let configuration = try Configuration.load(try ConfigFile.read(configFile), profile: profile, catalog: catalog)
        return try Runtime(configuration, catalog: catalog, environment: environment, logger: Logger(label: "test"))
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

/// A resolver with no network: sources that try get a refusal.
func offlineResolver(_ runtime: Runtime, now: String = "2026-11-21T14:05:00Z") -> Resolver {
    Resolver(runtime: runtime, now: Timestamp.parse(now)!, pinned: true) { _ in UnavailableHTTPClient(reason: "tests are offline") }
}

extension ResultRecord {
    var data: JSONValue? {
        if case .success(_, _, _, let data, _) = outcome { return data }
        return nil
    }
}
