import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Testing
@testable import DocCOuting

@Suite struct OutingTests {
    @Test func combinesTheTideAndTheMoon() async throws {
        let source = try OutingSource(configuration: .testing(instance: "outing"))
        // The host's side of `context.resolve`: the tide answers, the moon is not routed.
        let urns = StubURNs(["tide:9447130": .success(SourceResult(data: ["tide": "low"], kind: "tide"))])
        let result = try await source.resolve("outing:9447130", context: SourceContextBuilder(urns: urns).build())
        #expect(urns.asked == [["tide:9447130", "moon:now"]])
        #expect(result.data == ["tide": ["tide": "low"], "moon": nil])
        #expect(result.inputs.map(\.urn) == ["tide:9447130", "moon:now"])
        #expect(result.inputs.map(\.failed) == [false, true])
    }

    @Test func failsWithoutTheTide() async throws {
        let source = try OutingSource(configuration: .testing(instance: "outing"))
        let urns = StubURNs(["tide:9447130": .failure(.upstream("HTTP 503 from api.tidesandcurrents.noaa.gov"))])
        let error = try #require(await source.error(resolving: "outing:9447130", context: SourceContextBuilder(urns: urns).build()) as? ConditionsError)
        #expect(error.kind == .upstream)
    }
}
