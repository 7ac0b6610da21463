import ConditionsJSON
import ConditionsKit
import ConditionsMemo

extension SourceInstance {
    /// The memo a source's context carries: this instance's memory for the life of the
    /// process, with the result cache's folder behind it so values outlive the run. A value
    /// missing from memory is read from the folder while younger than the caller's `maxAge`
    /// (not under `--refresh`), and a value made is written there; with the cache off (`store`
    /// nil) it lives in memory only. Entries are keyed by a hash of the instance's
    /// configuration and the source's key, like results, so editing the instance's options
    /// starts afresh.
    func memo(store: ResultCache?, refresh: Bool) -> SourceMemo {
        let instance = self
        return SourceMemo { key, maxAge, now, make in
            try await instance.memory.made(for: key, maxAge: maxAge, now: now) {
                let file = CacheKey.digest("memo|\(instance.fingerprint)|\(key)")
                if let store, !refresh, let entry = store.load(key: file, logger: instance.logger), entry.urn == key {
                    let age = now.timeIntervalSince(entry.fetchedAt)
                    if age >= 0, age < maxAge {
                        instance.logger.debug("memo hit for \(key) (age \(Int(age)) s)")
                        return .init(value: entry.data, madeAt: entry.fetchedAt)
                    }
                }
                let value = try await make()
                store?.store(key: file, entry: .init(urn: key, source: instance.id, route: "memo", fetchedAt: now, data: value), logger: instance.logger)
                return .init(value: value, madeAt: now)
            }.value
        }
    }
}
