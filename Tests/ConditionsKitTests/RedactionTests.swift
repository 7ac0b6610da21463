@testable import ConditionsKit
import ConditionsText
import Foundation
import Testing


/// Secrets never reach output: URLs and headers are masked before printing.
@Suite struct RedactionTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test(arguments: [
        ("https://wsdot.wa.gov/Traffic/api/MountainPassConditions?AccessCode=abc123&format=json",
         "https://wsdot.wa.gov/Traffic/api/MountainPassConditions?AccessCode=REDACTED&format=json"),
        ("https://api.example.com/v1/tides?station=9447130&api_key=s3cr3t",
         "https://api.example.com/v1/tides?station=9447130&api_key=REDACTED"),
        ("https://auth.example.com/token?client_id=app&client_secret=hunter2&grant_type=client_credentials",
         "https://auth.example.com/token?client_id=REDACTED&client_secret=REDACTED&grant_type=client_credentials"),
        ("https://x.example/a?ACCESS_TOKEN=t0k&q=snow%20pass",
         "https://x.example/a?ACCESS_TOKEN=REDACTED&q=snow%20pass"),
        ("https://x.example/a?format=json", "https://x.example/a?format=json"),
        ("https://x.example/a", "https://x.example/a"),
    ] as [(String, String)])
    func queryParameters(input: String, expected: String) throws {
        #expect(Redaction.redact(try url(input)) == expected)
    }

    @Test func secretValuesNeverSurvive() throws {
        let redacted = Redaction.redact(try url("https://user:pa55word@x.example/p?apiKey=K3Y&Signature=S1G&sessionid=SE55&lat=47.6"))
        for secret in ["pa55word", "K3Y", "S1G", "SE55"] { #expect(!redacted.contains(secret), "\(secret) in \(redacted)") }
        #expect(redacted.contains("lat=47.6"))
        #expect(redacted.contains("user:REDACTED@x.example"))
    }

    @Test func percentEncodedSecretIsMasked() throws {
        let redacted = Redaction.redact(try url("https://x.example/?client_secret=a%2Fb%3Dc&id=1"))
        #expect(redacted == "https://x.example/?client_secret=REDACTED&id=1")
    }

    @Test func valuelessParameterStaysValueless() throws {
        #expect(Redaction.redact(try url("https://x.example/?token&a=b")) == "https://x.example/?token&a=b")
    }

    @Test func headers() {
        let headers = ["Authorization": "Bearer abc", "X-Api-Key": "k", "Cookie": "s=1", "Accept": "application/json", "User-Agent": "conditions"]
        let redacted = Redaction.redact(headers: headers)
        #expect(redacted == ["Authorization": "REDACTED", "X-Api-Key": "REDACTED", "Cookie": "REDACTED", "Accept": "application/json", "User-Agent": "conditions"])
    }

    @Test(arguments: [("client_secret", true), ("AccessCode", true), ("api_key", true), ("Authorization", true), ("X-Auth-Token", true),
                      ("password", true), ("format", false), ("station", false), ("lat", false), ("Accept", false)])
    func sensitiveNames(name: String, sensitive: Bool) {
        #expect(Redaction.isSensitive(name) == sensitive)
    }

    @Test func statusErrorsCarryTheRedactedURL() throws {
        let response = HTTPResponse(status: 429, headers: ["retry-after": "30"], body: Data(), url: try url("https://x.example/p?AccessCode=abc123"))
        let error = #expect(throws: HTTPError.self) { try response.requireSuccess() }
        #expect(error == .status(429, url: "https://x.example/p?AccessCode=REDACTED", retryAfter: "30"))
        #expect(error?.kind == .http)
        #expect(error?.message == "HTTP 429 Too Many Requests from https://x.example/p?AccessCode=REDACTED (retry after 30)")
        #expect(throws: Never.self) { try HTTPResponse(status: 204, body: Data(), url: try url("https://x.example")).requireSuccess() }
    }

    @Test func unavailableClientRedactsToo() async throws {
        let client = UnavailableHTTPClient(reason: "offline")
        await #expect(throws: HTTPError.transport(url: "https://x.example/?api_key=REDACTED", detail: "offline")) {
            _ = try await client.get(try url("https://x.example/?api_key=s3cr3t"))
        }
    }
}
