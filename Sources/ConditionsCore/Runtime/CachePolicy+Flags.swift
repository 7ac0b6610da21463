import Foundation

extension Resolver.CachePolicy {
    /// The policy the cache flags ask for (`--offline`, `--refresh`, `--no-cache`,
    /// `--cache-dir`) over the config's `cache` object; shared by every front end
    /// (report, watch, serve, mcp), so each reads the flags alike:
    /// `--no-cache` or `"cache": {"enabled": false}` mean no cache unless `--offline` or
    /// `--cache-dir` ask for one; the folder is `directory`, else the config's, else
    /// `$XDG_CACHE_HOME/conditions`.
    package init(settings: Configuration.CacheSettings, offline: Bool, refresh: Bool, noCache: Bool,
                 directory: String?, environment: [String: String]) throws(Failure) {
        if offline && (refresh || noCache) {
            throw Failure.usage("--offline cannot be combined with --refresh or --no-cache")
        }
        guard !noCache, settings.enabled || offline || directory != nil else {
            // No disk cache; `--refresh` still says nothing kept in memory is read either.
            self.init(refresh: refresh)
            return
        }
        let folder = directory.map { URL(fileURLWithPath: $0) } ?? settings.directory ?? ResultCache.defaultDirectory(environment: environment)
        self.init(store: ResultCache(directory: folder), offline: offline, refresh: refresh)
    }
}
