import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The config's places reach the registered modules that use them.
@Suite struct PlacesThroughModulesTests {
    static let location = #""location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331}"#

    @Test func everySourceGetsThePlaces() throws {
        let workspace = try Workspace(config: """
            {\(Self.location), "places": {"stevens": {"latitude": 47.745, "longitude": -121.093333}},
             "sources": {"nws": {"module": "NWS"}}, "routes": {"forecast": "nws"}}
            """)
        defer { workspace.remove() }
        let runtime = try workspace.runtime()
        // The module reads them at creation: its examples name the first place.
        let examples = runtime.router.routes.flatMap(\.examples)
        #expect(examples.contains("forecast:stevens"), "\(examples)")
    }
}
