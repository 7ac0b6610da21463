import Aeris
import Astronomy
import ConditionsKit
import Exec
import Fixtures
import NWS
import WSDOT
import Avalanche
import Caltrans
import Snowpack
import SpaceWeather

/// Every source module `conditions` links, by type: the one place a module is registered.
/// The executable makes its `SourceCatalog` of this list, and so do the benchmarks, the fuzz
/// targets and the tests that run the program as users do; the host itself names no module.
/// Adding a module is its import and one line here (and its targets in Package.swift), which
/// is what `scripts/new-source` writes.
public enum RegisteredModules {
    /// The modules, in the order `conditions sources` lists them.
    public static let all: [any ConditionsSource.Type] = [
        FixturesSource.self,
        AerisSource.self,
        WSDOTPassSource.self,
        AstronomySource.self,
        ExecSource.self,
        NWSSource.self,
        AvalancheSource.self,
        SnowpackSource.self,
        SpaceWeatherSource.self,
        CaltransSource.self,
    ]
}
