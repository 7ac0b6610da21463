import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// How the host's one retry reads `Retry-After` (the end-to-end retries are in FaultInjectionTests).
@Suite struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_795_269_600) // Sat, 21 Nov 2026 14:00:00 GMT

    @Test func deltaSecondsAndHTTPDates() {
        #expect(RetryingHTTPClient.seconds(retryAfter: "3", now: now) == 3)
        #expect(RetryingHTTPClient.seconds(retryAfter: " 120 ", now: now) == 120)
        #expect(RetryingHTTPClient.seconds(retryAfter: "Sat, 21 Nov 2026 14:00:04 GMT", now: now) == 4)
        // A date in the past means "now", never a negative wait.
        #expect(RetryingHTTPClient.seconds(retryAfter: "Sat, 21 Nov 2026 13:00:00 GMT", now: now) == 0)
        // Absurd values stay large (so they are not waited for) without overflowing.
        #expect((RetryingHTTPClient.seconds(retryAfter: String(repeating: "9", count: 400), now: now) ?? 0) > 5)
    }

    @Test func unusableValuesFallBackToTheBackoff() {
        for value in ["", "-1", "1.5", "soon", "%s%n", "Sat, 99 Nov 2026 14:00:00 GMT"] {
            #expect(RetryingHTTPClient.seconds(retryAfter: value, now: now) == nil, "\(value)")
        }
    }
}
