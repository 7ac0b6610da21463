import ConditionsHTTP
import ConditionsKit
import Foundation
import LoopbackServer
import Testing

/// Issue 40: which proxy a request goes through, chosen from the environment with libcurl
/// 7.88's precedence, and errors that name it and its variable.
@Suite("Proxies: precedence, no_proxy, errors")
struct ProxyTests {
    // MARK: Precedence

    @Test func httpURLsUseLowerCaseHTTPProxyThenAllProxyThenALLPROXY() {
        let all: [String: String] = ["http_proxy": "h:1", "HTTP_PROXY": "H:2", "all_proxy": "a:3", "ALL_PROXY": "A:4"]
        #expect(ProxySettings(environment: all).http == .init(value: "h:1", variable: "http_proxy"))
        var environment = all
        environment["http_proxy"] = nil
        // HTTP_PROXY is never read: a CGI program gets it from a request's Proxy: header.
        #expect(ProxySettings(environment: environment).http == .init(value: "a:3", variable: "all_proxy"))
        environment["all_proxy"] = nil
        #expect(ProxySettings(environment: environment).http == .init(value: "A:4", variable: "ALL_PROXY"))
        #expect(ProxySettings(environment: ["HTTP_PROXY": "H:2"]).http == nil)
    }

    @Test func httpsURLsUseHTTPSProxyInEitherCaseThenAllProxy() {
        var environment = ["https_proxy": "s:1", "HTTPS_PROXY": "S:2", "all_proxy": "a:3", "ALL_PROXY": "A:4", "http_proxy": "h:5"]
        #expect(ProxySettings(environment: environment).https?.variable == "https_proxy")
        environment["https_proxy"] = nil
        #expect(ProxySettings(environment: environment).https?.variable == "HTTPS_PROXY")
        environment["HTTPS_PROXY"] = nil
        #expect(ProxySettings(environment: environment).https?.variable == "all_proxy")
        environment["all_proxy"] = nil
        #expect(ProxySettings(environment: environment).https == .init(value: "A:4", variable: "ALL_PROXY"))
        environment["ALL_PROXY"] = nil
        #expect(ProxySettings(environment: environment).https == nil, "http_proxy is for http only")
    }

    @Test func anEmptyVariableCountsAsUnset() {
        let settings = ProxySettings(environment: ["https_proxy": "", "HTTPS_PROXY": "S:2", "http_proxy": "", "all_proxy": "a:3",
                                                   "no_proxy": "", "NO_PROXY": "example.org"])
        #expect(settings.https?.variable == "HTTPS_PROXY")
        #expect(settings.http?.variable == "all_proxy")
        #expect(settings.noProxy == "example.org")
    }

    @Test func lowerCaseNoProxyComesFirstAndAppliesToEveryScheme() throws {
        let settings = ProxySettings(environment: ["all_proxy": "a:3", "no_proxy": "example.org", "NO_PROXY": "example.net"])
        #expect(settings.noProxy == "example.org")
        #expect(settings.proxy(for: try #require(URL(string: "http://www.example.org/x"))) == nil)
        #expect(settings.proxy(for: try #require(URL(string: "https://example.org/x"))) == nil)
        #expect(settings.proxy(for: try #require(URL(string: "https://example.net/x")))?.variable == "all_proxy")
        #expect(settings.proxy(forScheme: "ftp") == nil)
        #expect(ProxySettings.none.proxy(for: try #require(URL(string: "http://example.org/"))) == nil)
    }

    // MARK: Names

    @Test(arguments: [
        ("http://127.0.0.1:9", "127.0.0.1:9"),
        ("127.0.0.1:9", "127.0.0.1:9"),
        ("http://user:secret@proxy.example:3128/", "proxy.example:3128"),
        ("user:secret@proxy.example:3128", "proxy.example:3128"),
        ("proxy.example", "proxy.example:1080"),
        ("HTTP://proxy.example:8080/path?q=secret", "proxy.example:8080"),
        ("https://proxy.example", "https://proxy.example:443"),
        ("socks5h://u:p@[::1]:1080", "socks5h://[::1]:1080"),
        ("http://[2001:db8::1]", "[2001:db8::1]:1080"),
    ])
    func aProxyIsNamedByHostAndPortWithoutCredentials(value: String, name: String) {
        let proxy = ProxySettings.Proxy(value: value, variable: "http_proxy")
        #expect(proxy.name == name)
        #expect(!proxy.name.contains("secret") && !proxy.name.contains("user") && !proxy.name.contains("u:p"))
    }

    // MARK: no_proxy, as libcurl 7.88 matches it

    @Test(arguments: [
        // host names: the name itself or a domain it is in, any case, dots at either end ignored
        ("example.com", "example.com", true),
        ("example.com", "www.example.com", true),
        ("example.com", "WWW.Example.COM", true),
        ("example.com", "example.com.", true),
        (".example.com", "example.com", true),
        (".example.com", "a.b.example.com", true),
        ("example.com.", "www.example.com", true),
        ("example.com", "notexample.com", false),
        ("example.com", "example.com.org", false),
        ("www.example.com", "example.com", false),
        // lists: commas and blanks separate
        ("a.test, localhost ,b.test", "localhost", true),
        ("a.test\tlocalhost", "localhost", true),
        ("a.test b.test", "b.test", true),
        ("a.test,,b.test", "c.test", false),
        // * alone is every host; inside a list it is just a name
        ("*", "anything.example", true),
        ("*", "10.1.2.3", true),
        ("*,a.test", "b.test", false),
        // IPv4: the address, or a CIDR range; /0 means the address itself
        ("127.0.0.1", "127.0.0.1", true),
        ("127.0.0.1", "127.0.0.10", false),
        ("localhost,127.0.0.1", "127.0.0.1", true),
        ("10.0.0.0/8", "10.200.3.4", true),
        ("10.0.0.0/8", "11.0.0.1", false),
        ("192.168.1.0/24", "192.168.1.77", true),
        ("192.168.1.0/24", "192.168.2.1", false),
        ("192.168.1.5/32", "192.168.1.5", true),
        ("10.0.0.0/0", "10.0.0.1", false),
        ("10.0.0.0/0", "10.0.0.0", true),
        ("10.0.0.0/33", "10.0.0.0", false),
        ("10.0.0.0/-1", "10.0.0.0", false),
        // an address never matches a name, a name never matches an address or range
        ("0.0.1", "127.0.0.1", false),
        ("127.0.0.0/8", "localhost", false),
        // not an address to inet_pton (a leading zero): compared as a name
        ("0.0.1", "010.0.0.1", true),
        // IPv6: compared as a name, brackets dropped from the host, never in the list
        ("::1", "[::1]", true),
        ("::1", "::1", true),
        ("[::1]", "[::1]", false),
        ("example.com", "", false),
        ("", "example.com", false),
    ])
    func noProxyMatchesAsLibcurlDoes(noProxy: String, host: String, bypasses: Bool) {
        #expect(ProxySettings.bypasses(host: host, noProxy: noProxy) == bypasses)
    }

    // MARK: Errors

    @Test func aProxyFailureIsOneLineNamingTheProxyAndItsVariable() {
        let url = "http://example.org/data"
        #expect(HTTPError.proxy(proxy: "127.0.0.1:9", variable: "http_proxy", problem: .refused, url: url).message
            == "the proxy 127.0.0.1:9 (from http_proxy) refused the connection: http://example.org/data")
        #expect(HTTPError.proxy(proxy: "p.invalid:1080", variable: "all_proxy", problem: .unresolved, url: url).message
            == "the proxy p.invalid:1080 (from all_proxy) could not be resolved: http://example.org/data")
        let timedOut = HTTPError.proxy(proxy: "10.9.9.9:3128", variable: "HTTPS_PROXY", problem: .timedOut(seconds: 2.5), url: url)
        #expect(timedOut.message == "the proxy 10.9.9.9:3128 (from HTTPS_PROXY) did not connect within 2.5 s: http://example.org/data")
        #expect(timedOut.kind == .timeout)
        #expect(HTTPError.proxy(proxy: "p:1", variable: "https_proxy", problem: .tunnelRefused(status: 403), url: url).message
            == "the proxy p:1 (from https_proxy) refused the tunnel with HTTP 403: http://example.org/data")
        for problem: HTTPError.ProxyProblem in [.refused, .unresolved, .tunnelRefused(status: 407), .unsupported] {
            #expect(HTTPError.proxy(proxy: "p:1", variable: "http_proxy", problem: problem, url: url).kind == .network)
        }
    }

    @Test func aRefusingProxyIsNamedNotTheUpstream() async throws {
        let upstream = try startServer { $0.route("/data", .text("direct")) }
        let refused = try LoopbackServer.RefusedPort()
        defer { withExtendedLifetime(refused) {} }
        let client = try CurlHTTPClient(version: "9.9-test", proxies: ProxySettings(environment: ["http_proxy": "http://127.0.0.1:\(refused.port)"]))
        let url = upstream.url("/data?client_secret=xyz")
        let error = await httpError { _ = try await client.get(url) }
        let redacted = upstream.url("/data?client_secret=REDACTED").absoluteString
        #expect(error == .proxy(proxy: "127.0.0.1:\(refused.port)", variable: "http_proxy", problem: .refused, url: redacted))
        #expect(error?.message == "the proxy 127.0.0.1:\(refused.port) (from http_proxy) refused the connection: \(redacted)")
        #expect(error?.kind == .network)
        #expect(upstream.stats.totalRequests == 0)
    }

    @Test func aProxysCredentialsNeverAppearInItsError() async throws {
        let refused = try LoopbackServer.RefusedPort()
        defer { withExtendedLifetime(refused) {} }
        for value in ["http://someone:hunter2@127.0.0.1:\(refused.port)", "someone:hunter2@127.0.0.1:\(refused.port)"] {
            let client = try CurlHTTPClient(version: "9.9-test", proxies: ProxySettings(environment: ["all_proxy": value]))
            let error = await httpError { _ = try await client.get(URL(string: "http://upstream.invalid/x")!) }
            #expect(error == .proxy(proxy: "127.0.0.1:\(refused.port)", variable: "all_proxy", problem: .refused, url: "http://upstream.invalid/x"))
            let shown = "\(String(describing: error)) \(error?.message ?? "")"
            #expect(!shown.contains("hunter2"))
            #expect(!shown.contains("someone"))
        }
    }

    @Test func noProxyReachesTheHostDirectly() async throws {
        let upstream = try startServer { $0.route("/data", .text("direct")) }
        let refused = try LoopbackServer.RefusedPort()
        defer { withExtendedLifetime(refused) {} }
        for noProxy in ["no_proxy": "127.0.0.1", "NO_PROXY": "localhost, 127.0.0.0/8"] {
            var environment = ["http_proxy": "http://127.0.0.1:\(refused.port)"]
            environment[noProxy.key] = noProxy.value
            let client = try CurlHTTPClient(version: "9.9-test", proxies: ProxySettings(environment: environment))
            let response = try await client.get(upstream.url("/data"))
            #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "direct", "\(noProxy)")
        }
    }

    @Test func upperCaseHTTPProxyIsIgnored() async throws {
        let upstream = try startServer { $0.route("/data", .text("direct")) }
        let refused = try LoopbackServer.RefusedPort()
        defer { withExtendedLifetime(refused) {} }
        let client = try CurlHTTPClient(version: "9.9-test", proxies: ProxySettings(environment: ["HTTP_PROXY": "http://127.0.0.1:\(refused.port)"]))
        let response = try await client.get(upstream.url("/data"))
        #expect(response.status == 200)
    }

    @Test func requestsGoThroughAWorkingProxy() async throws {
        let proxy = try startServer { $0.fallback { request in .text("proxied \(request.method) \(request.target)") } }
        let client = try CurlHTTPClient(version: "9.9-test", proxies: ProxySettings(environment: ["http_proxy": proxy.url("/").absoluteString]))
        // The upstream's name is never resolved here: the proxy is asked for the whole URL.
        let response = try await client.get(URL(string: "http://upstream.invalid/data?x=1")!)
        #expect(String(decoding: response.body, as: UTF8.self) == "proxied GET http://upstream.invalid/data?x=1")
    }

    @Test func aProxyRefusingTheTunnelIsNamedWithItsStatus() async throws {
        let proxy = try startServer { $0.fallback { _ in .text("not that one", status: 403) } }
        let client = try CurlHTTPClient(version: "9.9-test", proxies: ProxySettings(environment: ["HTTPS_PROXY": proxy.url("/").absoluteString]))
        let error = await httpError { _ = try await client.get(URL(string: "https://upstream.invalid/data")!) }
        let port = try #require(proxy.url("/").port)
        #expect(error == .proxy(proxy: "127.0.0.1:\(port)", variable: "HTTPS_PROXY", problem: .tunnelRefused(status: 403), url: "https://upstream.invalid/data"))
        #expect(proxy.requests.first?.method == "CONNECT")
        #expect(proxy.requests.first?.target == "upstream.invalid:443")
    }

    @Test func anUnresolvableProxyIsNamed() async throws {
        // Timeouts no stall of a loaded machine reaches: one would make this a timeout error.
        let client = try CurlHTTPClient(version: "9.9-test", limits: HTTPLimits(connectTimeout: 30, timeout: 30),
                                        proxies: ProxySettings(environment: ["http_proxy": "proxy.conditions-test.invalid:3128"]))
        let error = await httpError { _ = try await client.get(URL(string: "http://upstream.invalid/x")!) }
        #expect(error == .proxy(proxy: "proxy.conditions-test.invalid:3128", variable: "http_proxy", problem: .unresolved, url: "http://upstream.invalid/x"))
    }

    @Test func aProxyOfAnUnknownSchemeIsNamed() async throws {
        let client = try CurlHTTPClient(version: "9.9-test", proxies: ProxySettings(environment: ["http_proxy": "gopher://u:hunter2@127.0.0.1:70"]))
        let error = await httpError { _ = try await client.get(URL(string: "http://upstream.invalid/x")!) }
        #expect(error == .proxy(proxy: "gopher://127.0.0.1:70", variable: "http_proxy", problem: .unsupported, url: "http://upstream.invalid/x"))
        let shown = "\(String(describing: error)) \(error?.message ?? "")"
        #expect(!shown.contains("hunter2"))
    }
}
