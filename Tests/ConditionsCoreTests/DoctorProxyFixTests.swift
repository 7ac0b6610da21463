import ConditionsKit
import Testing
@testable import ConditionsCore

/// Issue 40: `conditions doctor`'s fix for a failure a proxy caused names the proxy, its
/// variable and the host to exempt, read from `HTTPError.proxy`'s message.
@Suite struct DoctorProxyFixTests {
    static let url = "https://data.wsdot.wa.gov/mobile/MountainPassConditions.json?AccessCode=REDACTED"

    func fix(_ problem: HTTPError.ProxyProblem, variable: String = "https_proxy", prefix: String = "") -> String? {
        let message = prefix + HTTPError.proxy(proxy: "127.0.0.1:9", variable: variable, problem: problem, url: Self.url).message
        return Doctor.NamedProxy(in: message)?.fix
    }

    @Test func aRefusingOrSilentProxyIsToBeStartedUnsetOrGoneAround() {
        let expected = "start the proxy at 127.0.0.1:9, or unset https_proxy, or add data.wsdot.wa.gov to no_proxy"
        #expect(fix(.refused) == expected)
        #expect(fix(.timedOut(seconds: 10)) == expected)
        #expect(fix(.refused, prefix: "wsdot-feed: ") == expected, "a source's own prefix")
    }

    @Test func aProxyNameThatDoesNotWorkIsToBeCorrected() {
        #expect(fix(.unresolved, variable: "ALL_PROXY")
            == "correct ALL_PROXY (127.0.0.1:9 does not resolve), or unset it, or add data.wsdot.wa.gov to no_proxy")
        #expect(fix(.unsupported, variable: "http_proxy")
            == "correct http_proxy (127.0.0.1:9 is not a proxy address), or unset it, or add data.wsdot.wa.gov to no_proxy")
        #expect(fix(.tunnelRefused(status: 403))
            == "have the proxy at 127.0.0.1:9 allow data.wsdot.wa.gov, or unset https_proxy, or add data.wsdot.wa.gov to no_proxy")
    }

    @Test func otherMessagesNameNoProxy() {
        #expect(Doctor.NamedProxy(in: HTTPError.refused(host: "127.0.0.1:9").message) == nil)
        #expect(Doctor.NamedProxy(in: "HTTP 502 Bad Gateway from \(Self.url)") == nil)
        #expect(Doctor.NamedProxy(in: "the proxy said no") == nil)
    }
}
