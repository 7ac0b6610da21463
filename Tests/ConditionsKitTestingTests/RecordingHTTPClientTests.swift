import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing

@Suite struct RecordingHTTPClientTests {
    static let url = URL(string: "https://api.example.org/v1/tides?station=7")!

    @Test func recordsEveryRequestInOrderWithItsHeaders() async throws {
        let http = RecordingHTTPClient(.text("ok"))
        #expect(http.requests.isEmpty)
        _ = try await http.get(Self.url, headers: ["Accept": "application/json"])
        _ = try await http.send(HTTPRequest(method: "HEAD", url: URL(string: "https://api.example.org/v1/stations")!))
        #expect(http.urls.map(\.absoluteString) == [Self.url.absoluteString, "https://api.example.org/v1/stations"])
        #expect(http.requests.map(\.method) == ["GET", "HEAD"])
        #expect(http.requests.first?.headers == ["Accept": "application/json"])
        #expect(http.requests(to: "/v1/stations").count == 1)
        http.reset()
        #expect(http.requests.isEmpty)
    }

    @Test func recordsFromManyTasksAtOnce() async throws {
        let http = RecordingHTTPClient(.status(204))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { _ = try await http.get(URL(string: "https://example.org/\(index)")!) }
            }
            try await group.waitForAll()
        }
        #expect(http.requests.count == 200)
        #expect(Set(http.urls.map(\.path)).count == 200)
    }

    @Test func answersWithTheScriptedResponse() async throws {
        let http = RecordingHTTPClient(.response(status: 503, headers: ["Retry-After": "5"], body: Data("busy".utf8)))
        let response = try await http.get(Self.url)
        #expect(response.status == 503)
        #expect(response.headers == ["retry-after": "5"], "names lower-cased, as the host's client gives them")
        #expect(response.body == Data("busy".utf8))
        #expect(response.url == Self.url)

        let json = try await RecordingHTTPClient(.json(["height": 1.5])).get(Self.url)
        #expect(json.headers["content-type"] == "application/json")
        #expect(try JSONValue.parse(json.body) == ["height": 1.5])
    }

    @Test func answersByWholeURLThenPathWithQueryThenPath() async throws {
        let http = RecordingHTTPClient([
            Self.url.absoluteString: .text("whole URL"),
            "/v1/tides?station=8": .text("path and query"),
            "/v1/tides": .text("path"),
        ], fallback: .status(410))
        func body(_ url: String) async throws -> String {
            let response = try await http.get(URL(string: url)!)
            return response.status == 200 ? String(decoding: response.body, as: UTF8.self) : "\(response.status)"
        }
        #expect(try await body("https://api.example.org/v1/tides?station=7") == "whole URL")
        #expect(try await body("http://127.0.0.1:8080/v1/tides?station=8") == "path and query")
        #expect(try await body("http://127.0.0.1:8080/v1/tides?station=9") == "path")
        #expect(try await body("https://api.example.org/v1/stations") == "410")
        #expect(http.requests.count == 4, "unmatched requests are recorded too")

        let unscripted = try await RecordingHTTPClient([:]).get(Self.url)
        #expect(unscripted.status == 404)
        #expect(String(decoding: unscripted.body, as: UTF8.self).contains(Self.url.absoluteString))
    }

    @Test func answersInOrderThenSaysTheScriptIsUsedUp() async throws {
        let http = RecordingHTTPClient(inOrder: [.status(503), .text("ok")])
        #expect(try await http.get(Self.url).status == 503)
        #expect(try await http.get(Self.url).status == 200)
        await #expect(throws: HTTPError.self) { try await http.get(Self.url) }
        #expect(http.requests.count == 3)
        http.reset()
        #expect(try await http.get(Self.url).status == 503, "reset starts the script again")

        let repeating = RecordingHTTPClient(inOrder: [.status(500)], then: .status(200))
        #expect(try await repeating.get(Self.url).status == 500)
        #expect(try await repeating.get(Self.url).status == 200)
        #expect(try await repeating.get(Self.url).status == 200)
    }

    @Test func failsWithTheScriptedHTTPError() async throws {
        let timeout = HTTPError.timeout(seconds: 30, url: Self.url.absoluteString)
        let http = RecordingHTTPClient([Self.url.absoluteString: .failure(timeout)])
        await #expect(throws: timeout) { try await http.get(Self.url) }
        #expect(http.requests.count == 1, "a failed request is recorded")
    }

    @Test func delegatesToAnotherClientOrAClosure() async throws {
        let inner = RecordingHTTPClient(.text("from inner"))
        let outer = RecordingHTTPClient(delegatingTo: inner)
        let response = try await outer.get(Self.url, headers: ["User-Agent": "probe"])
        #expect(String(decoding: response.body, as: UTF8.self) == "from inner")
        #expect(outer.requests.count == 1 && inner.requests.count == 1)

        // A closure may rewrite the request on its way (here: drops the User-Agent).
        let stripping = RecordingHTTPClient { request in
            var stripped = request
            stripped.headers["User-Agent"] = nil
            return try await inner.send(stripped)
        }
        _ = try await stripping.get(Self.url, headers: ["User-Agent": "probe"])
        #expect(stripping.requests.first?.headers["User-Agent"] == "probe", "recorded as sent")
        #expect(inner.requests.last?.headers["User-Agent"] == nil)
    }

    @Test func reachesTheLoopbackServerThroughTheSameImport() async throws {
        let server = LoopbackServer()
        server.route("/ping", .text("pong"))
        try server.start()
        defer { server.stop() }
        #expect(server.url("/ping").absoluteString.hasPrefix("http://127.0.0.1:"))
    }
}
