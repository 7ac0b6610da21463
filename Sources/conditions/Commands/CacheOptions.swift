import ArgumentParser
import ConditionsCore
import ConditionsKit
import Foundation

/// The cache flags shared by `report`, `watch`, `serve` and `mcp`.
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
        try policy(settings: runtime.configuration.cache, environment: environment)
    }

    func policy(settings: Configuration.CacheSettings, environment: [String: String]) throws(Failure) -> Resolver.CachePolicy {
        try Resolver.CachePolicy(settings: settings, offline: offline, refresh: refresh, noCache: noCache,
                                 directory: cacheDir, environment: environment)
    }
}
