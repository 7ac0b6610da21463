// Fuzzes the sources.json loader: the host's Config/ sources and Runtime (every module's
// options validation included), compiled with the registration list the CLI uses
// (Sources/ConditionsModules/RegisteredModules.swift). The input is the file.
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging

private let file: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-fuzz-config-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("sources.json")
}()

private let catalog = SourceCatalog(RegisteredModules.all)

private let environment = ["WSDOT_ACCESS_CODE": "fuzz-code", "AERIS_CLIENT_ID": "id", "AERIS_CLIENT_SECRET": "secret", "HOME": "/tmp"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(UnsafeBufferPointer(start: bytes, count: count))
    guard (try? data.write(to: file)) != nil, let config = try? ConfigFile.read(file) else { return 0 }
    // The base config, then every profile it defines.
    let profiles = config.root["profiles"]?.objectValue?.keys.prefix(4).map { Optional($0) } ?? []
    for profile in [nil] + profiles {
        do {
            let configuration = try Configuration.load(config, profile: profile, catalog: catalog)
            let runtime = try Runtime(configuration, catalog: catalog, environment: environment, logger: FuzzSupport.logger)
            for urn in configuration.report.prefix(8) {
                if let parsed = try? URN(urn) { _ = try? runtime.router.match(parsed) }
            }
        } catch {
            _ = error.description
        }
    }
    return 0
}
