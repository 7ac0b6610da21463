import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing

@testable import Aeris

@Suite("Aeris source: HTTP failures, options and secrets")
struct AerisFailureTests {
    static let invalidClient: JSONValue = [
        "success": false,
        "error": ["code": "invalid_client", "description": "The client provided is invalid"],
        "response": [],
    ]

    @Test(arguments: [
        (401, [:], invalidClient.body,
         "Aeris rejected the credentials (HTTP 401): Aeris error invalid_client: The client provided is invalid; check sources.aeris.options.clientId and sources.aeris.options.clientSecret"),
        (401, [:], Data(),
         "Aeris rejected the credentials (HTTP 401); check sources.aeris.options.clientId and sources.aeris.options.clientSecret"),
        (403, [:], Data("Forbidden".utf8),
         "Aeris refused access (HTTP 403); the Aeris account may not include this endpoint, or the app's registered domain does not match"),
        (429, ["retry-after": "120"], Data(),
         "Aeris rate limit reached (HTTP 429); retry after 120 s"),
        (429, ["retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"], Data(),
         "Aeris rate limit reached (HTTP 429); retry after Wed, 21 Oct 2026 07:28:00 GMT"),
        (429, [:], Data(),
         "Aeris rate limit reached (HTTP 429); wait before trying again"),
        (503, [:], Data("<html>down</html>".utf8),
         "Aeris is unavailable (HTTP 503); try again later"),
        (500, [:], Data(#"{"success":false,"error":{"code":"internal_error","description":"Try later"}}"#.utf8),
         "Aeris is unavailable (HTTP 500): Aeris error internal_error: Try later; try again later"),
        (404, [:], Data(),
         "Aeris answered HTTP 404"),
    ] as [(Int, [String: String], Data, String)])
    func httpFailuresHaveTheirOwnMessages(_ status: Int, _ headers: [String: String], _ body: Data, _ message: String) async throws {
        let error = try await AerisHarness.failure("moon:now", status: status, headers: headers, body: body)
        #expect(error as? ConditionsError == .upstream(message))
    }

    @Test func transportErrorsPassThrough() async throws {
        let source = try AerisHarness.source()
        let failure = HTTPError.timeout(seconds: 30, url: "https://api.aerisapi.com/sunmoon/47.6097,-122.3331?client_id=REDACTED")
        let http = RecordingHTTPClient(.failure(failure))
        await #expect(throws: failure) {
            try await source.resolve("phases:2", context: SourceContextBuilder(now: AerisHarness.now, http: http).build())
        }
    }

    @Test func aCredentialsRejectionInA200GetsTheSameHintAsA401() async throws {
        let error = try await AerisHarness.failure("phases:5", body: Self.invalidClient.body)
        #expect(error as? ConditionsError == .upstream(
            "Aeris rejected the credentials (HTTP 200, success: false): Aeris error invalid_client: The client provided is invalid; check sources.aeris.options.clientId and sources.aeris.options.clientSecret"))
    }

    /// The real bytes of an `invalid_client` answer (weewx-forecast's saved response; Resources/SOURCES.md).
    @Test func theRealInvalidClientBodyIsACredentialsRejection() async throws {
        let body = try AerisFixture.data("invalid_client")
        let error = try await AerisHarness.failure("moon:now", body: body)
        let message = try #require((error as? ConditionsError)?.message)
        #expect((error as? ConditionsError)?.kind == .upstream)
        #expect(message.hasPrefix("Aeris rejected the credentials"))
        #expect(message.hasSuffix("check sources.aeris.options.clientId and sources.aeris.options.clientSecret"))
    }

    @Test func otherEnvelopeErrorsInA200AreUpstreamErrors() async throws {
        let body = Data(#"{"success":false,"error":{"code":"invalid_location","description":"The requested location was not found."},"response":[]}"#.utf8)
        let error = try await AerisHarness.failure("moon:now", body: body)
        #expect(error as? ConditionsError == .upstream("Aeris error invalid_location: The requested location was not found."))
    }

    @Test(arguments: [
        #"{"success":true,"error":{"code":"warn_no_data","description":"Valid request. No results available based on your query parameters."},"response":[]}"#,
        #"{"success":true,"error":{"code":"warn_no_data","description":"No data was returned for the request."},"response":[]}"#,
    ])
    func aWarningWithNoDataFailsAsUpstreamWithTheDescription(_ body: String) async throws {
        for urn in ["moon:now", "phases:5"] {
            let error = try #require(try await AerisHarness.failure(urn, body: Data(body.utf8)) as? ConditionsError)
            #expect(error.kind == .upstream)
            #expect(error.message.hasPrefix("Aeris error warn_no_data: "))
            #expect(!error.message.contains("malformed") && !error.message.contains("empty"))
        }
    }

    @Test(arguments: [
        ([("clientSecret", JSONValue.string("x"))], "sources.aeris.options.clientId: required (Aeris credentials; normally \"${AERIS_CLIENT_ID}\")"),
        ([("clientId", "x")], "sources.aeris.options.clientSecret: required (Aeris credentials; normally \"${AERIS_CLIENT_SECRET}\")"),
        ([("clientId", ""), ("clientSecret", "x")], "sources.aeris.options.clientId: is empty (is AERIS_CLIENT_ID set?)"),
        ([("clientId", "x"), ("clientSecret", " ")], "sources.aeris.options.clientSecret: is empty (is AERIS_CLIENT_SECRET set?)"),
        ([("clientId", 42), ("clientSecret", "x")], "sources.aeris.options.clientId: expected a string, found number"),
        ([("clientId", "x"), ("clientSecret", "x"), ("baseURL", "ftp://api.aerisapi.com")],
         "sources.aeris.options.baseURL: expected an http or https URL without query, such as \"https://api.aerisapi.com\""),
        ([("clientId", "x"), ("clientSecret", "x"), ("baseURL", "https://api.aerisapi.com?client_secret=x")],
         "sources.aeris.options.baseURL: expected an http or https URL without query, such as \"https://api.aerisapi.com\""),
        ([("clientId", "x"), ("clientSecret", "x"), ("baseURL", "api.aerisapi.com")],
         "sources.aeris.options.baseURL: expected an http or https URL without query, such as \"https://api.aerisapi.com\""),
        ([("clientId", "x"), ("clientSecret", "x"), ("location", ["latitude": 95, "longitude": 0])],
         "sources.aeris.options.location.latitude: 95.0 is outside -90…90"),
        ([("clientId", "x"), ("clientSecret", "x"), ("location", "Seattle")],
         "sources.aeris.options.location: expected an object, found string"),
        ([("clientId", "x"), ("clientSecret", "x"), ("clientSecert", "x")],
         "unknown option sources.aeris.options.clientSecert (did you mean \"clientSecret\"?); known: baseURL, clientId, clientSecret, location"),
    ] as [([(String, JSONValue)], String)])
    func badOptionsAreConfigurationErrorsNamingTheKey(_ members: [(String, JSONValue)], _ message: String) {
        #expect(throws: ConditionsError.configuration(message)) { try AerisHarness.source(members) }
    }

    @Test func secretsNeverReachErrorsOrLogs() async throws {
        let capture = LogCapture()
        let logger = capture.logger
        let source = try AerisHarness.source(logger: logger)
        let echoing: JSONValue = [
            "success": false,
            "error": ["code": "invalid_client", "description": "client_secret s3cr3t-VALUE for aeris-ID-4711 is not valid"],
            "response": [],
        ]
        let broken = try AerisFixture.sunMoon.replacing(["response", 0, "moon", "phase", "illum"], with: "s3cr3t-VALUE")
        let scenarios: [(status: Int, headers: [String: String], body: Data)] = [
            (401, [:], echoing.body),
            (403, [:], echoing.body),
            (429, ["retry-after": "60"], echoing.body),
            (502, [:], echoing.body),
            (200, [:], echoing.body),
            (200, [:], broken.body),
            (200, [:], Data("not json s3cr3t-VALUE".utf8)),
        ]
        var messages: [String] = []
        var requests: [HTTPRequest] = []
        for scenario in scenarios {
            let http = RecordingHTTPClient(.response(status: scenario.status, headers: scenario.headers, body: scenario.body))
            for urn in ["moon:now", "moon:2026-12-04", "phases:5"] {
                do {
                    _ = try await source.resolve(urn, context: SourceContextBuilder(now: AerisHarness.now, logger: logger, http: http).build())
                    Issue.record("\(urn) with HTTP \(scenario.status) unexpectedly succeeded")
                } catch {
                    messages.append(ConditionsError.report(error).message)
                    messages.append(String(describing: error))
                }
            }
            requests += http.requests
        }
        let http = RecordingHTTPClient(.body(try AerisFixture.sunMoon.body))
        let result = try await source.resolve("moon:now", context: SourceContextBuilder(now: AerisHarness.now, logger: logger, http: http).build())
        requests += http.requests

        #expect(messages.count == scenarios.count * 3 * 2)
        #expect(!messages.contains { $0.contains(AerisHarness.secret) })
        #expect(!messages.contains { $0.contains(AerisHarness.clientId) })
        #expect(!result.data.serialized().contains(AerisHarness.secret))

        let logs = capture.lines
        #expect(logs.contains { $0.contains("client_secret=REDACTED") })
        #expect(!logs.isEmpty && !logs.contains { $0.contains(AerisHarness.secret) || $0.contains(AerisHarness.clientId) })

        // The secret travels only as the client_secret query parameter.
        #expect(requests.count == scenarios.count * 3 + 1)
        for request in requests {
            let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            #expect(!request.url.path.contains(AerisHarness.secret))
            #expect(!request.headers.contains { $0.key.contains(AerisHarness.secret) || $0.value.contains(AerisHarness.secret) })
            let carrying = (components.queryItems ?? []).filter { $0.value?.contains(AerisHarness.secret) == true }
            #expect(carrying.map(\.name) == ["client_secret"])
        }
    }
}
