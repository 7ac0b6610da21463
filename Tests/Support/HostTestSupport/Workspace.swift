import ConditionsCore
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// A folder of its own holding `sources.json`, removed by `remove()`: a configuration loaded
/// as the CLI loads it, without a process, with the modules a test names.
package struct Workspace {
    package let folder: URL

    package init(config: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(config.utf8).write(to: configFile)
    }

    package var configFile: URL { folder.appendingPathComponent("sources.json") }

    package func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The config loaded with `catalog`'s modules.
    package func runtime(profile: String? = nil, environment: [String: String] = [:], catalog: SourceCatalog) throws(ConfigurationError) -> Runtime {
        let configuration = try Configuration.load(try ConfigFile.read(configFile), profile: profile, catalog: catalog)
        return try Runtime(configuration, catalog: catalog, environment: environment, logger: Logger(label: "test"))
    }
}

/// A resolver with no network: sources that try get a refusal.
package func offlineResolver(_ runtime: Runtime, now: String = "2026-11-21T14:05:00Z") -> Resolver {
    Resolver(runtime: runtime, now: Timestamp.parse(now)!, pinned: true) { _ in UnavailableHTTPClient(reason: "tests are offline") }
}

extension ResultRecord {
    /// A successful record's data.
    package var data: JSONValue? {
        if case .success(_, _, _, let data, _) = outcome { return data }
        return nil
    }
}

/// The zone most fixtures are written in.
package let pacific = TimeZone(identifier: "America/Los_Angeles")!
