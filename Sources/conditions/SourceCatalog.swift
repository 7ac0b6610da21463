import Aeris
import Astronomy
import ConditionsKit
import Exec
import Fixtures
import WSDOT
// new-source: imports above this line

/// Every source module this build of `conditions` knows, by the name `sources.json` uses.
/// Registering a new module is its import and one line here (plus its target in Package.swift);
/// `scripts/new-source` adds both above the `new-source` markers.
enum SourceCatalog {
    static let modules: [any ConditionsSource.Type] = [
        FixturesSource.self,
        AerisSource.self,
        WSDOTPassSource.self,
        AstronomySource.self,
        ExecSource.self,
        // new-source: modules above this line
    ]

    static func module(named name: String) -> (any ConditionsSource.Type)? {
        modules.first { $0.moduleName == name }
    }

    static var moduleNames: [String] { modules.map { $0.moduleName } }
}
