import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Logging
import Synchronization

/// Turns changes into notices and delivers them, at least once (docs/notifications.md).
///
/// `changed(...)` asks the kind's presentation whether the change is news (`Notice`), picks the
/// targets (the rules' or `watch --notify`'s), holds what quiet hours hold, and stores a
/// delivery per target in the outbox before anything is sent. `run()` sends what is due, each
/// delivery on its own task, not awaited, so a slow or failing target delays no other, retrying with backoff
/// from 1 s to 5 min (a target's `Retry-After` honoured), and drops a notice older than
/// `maxAge` with one log line.
package actor Notifier {
    /// What happened to deliveries, per target: for metrics and `watch`'s end.
    package struct Counts: Sendable, Equatable {
        package var sent = 0, failed = 0, retried = 0, dropped = 0
    }

    let settings: NotifySettings
    let targets: [String: ResolvedTarget]
    let outbox: any NoticeOutbox
    let sender: NoticeSender
    let catalog: SourceCatalog
    let place: Place
    let logger: Logger
    let clock: @Sendable () -> Date
    /// Targets every change goes to whatever the rules say (`watch --notify NAME`).
    let always: [String]
    private let claimant = NoticeClaimant.current
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    /// Set by `stop()`: `run()` returns once what it is sending is done.
    private var stopping = false
    /// Deliveries the outbox could not take (its database down), stored at the next chance.
    private var unstored: [NoticeDelivery] = []
    /// Deliveries being sent, by id.
    private var sends: [String: Task<Void, Never>] = [:]
    private let tallies = Mutex<[String: Counts]>([:])
    private let observers = Mutex<[@Sendable (_ target: String, _ outcome: String) -> Void]>([])

    /// Longest wait between two attempts of one notice.
    static let maximumBackoff = 300.0
    /// How long a claim keeps other senders off a notice: longer than any send takes.
    static let claimSeconds = 120.0
    /// The longest `run()` sleeps with nothing due.
    static let idleWait = 10.0

    package init(settings: NotifySettings, targets: [ResolvedTarget], outbox: any NoticeOutbox, sender: NoticeSender, catalog: SourceCatalog,
                 place: Place, logger: Logger, always: [String] = [], clock: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.targets = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.outbox = outbox
        self.sender = sender
        self.catalog = catalog
        self.place = place
        self.logger = logger
        self.always = always
        self.clock = clock
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Counts so far, per target.
    package nonisolated var counts: [String: Counts] { tallies.withLock { $0 } }

    /// The notice for `urn` changing from `before` to `after` (both its data, of `kind`), stored
    /// for each target it goes to; nil when the change is not news or goes nowhere.
    @discardableResult
    package func changed(urn: String, kind: ResultKind?, before: JSONValue, after: JSONValue, changeID: String, at: Date) async -> Notice? {
        let context = TextRenderer(catalog: catalog, style: TextStyle(enabled: false), timeZone: place.timeZone ?? .current, placeName: place.name)
            .context(urn: urn, place: place)
        guard var notice = catalog.presentation(for: kind).notice(from: before, to: after, context: context) else { return nil }
        notice.body = NoticeDelivery.clipped(notice.body)
        var names = always
        for name in settings.targets(for: urn, priority: notice.priority) where !names.contains(name) { names.append(name) }
        names = names.filter { targets[$0] != nil }
        guard !names.isEmpty else { return notice }
        let now = clock()
        let held = quietUntil(now, priority: notice.priority)
        let deliveries = names.map { name -> NoticeDelivery in
            var delivery = NoticeDelivery(changeID: changeID, urn: urn, target: name, notice: notice, before: before, after: after, at: at)
            if let held {
                delivery.notBefore = held
                delivery.since = held
            }
            return delivery
        }
        do {
            try await outbox.enqueue(deliveries)
            if let held { logger.info("notify: \(urn): held by quiet hours until \(Timestamp.string(from: held)): \(notice.title)") }
        } catch {
            // The store is down (a database outage): kept here and stored when it answers.
            unstored += deliveries
            logger.warning("notify: \(urn): the outbox cannot be written (\(error)); the notice waits in memory until it can")
        }
        wake.yield()
        return notice
    }

    /// The end of the quiet hours `now` is in, when a notice of `priority` is held by them.
    func quietUntil(_ now: Date, priority: Notice.Priority) -> Date? {
        guard let quiet = settings.quiet, priority < quiet.below else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = place.timeZone ?? .current
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        guard quiet.contains(minute: minute) else { return nil }
        return calendar.nextDate(after: now, matching: DateComponents(hour: quiet.to / 60, minute: quiet.to % 60, second: 0), matchingPolicy: .nextTime)
    }

    /// Sends what is due until the task is cancelled, waking when a notice is stored or the
    /// next one falls due.
    package func run() async {
        await releaseDeadClaims()
        while !Task.isCancelled, !stopping {
            // Started, not awaited: a target that hangs holds its own deliveries only.
            _ = await startDue()
            if stopping { return }
            // At most 10 s idle: another sender's claim (a replica, a watch) may have been
            // released or have died meanwhile, which wakes nobody here.
            let next = (try? await outbox.nextDue()) ?? nil
            let wait = next.map { max(0.05, min(Self.idleWait, $0.timeIntervalSince(clock()))) } ?? Self.idleWait
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [wakes] in for await _ in wakes { return } }
                group.addTask { try? await Task.sleep(for: .seconds(wait)) }
                _ = await group.next()
                group.cancelAll()
            }
        }
    }

    /// Notices a process of this host claimed and did not live to mark (SIGKILL mid-send) are
    /// sent again now, with the same ids, rather than when their claims run out.
    func releaseDeadClaims() async {
        guard let dead = try? await outbox.claimants().filter(NoticeClaimant.isDeadHere), !dead.isEmpty else { return }
        do {
            try await outbox.release(claimants: dead)
            logger.info("notify: sending again what \(dead.count == 1 ? "a process" : "\(dead.count) processes") that ended mid-send had claimed")
        } catch {
            logger.error("notify: the outbox cannot be written: \(error)")
        }
    }

    /// Makes `run()` return once the deliveries it is sending are done (none is cut off).
    package func stop() {
        stopping = true
        wake.yield()
    }

    /// Sends what is due now, and again while deliveries keep coming due, until none is due or
    /// `deadline` passes: `watch`'s last poll before it exits. What is left stays in the outbox.
    package func flush(until deadline: Date) async {
        await releaseDeadClaims()
        while clock() < deadline {
            await sendDue()
            guard let next = (try? await outbox.nextDue()) ?? nil, next <= deadline else { return }
            let wait = next.timeIntervalSince(clock())
            if wait > 0 { try? await Task.sleep(for: .seconds(min(wait, deadline.timeIntervalSince(clock())))) }
        }
    }

    /// Claims every due delivery and sends each on its own task; returns when all are done.
    func sendDue() async {
        for send in await startDue() { await send.value }
    }

    /// Waits for every delivery being sent (`watch`'s end).
    package func settle() async {
        for send in Array(sends.values) { await send.value }
    }

    /// Claims every due delivery and starts sending each on a task of its own, which the claim
    /// keeps to itself; returns the tasks.
    func startDue() async -> [Task<Void, Never>] {
        if !unstored.isEmpty {
            let waiting = unstored
            do {
                try await outbox.enqueue(waiting)
                unstored.removeFirst(waiting.count)
                logger.info("notify: \(waiting.count) notice\(waiting.count == 1 ? "" : "s") kept in memory now stored")
            } catch {
                return []
            }
        }
        await releaseDeadClaims()
        let due: [NoticeDelivery]
        do { due = try await outbox.claim(now: clock(), limit: 64, for: Self.claimSeconds, claimant: claimant) } catch {
            logger.error("notify: the outbox cannot be read: \(error)")
            return []
        }
        return due.map { delivery in
            let send = Task {
                await self.attempt(delivery)
                self.sent(delivery.id)
            }
            sends[delivery.id] = send
            return send
        }
    }

    private func sent(_ id: String) {
        sends[id] = nil
    }

    private func attempt(_ delivery: NoticeDelivery) async {
        let now = clock()
        guard let target = targets[delivery.target] else {
            logger.warning("notify: \(delivery.urn): target \"\(delivery.target)\" is no longer configured; dropping \"\(delivery.notice.title)\"")
            try? await outbox.drop(delivery.id)
            tally(delivery.target) { $0.dropped += 1 }
            return
        }
        if now.timeIntervalSince(delivery.since) > settings.maxAge {
            logger.warning("notify: \(delivery.urn) → \(delivery.target): dropped, older than \(Int(settings.maxAge / 60)) min undelivered: \"\(delivery.notice.title)\"")
            try? await outbox.drop(delivery.id)
            tally(delivery.target) { $0.dropped += 1 }
            return
        }
        let outcome = await sender.send(delivery, to: target, now: now)
        do {
            switch outcome {
            case .delivered(let detail):
                try await outbox.delivered(delivery.id, at: clock())
                tally(delivery.target) { $0.sent += 1 }
                logger.info("notify: \(delivery.urn) → \(delivery.target): \(detail): \"\(delivery.notice.title)\"")
            case .retry(let reason, let after):
                let attempts = delivery.attempts + 1
                let backoff = min(Self.maximumBackoff, pow(2, Double(attempts - 1)))
                let wait = max(backoff, after ?? 0)
                try await outbox.retry(delivery.id, attempts: attempts, at: clock().addingTimeInterval(wait))
                tally(delivery.target) { $0.retried += 1 }
                logger.warning("notify: \(delivery.urn) → \(delivery.target): \(reason); trying again in \(Int(wait.rounded(.up))) s")
            case .failed(let reason):
                try await outbox.drop(delivery.id)
                tally(delivery.target) { $0.failed += 1 }
                logger.error("notify: \(delivery.urn) → \(delivery.target): \(reason); not trying again: \"\(delivery.notice.title)\"")
            }
        } catch {
            logger.error("notify: \(delivery.urn) → \(delivery.target): the outbox cannot be written: \(error)")
        }
    }

    /// Calls `hook` with each delivery's target and outcome (`sent`, `failed`, `retried`,
    /// `dropped`): `serve`'s metrics.
    package nonisolated func onOutcome(_ hook: @escaping @Sendable (_ target: String, _ outcome: String) -> Void) {
        observers.withLock { $0.append(hook) }
    }

    private nonisolated func tally(_ target: String, _ change: (inout Counts) -> Void) {
        let (before, after) = tallies.withLock { tallies in
            let before = tallies[target, default: Counts()]
            change(&tallies[target, default: Counts()])
            return (before, tallies[target, default: Counts()])
        }
        let outcome = after.sent > before.sent ? "sent" : after.failed > before.failed ? "failed" : after.retried > before.retried ? "retried" : "dropped"
        for hook in observers.withLock({ $0 }) { hook(target, outcome) }
    }
}
