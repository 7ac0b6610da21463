import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Logging
import Synchronization
import TestHarness
import Testing
@testable import ConditionsCore

/// The Notifier in process, with an injected clock and an ntfy stand-in on loopback: quiet
/// hours hold what is below their bar and send the latest per URN when they end; an urgent
/// notice goes at once; a notice older than `maxAge` is dropped; a 429's `Retry-After` and the
/// backoff from 1 s set the next attempt; a newer notice replaces a pending older one.
@Suite struct NotifierTests {
    /// A test-only kind whose notice's priority is its data's.
    struct AlarmPresentation: ResultPresentation {
        let kind: ResultKind = "alarm"
        func render(_ data: JSONValue, context: PresentationContext) -> [String] { ["\(context.urn) \(data["level"]?.stringValue ?? "?")"] }
        func changeKey(_ data: JSONValue) -> ChangeKey { ChangeKey(status: data["level"]?.stringValue ?? "?") }
        func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
            Notice(title: "\(context.urn): \(current["level"]?.stringValue ?? "?")", body: render(current, context: context).joined(),
                   priority: Notice.Priority(rawValue: current["priority"]?.intValue ?? 3) ?? .normal)
        }
    }

    struct AlarmSource: ConditionsSource {
        static let moduleName = "Alarm"
        static let summary = "Alarms (tests only)"
        static let presentations: [any ResultPresentation] = [AlarmPresentation()]
        let routes: [RoutePattern] = ["alarm:{name}"]
        init(configuration: SourceConfiguration) throws {}
        func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult { SourceResult(data: [:]) }
    }

    final class Clock: Sendable {
        let now: Mutex<Date>
        init(_ text: String) { now = Mutex(Timestamp.parse(text)!) }
        func set(_ text: String) { now.withLock { $0 = Timestamp.parse(text)! } }
        var read: @Sendable () -> Date { { [self] in now.withLock { $0 } } }
    }

    static func alarm(_ level: String, priority: Int) -> JSONValue { ["level": .string(level), "priority": .int(priority)] }

    /// A notifier sending to `ntfy`'s topic, quiet 22:00–06:30 in Seattle below 5, at `clock`.
    static func notifier(_ ntfy: NtfyStandIn, clock: Clock, maxAge: Double = 7200) -> (Notifier, MemoryOutbox) {
        var settings = NotifySettings()
        settings.targets = [.init(name: "phone", kind: .ntfy(url: ntfy.topicURL("alarms").absoluteString, token: nil, username: nil, password: nil), insecure: false)]
        settings.rules = [.init(urns: ["alarm:home"], to: ["phone"], minPriority: .min, every: nil)]
        settings.quiet = .init(from: 22 * 60, to: 6 * 60 + 30, below: .urgent)
        settings.maxAge = maxAge
        let outbox = MemoryOutbox()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let target = ResolvedTarget(name: "phone", kind: .ntfy(url: ntfy.topicURL("alarms"), authorization: nil), secrets: [])
        let notifier = Notifier(settings: settings, targets: [target], outbox: outbox,
                                sender: NoticeSender(http: HTTPClients.make(version: "test", logger: logger)(HTTPLimits())),
                                catalog: SourceCatalog([AlarmSource.self]),
                                place: Place(name: "Seattle", latitude: 47.6, longitude: -122.3, timeZone: TimeZone(identifier: "America/Los_Angeles")),
                                logger: logger, clock: clock.read)
        return (notifier, outbox)
    }

    @Test func quietHoursHoldTheLatestAndLetAnUrgentOneThrough() async throws {
        let ntfy = NtfyStandIn()
        try ntfy.start()
        defer { ntfy.stop() }
        let clock = Clock("2026-11-28T23:00:00-08:00")
        let (notifier, _) = Self.notifier(ntfy, clock: clock)
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("calm", priority: 3), after: Self.alarm("windy", priority: 3), changeID: "1", at: clock.read())
        clock.set("2026-11-28T23:30:00-08:00")
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("windy", priority: 3), after: Self.alarm("stormy", priority: 4), changeID: "2", at: clock.read())
        await notifier.sendDue()
        #expect(ntfy.messages.isEmpty, "held: below 5 in quiet hours")
        await notifier.changed(urn: "alarm:far", kind: "alarm", before: Self.alarm("calm", priority: 3), after: Self.alarm("fire", priority: 5), changeID: "3", at: clock.read())
        // alarm:far has no rule: nothing. An urgent one for alarm:home goes at once.
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("stormy", priority: 4), after: Self.alarm("flood", priority: 5), changeID: "4", at: clock.read())
        await notifier.sendDue()
        #expect(ntfy.messages.map(\.title) == ["alarm:home: flood"], "\(ntfy.messages)")
        clock.set("2026-11-29T06:31:00-08:00")
        await notifier.sendDue()
        // The urgent one replaced the held ones of the same URN and target (the latest per URN).
        #expect(ntfy.messages.count == 1, "\(ntfy.messages)")

        // Held again, then quiet hours end: the latest held goes.
        clock.set("2026-11-29T05:00:00-08:00")
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("flood", priority: 5), after: Self.alarm("receding", priority: 3), changeID: "5", at: clock.read())
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("receding", priority: 3), after: Self.alarm("dry", priority: 2), changeID: "6", at: clock.read())
        await notifier.sendDue()
        #expect(ntfy.messages.count == 1)
        clock.set("2026-11-29T06:30:01-08:00")
        await notifier.sendDue()
        #expect(ntfy.messages.map(\.title) == ["alarm:home: flood", "alarm:home: dry"], "\(ntfy.messages)")
        #expect(ntfy.messages.last?.priority == 2)
    }

    @Test func retryAfterBackoffAndMaxAge() async throws {
        let ntfy = NtfyStandIn()
        try ntfy.start()
        defer { ntfy.stop() }
        let clock = Clock("2026-11-28T12:00:00-08:00")
        let (notifier, outbox) = Self.notifier(ntfy, clock: clock, maxAge: 600)
        ntfy.fail(.tooManyRequests(retryAfter: 7), .serverError, .serverError)
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("calm", priority: 3), after: Self.alarm("windy", priority: 3), changeID: "1", at: clock.read())
        await notifier.sendDue()
        #expect(try await outbox.nextDue() == Timestamp.parse("2026-11-28T12:00:07-08:00"), "the target's Retry-After, over the 1 s backoff")
        clock.set("2026-11-28T12:00:07-08:00")
        await notifier.sendDue()
        #expect(try await outbox.nextDue() == Timestamp.parse("2026-11-28T12:00:09-08:00"), "the second attempt's backoff: 2 s")
        clock.set("2026-11-28T12:00:09-08:00")
        await notifier.sendDue()
        #expect(try await outbox.nextDue() == Timestamp.parse("2026-11-28T12:00:13-08:00"), "then 4 s")
        // Past maxAge (10 min): dropped, not sent.
        clock.set("2026-11-28T12:10:01-08:00")
        await notifier.sendDue()
        #expect(ntfy.messages.isEmpty && ntfy.attempts == 3)
        #expect(try await outbox.nextDue() == nil)
        #expect(notifier.counts["phone"] == Notifier.Counts(sent: 0, failed: 0, retried: 3, dropped: 1))

        // Recovered: the next change is delivered.
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("windy", priority: 3), after: Self.alarm("calm", priority: 3), changeID: "2", at: clock.read())
        await notifier.sendDue()
        #expect(ntfy.messages.map(\.title) == ["alarm:home: calm"])
        #expect(notifier.counts["phone"]?.sent == 1)
    }

    /// An outbox whose store is down until `up` is set (a database outage).
    final class FlakyOutbox: NoticeOutbox {
        let base = MemoryOutbox()
        let down = Mutex(true)
        struct Outage: Error {}
        var isDurable: Bool { true }
        func enqueue(_ deliveries: [NoticeDelivery]) async throws {
            if down.withLock({ $0 }) { throw Outage() }
            try await base.enqueue(deliveries)
        }
        func claim(now: Date, limit: Int, for seconds: Double, claimant: String) async throws -> [NoticeDelivery] {
            try await base.claim(now: now, limit: limit, for: seconds, claimant: claimant)
        }
        func delivered(_ id: String, at: Date) async throws { try await base.delivered(id, at: at) }
        func retry(_ id: String, attempts: Int, at: Date) async throws { try await base.retry(id, attempts: attempts, at: at) }
        func drop(_ id: String) async throws { try await base.drop(id) }
        func nextDue() async throws -> Date? { try await base.nextDue() }
        func release(claimants: [String]) async throws {}
        func claimants() async throws -> [String] { [] }
    }

    @Test func aNoticeTheOutboxCannotTakeWaitsInMemoryUntilItCan() async throws {
        let ntfy = NtfyStandIn()
        try ntfy.start()
        defer { ntfy.stop() }
        let clock = Clock("2026-11-28T12:00:00-08:00")
        let outbox = FlakyOutbox()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        var settings = NotifySettings()
        settings.targets = [.init(name: "phone", kind: .ntfy(url: ntfy.topicURL("alarms").absoluteString, token: nil, username: nil, password: nil), insecure: false)]
        settings.rules = [.init(urns: ["alarm:home"], to: ["phone"], minPriority: .min, every: nil)]
        let notifier = Notifier(settings: settings, targets: [ResolvedTarget(name: "phone", kind: .ntfy(url: ntfy.topicURL("alarms"), authorization: nil), secrets: [])],
                                outbox: outbox, sender: NoticeSender(http: HTTPClients.make(version: "test", logger: logger)(HTTPLimits())),
                                catalog: SourceCatalog([AlarmSource.self]), place: Place(name: "Seattle", latitude: 47.6, longitude: -122.3),
                                logger: logger, clock: clock.read)
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("calm", priority: 3), after: Self.alarm("windy", priority: 4), changeID: "1", at: clock.read())
        await notifier.sendDue()
        #expect(ntfy.messages.isEmpty, "the store is down: nothing claimed, nothing lost")
        outbox.down.withLock { $0 = false }
        await notifier.sendDue()
        #expect(ntfy.messages.map(\.title) == ["alarm:home: windy"])
    }

    /// A target that hangs holds only its own deliveries: another target's notice, due later,
    /// is sent while the first still waits.
    @Test func aHangingTargetDelaysNoOther() async throws {
        let slow = NtfyStandIn(), fast = NtfyStandIn()
        try slow.start()
        try fast.start()
        defer { slow.stop(); fast.stop() }
        slow.fail(.hang)
        let clock = Clock("2026-11-28T12:00:00-08:00")
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        var settings = NotifySettings()
        settings.targets = [.init(name: "slow", kind: .ntfy(url: slow.topicURL("a").absoluteString, token: nil, username: nil, password: nil), insecure: false),
                            .init(name: "fast", kind: .ntfy(url: fast.topicURL("a").absoluteString, token: nil, username: nil, password: nil), insecure: false)]
        settings.rules = [.init(urns: ["alarm:home"], to: ["slow"], minPriority: .min, every: nil),
                          .init(urns: ["alarm:away"], to: ["fast"], minPriority: .min, every: nil)]
        let notifier = Notifier(settings: settings,
                                targets: [ResolvedTarget(name: "slow", kind: .ntfy(url: slow.topicURL("a"), authorization: nil), secrets: []),
                                          ResolvedTarget(name: "fast", kind: .ntfy(url: fast.topicURL("a"), authorization: nil), secrets: [])],
                                outbox: MemoryOutbox(), sender: NoticeSender(http: HTTPClients.make(version: "test", logger: logger)(HTTPLimits())),
                                catalog: SourceCatalog([AlarmSource.self]), place: Place(name: "Seattle", latitude: 47.6, longitude: -122.3),
                                logger: logger, clock: clock.read)
        await notifier.changed(urn: "alarm:home", kind: "alarm", before: Self.alarm("calm", priority: 3), after: Self.alarm("windy", priority: 3), changeID: "1", at: clock.read())
        let hanging = await notifier.startDue()
        #expect(hanging.count == 1)
        while slow.attempts == 0 { try await Task.sleep(for: .milliseconds(5)) }
        await notifier.changed(urn: "alarm:away", kind: "alarm", before: Self.alarm("calm", priority: 3), after: Self.alarm("stormy", priority: 3), changeID: "2", at: clock.read())
        await notifier.sendDue()
        #expect(fast.messages.map(\.title) == ["alarm:away: stormy"], "sent while the other target hangs")
        #expect(slow.messages.isEmpty)
        for send in hanging { send.cancel() }
    }
}
