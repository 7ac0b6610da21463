import ArgumentParser
import ConditionsCore
import ConditionsKit
import Foundation

/// The cache flags shared by `report` and `watch`.
struct CacheOptions: ParsableArguments {
    @Flag(name: .long, help: "Answer from the cache only; never contact an upstream.")
    var offline = false

    @Flag(name: .long, help: "Fetch even when the cache holds a fresh result.")
    var refresh = false

    @Flag(name: .long, help: "Neither read nor write the cache.")
    var noCache = false

    @Option(name: .long, help: ArgumentHelp("Cache folder (default: config \"cache.directory\", else $XDG_CACHE_HOME/conditions).", valueName: "dir"))
    var cacheDir: String?

    func policy(runtime: Runtime, environment: [String: String]) throws(Failure) -> Resolver.CachePolicy {
        if offline && (refresh || noCache) {
            throw Failure.usage("--offline cannot be combined with --refresh or --no-cache")
        }
        let settings = runtime.configuration.cache
        guard !noCache, settings.enabled || offline || cacheDir != nil else { return Resolver.CachePolicy() }
        let directory = cacheDir.map { URL(fileURLWithPath: $0) } ?? settings.directory ?? ResultCache.defaultDirectory(environment: environment)
        return Resolver.CachePolicy(store: ResultCache(directory: directory), offline: offline, refresh: refresh)
    }
}
