import ConditionsHTTP
import ConditionsKit
import Foundation
import LoopbackServer
import Testing

@Suite("CurlHTTPClient responses and errors")
struct CurlHTTPClientTests {
    @Test func returnsStatusBodyHeadersAndFinalURL() async throws {
        let server = try startServer {
            $0.route("/data", .init(status: 200, headers: ["Content-Type": "application/json", "X-Upstream-Thing": "42"], body: Data(#"{"ok":true}"#.utf8)))
        }
        let client = try makeClient()
        let response = try await client.get(server.url("/data?x=1"), headers: ["Accept": "application/json"])

        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["x-upstream-thing"] == "42")
        #expect(response.headers.keys.allSatisfy { $0 == $0.lowercased() })
        #expect(response.url == server.url("/data?x=1"))

        let seen = try #require(server.requests.first)
        #expect(seen.method == "GET")
        #expect(seen.query == "x=1")
        #expect(seen.headers["user-agent"] == "conditions/9.9-test")
        #expect(seen.headers["accept"] == "application/json")
        #expect(seen.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func sendsOtherMethodsAndHeadersWithEmptyValues() async throws {
        let server = try startServer { $0.route("/thing", .text("done")) }
        let client = try makeClient()
        let deleted = try await client.send(HTTPRequest(method: "DELETE", url: server.url("/thing"), headers: ["X-Empty": ""]))
        let head = try await client.send(HTTPRequest(method: "HEAD", url: server.url("/thing")))

        #expect(deleted.status == 200)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(server.requests.map(\.method) == ["DELETE", "HEAD"])
        #expect(server.requests.first?.headers["x-empty"] == "")
    }

    @Test(arguments: [404, 500, 503])
    func returnsErrorStatusesAndRequireSuccessRedacts(status: Int) async throws {
        let server = try startServer { $0.route("/missing", .init(status: status, headers: ["Retry-After": "30"], body: Data("nope".utf8))) }
        let client = try makeClient()
        let response = try await client.get(server.url("/missing?client_secret=xyz&q=1"))

        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self) == "nope")
        let error = try #require(throws: HTTPError.self) { try response.requireSuccess() }
        #expect(error == .status(status, url: server.url("/missing?client_secret=REDACTED&q=1").absoluteString, retryAfter: "30"))
        #expect(error.message.contains("HTTP \(status)"))
        #expect(error.message.contains("client_secret=REDACTED"))
        #expect(!error.message.contains("xyz"))
    }

    @Test func followsRedirectsAndKeepsOnlyTheFinalHeaders() async throws {
        let server = try startServer {
            $0.redirectChain(from: "/start", hops: 3, to: "/final?done=1")
            $0.route("/final", .init(headers: ["X-Final": "yes"], body: Data("arrived".utf8)))
        }
        let client = try makeClient()
        let response = try await client.get(server.url("/start"))

        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "arrived")
        #expect(response.url == server.url("/final?done=1"))
        #expect(response.headers["x-final"] == "yes")
        #expect(response.headers["location"] == nil)
        #expect(server.requests.map(\.path) == ["/start", "/start/1", "/start/2", "/final"])
    }

    @Test func followsExactlyTheRedirectLimitAndFailsBeyondIt() async throws {
        let server = try startServer {
            $0.redirectChain(from: "/three", hops: 3, to: "/final")
            $0.redirectChain(from: "/four", hops: 4, to: "/final?token=xyz")
            $0.route("/final", .text("ok"))
        }
        let client = try makeClient(HTTPLimits(maxRedirects: 3))
        #expect(try await client.get(server.url("/three")).status == 200)

        let error = await httpError { _ = try await client.get(server.url("/four?client_secret=xyz")) }
        guard case .tooManyRedirects(let url)? = error else {
            Issue.record("expected tooManyRedirects, got \(String(describing: error))")
            return
        }
        #expect(url.hasPrefix(server.url("/four").absoluteString))
        #expect(!url.contains("xyz"))
        // Only the chain within the limit reached its target.
        #expect(server.requestCount("/final") == 1)
        #expect(server.requestCount("/four/3") == 1)
    }

    @Test func decodesGzipBodies() async throws {
        // Over 64 KiB, so the encoded stream spans several deflate blocks.
        let text = String(repeating: "Snoqualmie Pass: bare and wet. ", count: 5_000)
        let server = try startServer { $0.route("/gz", Response.text(text).gzipped()) }
        let client = try makeClient()
        let response = try await client.get(server.url("/gz"))

        #expect(response.status == 200)
        #expect(response.headers["content-encoding"] == "gzip")
        #expect(String(decoding: response.body, as: UTF8.self) == text)
    }

    @Test func slowResponseHitsTheTotalTimeout() async throws {
        // The delay ends when the client goes, so a long one costs nothing.
        let server = try startServer { $0.route("/slow", Response.text("late").delayed(3600)) }
        let client = try makeClient(HTTPLimits(connectTimeout: 5, timeout: 1))
        // The server answers after an hour: only the client's timeout can end the request so.
        let error = await httpError { _ = try await client.get(server.url("/slow?api_key=xyz")) }
        #expect(error == .timeout(seconds: 1, url: server.url("/slow?api_key=REDACTED").absoluteString))
        #expect(error?.message.hasPrefix("timed out after 1 s") == true)
    }

    @Test func hangingAfterHeadersHitsTheTimeout() async throws {
        let server = try startServer { $0.route("/hang", Response.text("never").with(.hangAfterHeaders)) }
        let client = try makeClient(HTTPLimits(timeout: 1))
        let error = await httpError { _ = try await client.get(server.url("/hang")) }
        #expect(error?.kind == .timeout)
    }

    @Test func trickledResponseArrivesWhole() async throws {
        let text = String(repeating: "abc", count: 100)
        let server = try startServer { $0.route("/trickle", Response.text(text).with(.trickle(chunkBytes: 64, interval: 0.01))) }
        let client = try makeClient()
        let response = try await client.get(server.url("/trickle"))
        #expect(String(decoding: response.body, as: UTF8.self) == text)
    }

    @Test func bodyOverTheLimitWithContentLengthIsRefused() async throws {
        let server = try startServer {
            $0.route("/big", .init(body: Data(repeating: 65, count: 5_000)))
            $0.route("/fits", .init(body: Data(repeating: 65, count: 1_000)))
        }
        let client = try makeClient(HTTPLimits(maxBodyBytes: 1_000))
        #expect(try await client.get(server.url("/fits")).body.count == 1_000)
        let error = await httpError { _ = try await client.get(server.url("/big?token=xyz")) }
        #expect(error == .bodyTooLarge(limit: 1_000, url: server.url("/big?token=REDACTED").absoluteString))
    }

    @Test func endlessChunkedBodyIsAbortedEarly() async throws {
        // A pebibyte: no client reads that to its end, so a transfer that was not aborted at the
        // limit ends at the timeout instead, with another error. The error is the proof, not
        // the time it took; the timeout only has to outlast reading 1 MiB.
        let server = try startServer {
            $0.route("/huge", Response().with(.hugeBody(bytes: 1 << 50, chunked: true)))
            $0.route("/huge-declared", Response().with(.hugeBody(bytes: 1 << 50, chunked: false)))
        }
        let client = try makeClient(HTTPLimits(timeout: 120, maxBodyBytes: 1 << 20))
        for path in ["/huge", "/huge-declared"] {
            let error = await httpError { _ = try await client.get(server.url(path)) }
            #expect(error == .bodyTooLarge(limit: 1 << 20, url: server.url(path).absoluteString))
        }
        // The aborted transfers must not poison the pool: the server still answers.
        server.route("/after", .text("fine"))
        let after = try await client.get(server.url("/after"))
        #expect(after.status == 200)
    }

    @Test func limitedViewAppliesItsOwnLimits() async throws {
        let server = try startServer { $0.route("/medium", .init(body: Data(repeating: 66, count: 500))) }
        let client = try makeClient()
        let strict = client.limited(HTTPLimits(maxBodyBytes: 100))

        #expect(try await client.get(server.url("/medium")).body.count == 500)
        let error = await httpError { _ = try await strict.get(server.url("/medium")) }
        #expect(error == .bodyTooLarge(limit: 100, url: server.url("/medium").absoluteString))
    }

    @Test func closedPortIsRefused() async throws {
        let closed = try LoopbackServer.RefusedPort()
        let client = try makeClient()
        let error = await httpError { _ = try await client.get(closed.url("/anything?client_secret=xyz")) }
        #expect(error == .refused(host: "127.0.0.1:\(closed.port)"))
        withExtendedLifetime(closed) {}
    }

    @Test func unresolvableHostIsADNSError() async throws {
        // Timeouts no stall of a loaded machine reaches: one would make this a timeout error.
        let client = try makeClient(HTTPLimits(connectTimeout: 30, timeout: 30))
        let error = await httpError { _ = try await client.get(URL(string: "http://conditions-test.invalid/x")!) }
        #expect(error == .dns(host: "conditions-test.invalid"))
    }

    @Test func truncatedBodiesAreTransportErrors() async throws {
        let body = Data(repeating: 67, count: 10_000)
        let server = try startServer {
            $0.route("/cut", Response(body: body).with(.closeMidBody(afterBytes: 2_000)))
            $0.route("/liar", Response(body: body).with(.wrongContentLength(declared: 20_000)))
            $0.route("/silent", Response(body: body).with(.closeWithoutResponse))
        }
        // A timeout no stall of a loaded machine reaches: one would make these timeout errors.
        let client = try makeClient(HTTPLimits(timeout: 30))
        for path in ["/cut", "/liar", "/silent"] {
            let error = await httpError { _ = try await client.get(server.url(path + "?password=xyz")) }
            guard case .transport(let url, let detail)? = error else {
                Issue.record("\(path): expected transport, got \(String(describing: error))")
                continue
            }
            #expect(url == server.url(path + "?password=REDACTED").absoluteString)
            #expect(!detail.isEmpty && !detail.contains("xyz"))
        }
    }

    @Test func rejectsOtherSchemesAndHeaderInjection() async throws {
        let client = try makeClient()
        let ftp = await httpError { _ = try await client.get(URL(string: "ftp://127.0.0.1/file?token=xyz")!) }
        #expect(ftp == .transport(url: "ftp://127.0.0.1/file?token=REDACTED", detail: "unsupported URL scheme \"ftp\""))
        let injected = await httpError {
            _ = try await client.get(URL(string: "http://127.0.0.1:9/")!, headers: ["X-Bad": "a\r\nHost: evil"])
        }
        #expect(injected?.kind == .network)
    }

    @Test func redirectToAnotherSchemeIsRefused() async throws {
        let server = try startServer { $0.route("/away", .redirect(to: "ftp://127.0.0.1/file")) }
        let client = try makeClient()
        let error = await httpError { _ = try await client.get(server.url("/away")) }
        guard case .transport? = error else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
    }

    @Test func secretsNeverAppearInAnyError() async throws {
        let server = try startServer {
            $0.route("/404", .text("no", status: 404))
            $0.route("/slow", Response.text("late").delayed(10))
            $0.route("/big", .init(body: Data(count: 4_096)))
            $0.redirectChain(from: "/loop", hops: 3, to: "/loop?client_secret=xyz")
            $0.route("/cut", Response(body: Data(count: 4_096)).with(.closeMidBody(afterBytes: 10)))
        }
        let closed = try LoopbackServer.RefusedPort()
        let closedURL = closed.url("/x?client_secret=xyz")
        defer { withExtendedLifetime(closed) {} }
        let client = try makeClient(HTTPLimits(timeout: 1, maxBodyBytes: 1_024, maxRedirects: 2))
        let query = "?client_secret=xyz&access_token=xyz&password=xyz"

        var messages: [String] = []
        do { try await client.get(server.url("/404" + query)).requireSuccess() } catch { messages.append(error.message + "\(error)") }
        for url in [server.url("/slow" + query), server.url("/big" + query), server.url("/loop" + query), server.url("/cut" + query), closedURL] {
            if let error = await httpError({ _ = try await client.get(url) }) {
                messages.append(error.message + " \(error)")
            }
        }
        #expect(messages.count == 6)
        for message in messages {
            #expect(!message.contains("xyz"), "secret in: \(message)")
        }
    }
}

private extension Error {
    var message: String { (self as? HTTPError)?.message ?? "\(self)" }
}

typealias Response = LoopbackServer.Response
