import ConditionsJSON
import ConditionsKit
import ConditionsMoon
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The one registration point, and the presentations it gathers from the modules.
@Suite struct CatalogTests {
    @Test func everyModuleOnceByName() {
        let names = registered.moduleNames
        #expect(Set(names).count == names.count)
        #expect(names == ["Fixtures", "Aeris", "WSDOT", "Astronomy", "Exec", "NWS", "Avalanche", "Snowpack", "SpaceWeather", "Caltrans"])
        #expect(registered.module(named: "Astronomy") != nil)
        #expect(registered.module(named: "astronomy") == nil)
    }

    /// Every module answering a kind adds its map: Washington's from WSDOT, California's from
    /// Caltrans, in registration order; a kind no module maps has none.
    @Test func eachModuleAddsItsMapForAKind() {
        #expect(registered.maps(for: "pass").map(\.id) == ["washington", "california"])
        #expect(registered.maps(for: .moon).isEmpty)
        #expect(registered.maps(for: nil).isEmpty)
    }

    @Test func presentationsAreFoundByKind() {
        #expect(registered.presentation(for: "pass").kind == "pass")
        #expect(registered.presentation(for: .moon).kind == .moon)
        #expect(registered.presentation(for: .phases).kind == .phases)
        #expect(registered.presentation(for: "forecast").kind == "forecast")
        #expect(registered.presentation(for: "alerts").kind == "alerts")
        #expect(registered.presentation(for: "avalanche").kind == "avalanche")
        #expect(registered.presentation(for: "snowpack").kind == "snowpack")
        #expect(registered.presentation(for: "aurora").kind == "aurora")
        #expect(registered.presentation(for: "tide") is GenericPresentation)
        #expect(registered.presentation(for: nil) is GenericPresentation)
    }
}

/// What `watch` compares, through each kind's presentation.
@Suite struct ResultStateTests {
    func state(_ data: JSONValue, kind: ResultKind?) -> ResultState {
        ResultState(ResultRecord(urn: "x:y", outcome: .success(route: "x:{id}", source: "s", fetchedAt: Date(), data: data, staleAge: nil), kind: kind), catalog: registered)
    }

    @Test func theMoonChangesWithItsPhaseOnly() {
        let a = state(["phase": "waxing gibbous", "illumination": 87.7, "age": 12.29], kind: .moon)
        let b = state(["phase": "waxing gibbous", "illumination": 91.0, "age": 12.9], kind: .moon)
        let c = state(["phase": "full moon", "illumination": 99.0, "age": 14.8], kind: .moon)
        #expect(a == b)
        #expect(a != c)
        #expect(c.status == "full moon")
    }

    @Test func phasesReportTheNextOne() {
        let s = state(["phases": [["name": "full moon", "date": "2026-11-24T14:53:26Z"]]], kind: .phases)
        #expect(s.status == "next: full moon")
    }

    @Test func unknownKindsCompareTheirStatusOrAnyChange() {
        #expect(state(["status": "up", "n": 1], kind: nil).status == "up")
        #expect(state(["status": "up", "n": 1], kind: nil) != state(["status": "up", "n": 2], kind: nil))
        #expect(state(["n": 1], kind: "tide").status == "changed")
        #expect(state(["n": 1], kind: "tide") == state(["n": 1], kind: "tide"))
    }

    @Test func failuresAreStatesToo() {
        let failed = ResultState(ResultRecord(urn: "x:y", outcome: .failure(kind: .timeout, message: "slow", suggestions: [])), catalog: registered)
        #expect(failed.status == "error: timeout")
    }
}

/// Which polls are news, as every watch front end reports them.
@Suite struct WatchTrackerTests {
    func pass(_ status: String, _ text: String, temperature: Int) -> ResultRecord {
        ResultRecord(urn: "pass:stevens", outcome: .success(route: "pass:{name}", source: "wsdot", fetchedAt: Date(),
                                                             data: ["status": .string(status), "temperatureF": .int(temperature),
                                                                    "restrictions": [["direction": "Eastbound", "text": .string(text)]]],
                                                             staleAge: nil),
                     kind: .pass)
    }

    @Test func initialThenOnlyChangesThePresentationCaresAbout() {
        var tracker = WatchTracker(catalog: registered)
        let now = Date(timeIntervalSince1970: 1_795_269_600)
        let first = tracker.changes(in: [pass("open", "No restrictions", temperature: 30)], at: now)
        #expect(first.map(\.event["event"]) == ["initial"])
        #expect(tracker.changes(in: [pass("open", "No restrictions", temperature: 25)], at: now).isEmpty)
        let closed = tracker.changes(in: [pass("closed", "Pass Closed", temperature: 25)], at: now)
        #expect(closed.count == 1)
        #expect(closed.first?.event["before"] == "open")
        #expect(closed.first?.event["after"] == "closed")
        #expect(closed.first?.event["at"] == "2026-11-21T14:00:00Z")
    }
}
