import Aeris
import Astronomy
import ConditionsKit
import Fixtures
import WSDOT

/// Every source module this build of `conditions` knows, by the name `sources.json` uses.
/// Registering a new module is one line here (plus its target in Package.swift).
enum SourceCatalog {
    static let modules: [any ConditionsSource.Type] = [
        FixturesSource.self,
        AerisSource.self,
        WSDOTPassSource.self,
        AstronomySource.self,
    ]

    static func module(named name: String) -> (any ConditionsSource.Type)? {
        modules.first { $0.moduleName == name }
    }

    static var moduleNames: [String] { modules.map { $0.moduleName } }
}
