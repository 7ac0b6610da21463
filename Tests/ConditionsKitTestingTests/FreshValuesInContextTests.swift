import ConditionsKit
import ConditionsKitTesting
import Foundation
import Synchronization
import Testing
@testable import ConditionsMemo

/// `FreshValues.made(for:in:)`: the one place a module's memo reads the context's `maxAge`.
@Suite struct FreshValuesInContextTests {
    @Test func freshDataAskedForMakesEveryTimeOtherwiseTheValueIsKept() async throws {
        let values = FreshValues<Int>()
        let made = Mutex(0)
        let make: @Sendable () async throws -> FreshValues<Int>.Made = {
            .init(value: made.withLock { $0 += 1; return $0 }, madeAt: SourceContextBuilder.defaultNow)
        }
        let refresh = SourceContextBuilder(maxAge: 0).build()
        #expect(try await values.made(for: "k", in: refresh, make: make).value == 1)
        #expect(try await values.made(for: "k", in: refresh, make: make).value == 2, "--refresh: nothing kept is used")
        let cached = SourceContextBuilder(maxAge: 300).build()
        #expect(try await values.made(for: "k", in: cached, make: make).value == 3, "the refreshed value was not kept either")
        #expect(try await values.made(for: "k", in: cached, make: make).value == 3, "kept for the context's maxAge")
        let later = SourceContextBuilder(now: SourceContextBuilder.defaultNow.addingTimeInterval(60), maxAge: 300).build()
        #expect(try await values.made(for: "k", in: later, maxAge: 30, make: make).value == 4, "a maxAge of the module's own")
    }
}
