import ConditionsKitTesting
import ConditionsJSON
import ConditionsKit
import ConditionsModules
import ConditionsText
import Foundation
import HostTestSupport
import Logging
import Testing
@testable import ConditionsCore

/// Each registered module's sample config (`Plugins/<Module>/sample.json`, compiled in as its
/// `sampleConfig`): the file as it is, a `{"sources", "routes"}` fragment of that module that
/// loads merged into a minimal config, and the block its README shows.
@Suite struct SampleConfigTests {
    /// The minimal config each fragment is merged into: a location and one named place.
    static let minimal: JSONValue = [
        "location": ["name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"],
        "places": ["stevens": ["name": "Stevens Pass", "latitude": .double(Place.stevens.latitude), "longitude": .double(Place.stevens.longitude)]],
    ]

    static func folder(_ module: any ConditionsSource.Type) -> URL {
        packageRoot.appendingPathComponent("Plugins/\(module.moduleName)")
    }

    static func file(_ module: any ConditionsSource.Type) throws -> String {
        try String(contentsOf: folder(module).appendingPathComponent("sample.json"), encoding: .utf8)
    }

    @Test func everyModuleCompilesInItsSampleFile() throws {
        #expect(RegisteredModules.all.count >= 9)
        for module in RegisteredModules.all {
            let compiled = module.sampleConfig
            guard let sample = compiled else { Issue.record("\(module.moduleName) has no sampleConfig"); continue }
            #expect(sample == (try Self.file(module)), "\(module.moduleName): sampleConfig is its sample.json")
        }
    }

    @Test func eachSampleIsAFragmentOfItsModule() throws {
        for module in RegisteredModules.all {
            let name = module.moduleName
            let root = try #require(try JSONValue.parse(Self.file(module), duplicateKeys: .reject).objectValue, "\(name): an object")
            #expect(root.keys.sorted() == ["routes", "sources"], "\(name): only sources and routes")
            let sources = try #require(root["sources"]?.objectValue, "\(name): sources is an object")
            #expect(!sources.keys.isEmpty, "\(name)")
            for (id, entry) in sources {
                #expect(entry["module"]?.stringValue == name, "\(name): sources.\(id) is an instance of \(name)")
            }
            let routes = try #require(root["routes"]?.objectValue, "\(name): routes is an object")
            #expect(!routes.keys.isEmpty, "\(name): routes something")
            // A secret option (an object's members whose names look secret) is written as a
            // reference, never a value to copy.
            for (id, entry) in sources {
                for option in module.secretOptions {
                    guard let value = entry["options"]?[option] else { continue }
                    let texts = value.stringValue.map { [$0] } ?? (value.objectValue?.compactMap { Redaction.isSensitive($0.key) ? $0.value.stringValue : nil } ?? [])
                    for text in texts { #expect(text.hasPrefix("${") && text.hasSuffix("}"), "\(name): sources.\(id).options.\(option) is ${ENV}") }
                }
            }
        }
    }

    /// Merged into the minimal config as a user pasting it would (`Configuration.merge`), each
    /// loads: the shape read, every instance made (routed or not) with its `${ENV}` set, the
    /// routes built. Relative paths fall back to the checkout as to an installed data folder.
    @Test func eachSampleLoadsMergedIntoAMinimalConfig() throws {
        for module in RegisteredModules.all {
            let name = module.moduleName
            let text = try Self.file(module)
            let fragment = try #require(try JSONValue.parse(text).objectValue)
            let merged = JSONValue.object(Configuration.merge(try #require(Self.minimal.objectValue), fragment))
            let workspace = try Workspace(config: merged.serialized(pretty: true))
            defer { workspace.remove() }

            var environment: [String: String] = [:]
            for match in text.matches(of: /\$\{([A-Z0-9_]+)\}/) { environment[String(match.1)] = "sample-\(match.1.lowercased())" }
            do {
                var configuration = try Configuration.load(try ConfigFile.read(workspace.configFile), profile: nil, catalog: registered)
                configuration.dataDirectory = packageRoot
                let runtime = try Runtime(configuration, catalog: registered, environment: environment, logger: Logger(label: "test"),
                                          validatingUnrouted: true)
                #expect(Set(runtime.instances.map(\.module)) == [name], "\(name)")
                #expect(runtime.instances.count == fragment["sources"]?.objectValue?.keys.count, "\(name): every instance made")
                #expect(runtime.configuration.routes.map(\.scheme).sorted() == fragment["routes"]?.objectValue?.keys.sorted(), "\(name)")
            } catch {
                Issue.record("\(name)'s sample does not load: \(error.problems.joined(separator: "\n"))")
            }
        }
    }

    /// The README shows the sample exactly, in a ```json block.
    @Test func eachReadmeShowsItsSample() throws {
        for module in RegisteredModules.all {
            let readme = try String(contentsOf: Self.folder(module).appendingPathComponent("README.md"), encoding: .utf8)
            let block = "```json\n" + (try Self.file(module)) + "```\n"
            #expect(readme.contains(block), "Plugins/\(module.moduleName)/README.md shows sample.json in a ```json block")
        }
    }
}
