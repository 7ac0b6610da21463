import ConditionsHTML
import Foundation
import Testing

@Suite struct ConcurrencyTests {
    @Test func parsingFiftyPagesConcurrently() async throws {
        let pages = [try fixture("pass-page"), try fixture("latin1-page"), try fixture("minimal-pass-page")]
        let results = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<50 {
                let data = pages[index % pages.count]
                group.addTask {
                    let page = try HTMLDocument(data: data)
                    // Exercise the error path too: it must not disturb other threads.
                    _ = try? page.nodes("//span[")
                    return (index, try page.text("//span[@id='PassInfoConditions']"))
                }
            }
            var collected: [Int: String?] = [:]
            for try await (index, text) in group { collected[index] = text }
            return collected
        }
        let expected = [
            "Compact snow & ice on the roadway. Expect delays \u{2013} use caution near the Café.",
            "Route dégagée, température 2°C",
            "The roadway is bare and dry.",
        ]
        #expect(results.count == 50)
        for (index, text) in results {
            #expect(text == expected[index % expected.count])
        }
    }

    @Test func queryingOneDocumentFromManyTasks() async throws {
        let page = try HTMLDocument(data: try fixture("pass-page"))
        let texts = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<50 {
                group.addTask { try page.text("//span[@id='PassInfoRestrictionsOne']") }
            }
            var collected: [String?] = []
            for try await text in group { collected.append(text) }
            return collected
        }
        #expect(texts == Array(repeating: "Chains required over 10,000 GVW", count: 50))
    }
}
