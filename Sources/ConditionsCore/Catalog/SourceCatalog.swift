import Aeris
import Astronomy
import ConditionsKit
import Exec
import Fixtures
import WSDOT
import NWS
// new-source: imports above this line

/// Every source module this build knows, by the name `sources.json` uses: the one place a
/// module is registered. The CLI, the fuzz targets, the benchmarks and the tests all read it.
/// Registering a new module is its import and one line here (plus its targets in
/// Package.swift); `scripts/new-source` adds both above the `new-source` markers.
package enum SourceCatalog {
    /// The registered modules, in the order `conditions sources` lists them.
    package static let modules: [any ConditionsSource.Type] = [
        FixturesSource.self,
        AerisSource.self,
        WSDOTPassSource.self,
        AstronomySource.self,
        ExecSource.self,
        NWSSource.self,
        // new-source: modules above this line
    ]

    /// The module `sources.json` calls `name`, if registered.
    package static func module(named name: String) -> (any ConditionsSource.Type)? {
        modules.first { $0.moduleName == name }
    }

    /// Every registered module's name.
    package static var moduleNames: [String] { modules.map { $0.moduleName } }

    /// Every module's presentations by kind; the first module listing a kind wins, so modules
    /// sharing one (Astronomy and Aeris, both `MoonData.presentations`) need not agree on order.
    package static let presentations: [ResultKind: any ResultPresentation] = {
        var byKind: [ResultKind: any ResultPresentation] = [:]
        for module in modules {
            for presentation in module.presentations where byKind[presentation.kind] == nil {
                byKind[presentation.kind] = presentation
            }
        }
        return byKind
    }()

    /// The presentation of `kind`: a module's, or `GenericPresentation` for nil and unknown kinds.
    package static func presentation(for kind: ResultKind?) -> any ResultPresentation {
        kind.flatMap { presentations[$0] } ?? GenericPresentation()
    }
}
