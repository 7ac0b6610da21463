import Foundation

extension Resolver.CachePolicy {
    /// The policy the cache flags ask for (`--offline`, `--refresh`, `--no-cache`,
    /// `--cache-dir`) over the config's `cache` object; shared by the CLI's commands and
    /// `conditions-serve`, so every front end reads the flags alike.
    package init(settings: Configuration.CacheSettings, offline: Bool, refresh: Bool, noCache: Bool,
                 directory: String?, environment: [String: String]) throws(Failure) {
        if offline && (refresh || noCache) {
            throw Failure.usage("--offline cannot be combined with --refresh or --no-cache")
        }
        guard !noCache, settings.enabled || offline || directory != nil else {
            self.init()
            return
        }
        let folder = directory.map { URL(fileURLWithPath: $0) } ?? settings.directory ?? ResultCache.defaultDirectory(environment: environment)
        self.init(store: ResultCache(directory: folder), offline: offline, refresh: refresh)
    }
}
