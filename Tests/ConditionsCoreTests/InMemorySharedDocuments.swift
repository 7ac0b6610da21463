import Foundation
@testable import ConditionsCore

/// A `SharedDocuments` store in this process, standing in for the one replicas share (a
/// database): documents by key while fresh, one lease per key until it runs out, is released
/// or the document is stored, and waiters woken by a store. It counts what it was asked, so a
/// test can tell which replica did what.
actor InMemorySharedDocuments: SharedDocuments {
    private var documents: [String: StoredDocument] = [:]
    private var leases: [String: ContinuousClock.Instant] = [:]
    private var waiters: [String: [UUID: CheckedContinuation<StoredDocument?, Never>]] = [:]
    private(set) var leasesGranted = 0
    private(set) var stores = 0
    private(set) var releases = 0

    func fresh(_ key: String, now: Date) -> StoredDocument? {
        guard let document = documents[key], now < document.freshUntil else { return nil }
        return document
    }

    func lease(_ key: String, for seconds: Double) -> Bool {
        if let until = leases[key], ContinuousClock.now < until { return false }
        leases[key] = .now + .seconds(seconds)
        leasesGranted += 1
        return true
    }

    func store(_ key: String, _ document: StoredDocument) {
        documents[key] = document
        leases[key] = nil
        stores += 1
        for (_, waiter) in waiters.removeValue(forKey: key) ?? [:] { waiter.resume(returning: document) }
    }

    func release(_ key: String) {
        leases[key] = nil
        releases += 1
    }

    func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument? {
        if let document = documents[key] { return document }
        let id = UUID()
        return await withCheckedContinuation { continuation in
            waiters[key, default: [:]][id] = continuation
            Task {
                try? await Task.sleep(for: timeout)
                self.timeOut(key, id)
            }
        }
    }

    private func timeOut(_ key: String, _ id: UUID) {
        waiters[key]?.removeValue(forKey: id)?.resume(returning: nil)
    }

    /// What is stored under `key`.
    func stored(_ key: String) -> StoredDocument? { documents[key] }
}

/// A store that never answers: every call hangs until cancelled, as a database behind a
/// dropped connection might.
struct UnresponsiveSharedDocuments: SharedDocuments {
    private func hang() async { try? await Task.sleep(for: .seconds(3600)) }
    func fresh(_ key: String, now: Date) async -> StoredDocument? { await hang(); return nil }
    func lease(_ key: String, for seconds: Double) async -> Bool { await hang(); return true }
    func store(_ key: String, _ document: StoredDocument) async { await hang() }
    func release(_ key: String) async { await hang() }
    func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument? { await hang(); return nil }
}
