import ConditionsKit

/// The source modules a program links, by the name `sources.json` uses, and their
/// presentations by kind. The host knows no module: the program that links them lists them
/// once (`conditions`' `RegisteredModules`) and hands the catalog to the runtime, which gives it
/// to everything that creates, renders or compares results.
package struct SourceCatalog: Sendable {
    /// The modules, in the order `conditions sources` lists them.
    package let modules: [any ConditionsSource.Type]
    private let presentations: [ResultKind: any ResultPresentation]

    /// A catalog of `modules`. The first module listing a kind's presentation wins, so modules
    /// sharing one (Astronomy and Aeris, both the moon toolkit's) need not agree on order.
    package init(_ modules: [any ConditionsSource.Type]) {
        self.modules = modules
        var byKind: [ResultKind: any ResultPresentation] = [:]
        for module in modules {
            for presentation in module.presentations where byKind[presentation.kind] == nil {
                byKind[presentation.kind] = presentation
            }
        }
        presentations = byKind
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
