import Foundation
@testable import ConditionsCore

/// A `SharedDocuments` store in this process, standing in for the one replicas share (a
/// database): documents by key while fresh, one lease per key until it runs out, is released
/// or the document is stored; a waiter looks every 5 ms. It counts what it was asked, so a
/// test can tell which replica did what.
actor InMemorySharedDocuments: SharedDocuments {
    /// Never reached: tests give `UpstreamDocuments` the timeout they mean.
    nonisolated let deadline = Duration.seconds(60)
    private var documents: [String: StoredDocument] = [:]
    private var leases: [String: ContinuousClock.Instant] = [:]
    private(set) var leasesGranted = 0
    private(set) var stores = 0
    private(set) var releases = 0

    func fresh(_ key: String, now: Date) -> StoredDocument? {
        guard let document = documents[key], now < document.freshUntil else { return nil }
        return document
    }

    func lease(_ key: String, for seconds: Double) -> Bool {
        if let until = leases[key], ContinuousClock.now < until { return false }  // wall-clock-ok: the double's lease, on the clock as the database keeps it: the product's timing under test, not a bound on the test
        leases[key] = .now + .seconds(seconds)
        leasesGranted += 1
        return true
    }

    func renew(_ key: String, for seconds: Double) {
        // Only the holder renews (replicas share this double, so it cannot tell them apart).
        if leases[key] != nil { leases[key] = .now + .seconds(seconds) }
    }

    func store(_ key: String, _ document: StoredDocument) {
        documents[key] = document
        leases[key] = nil
        stores += 1
    }

    func release(_ key: String) {
        leases[key] = nil
        releases += 1
    }

    func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {  // wall-clock-ok: the double's wait, as long as the product asks (its shareWait): not a bound on the test
            if let document = documents[key] { return document }
            // The holder released the lease or stopped renewing it.
            guard let until = leases[key], ContinuousClock.now < until else { return documents[key] }  // wall-clock-ok: the double's lease, on the clock as the database keeps it: the product's timing under test, not a bound on the test
            try? await Task.sleep(for: .milliseconds(5))
        }
        return documents[key]
    }

    /// What is stored under `key`.
    func stored(_ key: String) -> StoredDocument? { documents[key] }
}

/// A store that never answers: every call hangs until cancelled, as a database behind a
/// dropped connection might.
struct UnresponsiveSharedDocuments: SharedDocuments {
    var deadline = Duration.seconds(2)
    private func hang() async { try? await Task.sleep(for: .seconds(3600)) }
    func fresh(_ key: String, now: Date) async -> StoredDocument? { await hang(); return nil }
    func lease(_ key: String, for seconds: Double) async -> Bool { await hang(); return true }
    func renew(_ key: String, for seconds: Double) async { await hang() }
    func store(_ key: String, _ document: StoredDocument) async { await hang() }
    func release(_ key: String) async { await hang() }
    func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument? { await hang(); return nil }
}

/// A store that answers every call, after `delay`, within its own `deadline`: a database that
/// is slow but says how long a caller should wait for it.
struct SlowSharedDocuments: SharedDocuments {
    let deadline: Duration
    let delay: Duration
    let document: StoredDocument
    private func pause() async { try? await Task.sleep(for: delay) }
    func fresh(_ key: String, now: Date) async -> StoredDocument? { await pause(); return document }
    func lease(_ key: String, for seconds: Double) async -> Bool { await pause(); return false }
    func renew(_ key: String, for seconds: Double) async { await pause() }
    func store(_ key: String, _ document: StoredDocument) async { await pause() }
    func release(_ key: String) async { await pause() }
    func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument? { await pause(); return document }
}

/// A store where another replica finishes its fetch at the worst moment: right after this
/// replica asked for the document (nothing stored yet), it stores it and releases its lease,
/// so this one's lease is granted with a fresh copy already there.
actor StoredAfterAskingSharedDocuments: SharedDocuments {
    nonisolated let deadline = Duration.seconds(60)
    let document: StoredDocument
    private var stored: StoredDocument?
    private(set) var releases = 0

    init(document: StoredDocument) { self.document = document }

    func fresh(_ key: String, now: Date) -> StoredDocument? {
        defer { stored = document }
        return stored
    }
    func lease(_ key: String, for seconds: Double) -> Bool { true }
    func renew(_ key: String, for seconds: Double) {}
    func store(_ key: String, _ document: StoredDocument) {}
    func release(_ key: String) { releases += 1 }
    func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument? { stored }
}
