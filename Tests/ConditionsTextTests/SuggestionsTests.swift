@testable import ConditionsText
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// "Did you mean": close names only, closest first.
@Suite struct SuggestionsTests {
    private let passes = ["snoqualmie", "stevens", "white", "blewett", "chinook", "cayuse", "manastash", "satus", "sherman", "mt-baker", "loup-loup"]

    @Test func closeMatches() {
        #expect(Suggestions.closest(to: "snoqalmie", among: passes) == ["snoqualmie"])
        #expect(Suggestions.closest(to: "whte", among: passes) == ["white"])
        #expect(Suggestions.closest(to: "chinok", among: passes) == ["chinook"])
        #expect(Suggestions.closest(to: "snoqualmie", among: passes).first == "snoqualmie")
    }

    @Test func transpositionsCountAsOneEdit() {
        #expect(Suggestions.editDistance(Array("ab"), Array("ba")) == 1)
        #expect(Suggestions.editDistance(Array("stevnes"), Array("stevens")) == 1)
        #expect(Suggestions.closest(to: "setvens", among: passes) == ["stevens"])
        #expect(Suggestions.closest(to: "wihte", among: passes) == ["white"])
    }

    @Test func editDistance() {
        #expect(Suggestions.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestions.editDistance(Array(""), Array("abc")) == 3)
        #expect(Suggestions.editDistance(Array("abc"), Array("")) == 3)
        #expect(Suggestions.editDistance(Array("same"), Array("same")) == 0)
        #expect(Suggestions.editDistance(Array("flaw"), Array("lawn")) == 2)
    }

    @Test(arguments: ["xyzzy", "tides", "qqqqqqqqqq", "12345"])
    func totallyDifferentWordsGetNothing(text: String) {
        #expect(Suggestions.closest(to: text, among: passes) == [])
    }

    @Test func orderedByDistanceThenName() {
        #expect(Suggestions.closest(to: "pas", among: ["moon", "paste", "past", "pass"]) == ["pass", "past", "paste"])
        #expect(Suggestions.closest(to: "pas", among: ["moon", "paste", "past", "pass"], limit: 2) == ["pass", "past"])
        #expect(Suggestions.closest(to: "white", among: ["whites", "white", "whit"]) == ["white", "whit", "whites"])
    }

    @Test func sharedPrefixCountsEvenWhenFar() {
        #expect(Suggestions.closest(to: "man", among: passes) == ["manastash"])
        #expect(Suggestions.closest(to: "loup", among: passes) == ["loup-loup"])
    }

    @Test func caseInsensitiveButReturnsCandidatesAsGiven() {
        #expect(Suggestions.closest(to: "SNOQUALMIE", among: passes) == ["snoqualmie"])
        #expect(Suggestions.closest(to: "timezone", among: ["name", "timeZone"]) == ["timeZone"])
    }

    @Test func hugeTextGetsNoSuggestionsAndCostsNothing() {
        // A hostile 1 MB config key once took seconds of edit distance against every allowed key.
        let huge = "location" + String(repeating: "k", count: 1 << 20)
        // Timed by this thread's CPU time, which a loaded machine cannot stretch (the wall clock
        // also counts the time the thread waits for a core); the cost guarded against is seconds
        // of computing either way.
        let started = threadCPUTime()
        #expect(Suggestions.closest(to: huge, among: ["location", "sources", "routes", "profiles", "report", "http", "cache"]) == [])
        #expect(threadCPUTime() - started < .seconds(1))  // wall-clock-ok: this thread's CPU time, which waiting for a core does not add to; the cost guarded against is seconds
        let longest = String(repeating: "w", count: Suggestions.maximumLength - 5) + "hite"
        #expect(Suggestions.closest(to: longest, among: [longest + "s"]) == [longest + "s"])
    }

    @Test func noCandidatesNoSuggestions() {
        #expect(Suggestions.closest(to: "white", among: []) == [])
        #expect(Suggestions.closest(to: "white", among: passes, limit: 0) == [])
    }
}

/// The CPU time the calling thread has used so far.
func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}
