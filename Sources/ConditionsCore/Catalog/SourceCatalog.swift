import ConditionsKit

/// The source modules a program links, by the name `sources.json` uses, and their
/// presentations by kind. The host knows no module: the program that links them lists them
/// once (`conditions`' `RegisteredModules`) and hands the catalog to the runtime, which gives it
/// to everything that creates, renders or compares results.
package struct SourceCatalog: Sendable {
    /// The modules, in the order `conditions sources` lists them.
    package let modules: [any ConditionsSource.Type]
    private let presentations: [ResultKind: any ResultPresentation]
    private let mapLayers: [ResultKind: [MapLayer]]

    /// A catalog of `modules`. The first module listing a kind's presentation wins, so modules
    /// sharing one (Astronomy and Aeris, both the moon toolkit's) need not agree on order. Each
    /// module listing a kind adds its presentation's map, once per layer id: WSDOT Washington's
    /// and Caltrans California's for `pass`.
    package init(_ modules: [any ConditionsSource.Type]) {
        self.modules = modules
        var byKind: [ResultKind: any ResultPresentation] = [:]
        var maps: [ResultKind: [MapLayer]] = [:]
        for module in modules {
            for presentation in module.presentations {
                if byKind[presentation.kind] == nil { byKind[presentation.kind] = presentation }
                if let map = presentation.map, !(maps[presentation.kind] ?? []).contains(where: { $0.id == map.id }) {
                    maps[presentation.kind, default: []].append(map)
                }
            }
        }
        presentations = byKind
        mapLayers = maps
    }

    /// The maps cards of `kind` are placed on, in registration order: a card goes on the first
    /// whose frame holds its coordinate.
    package func maps(for kind: ResultKind?) -> [MapLayer] {
        kind.flatMap { mapLayers[$0] } ?? []
    }

    /// The module `sources.json` calls `name`, if registered.
    package func module(named name: String) -> (any ConditionsSource.Type)? {
        modules.first { $0.moduleName == name }
    }

    /// Every registered module's name.
    package var moduleNames: [String] { modules.map { $0.moduleName } }

    /// The presentation of `kind`: a module's, or `GenericPresentation` for nil and unknown kinds.
    package func presentation(for kind: ResultKind?) -> any ResultPresentation {
        kind.flatMap { presentations[$0] } ?? GenericPresentation()
    }
}
