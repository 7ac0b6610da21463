@testable import Astronomy
import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Logging

/// Places used across the tests.
enum Places {
    static let seattle = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331,
                               timeZone: TimeZone(identifier: "America/Los_Angeles"))
    /// The location of the Aeris reference response in data/aeris/sunmoon.json.
    static let miami = Place(name: "Miami", latitude: 25.7877, longitude: -80.2241,
                             timeZone: TimeZone(identifier: "America/New_York"))
    static let sydney = Place(name: "Sydney", latitude: -33.8688, longitude: 151.2093,
                              timeZone: TimeZone(identifier: "Australia/Sydney"))
    static let tromso = Place(name: "Tromsø", latitude: 69.6492, longitude: 18.9553,
                              timeZone: TimeZone(identifier: "Europe/Oslo"))
    static let greenwich = Place(name: "Greenwich", latitude: 51.4769, longitude: 0)
}

/// `text` as an instant; the tests only pass well-formed literals.
func instant(_ text: String) throws -> Date {
    guard let date = Timestamp.parse(text) else { throw ConditionsError.invalidArguments(argument: "test", value: text, allowed: "ISO 8601") }
    return date
}

/// Seconds between two instants, unsigned.
func seconds(_ a: Date, _ b: Date) -> Double { abs(a.timeIntervalSince(b)) }

/// A source made the way the host makes one, from an options object.
func makeSource(options: JSONObject = JSONObject(), place: Place = Places.seattle) throws -> AstronomySource {
    try AstronomySource(configuration: .testing(instance: "astronomy", options: options, configDirectory: URL(fileURLWithPath: "/nonexistent"),
                                                place: place, logger: Logger(label: "astronomy-tests")))
}

/// Routes `urn` through the source's patterns (most literal first, as the host's router does)
/// and resolves it with the clock pinned at `now` and no network.
func resolve(_ urn: String, now: String = "2026-11-21T14:05:00Z", place: Place = Places.seattle,
             source: AstronomySource? = nil) async throws -> JSONValue {
    let source = try source ?? makeSource(place: place)
    let context = SourceContextBuilder(now: try instant(now), place: place, logger: Logger(label: "astronomy-tests"),
                                       http: UnavailableHTTPClient(reason: "the Astronomy source must not use the network"))
    return try await source.resolve(urn, context: context.build()).data
}

/// The error `body` throws, as a `ConditionsError`, or nil when it throws none.
func conditionsError(_ body: () async throws -> Void) async -> ConditionsError? {
    do {
        try await body()
        return nil
    } catch let error as ConditionsError {
        return error
    } catch {
        return ConditionsError(.internal, String(describing: error))
    }
}

/// Published figures copied beside the tests, in Resources/ (provenance: Resources/SOURCES.md),
/// read relative to this source file.
enum Fixture {
    static func data(_ file: String) throws -> Data {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
        return try Data(contentsOf: folder.appendingPathComponent(file))
    }

    static func json(_ name: String) throws -> JSONValue {
        try JSONValue.parse(data("\(name).json"))
    }
}

/// The CPU time the calling thread has used so far.
func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// Runs CPU-heavy test work on a Dispatch thread rather than the cooperative pool: the suite
/// runs in parallel on as many pool threads as cores (two on CI), and a loop holding one for
/// 10–15 s starves the tests beside it that time their subprocesses. Expectations are checked
/// by the caller on the result.
func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}
