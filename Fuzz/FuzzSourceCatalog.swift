// Stands in for Sources/conditions/SourceCatalog.swift in the config fuzz target, which
// compiles the host's Config/ and Runtime sources without the rest of the executable.
import Aeris
import Astronomy
import ConditionsKit
import Fixtures
import WSDOT

enum SourceCatalog {
    static let modules: [any ConditionsSource.Type] = [FixturesSource.self, AerisSource.self, WSDOTPassSource.self, AstronomySource.self]
    static func module(named name: String) -> (any ConditionsSource.Type)? { modules.first { $0.moduleName == name } }
    static var moduleNames: [String] { modules.map { $0.moduleName } }
}
