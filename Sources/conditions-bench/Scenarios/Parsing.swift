import ConditionsCore
import ConditionsHTML
import ConditionsJSON
import ConditionsKit
import ConditionsModules
import Foundation
import Logging

/// Scenario 4: parsing throughput, in process, each with its allocation count:
/// a realistic 150 KB pass page through the HTML toolkit alone and through the WSDOT source
/// (HTML toolkit + extraction + report), and the API feed through the WSDOT source.
/// The sources get an in-process HTTP client that answers at once with the canned body.
enum Parsing {
    /// The classic extraction rules, as the WSDOT module's defaults.
    static let fields = ["//span[@id='PassInfoConditions']", "//span[@id='PassInfoRestrictionsOne']", "//span[@id='PassInfoRestrictionsTwo']",
                         "//span[@id='PassInfoLastUpdate']", "//span[@id='PassInfoTemperature']", "//span[@id='PassInfoElevationF']",
                         "//span[@id='PassInfoWeather']"]

    static func run(_ bench: Bench) async throws -> [Figure] {
        let page = Data(PassPage.html(name: "Snoqualmie Pass I-90", slug: "snoqualmie", elevation: 3022).utf8)
        let feed = Data(Upstreams.feed().utf8)
        let place = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331, timeZone: TimeZone(identifier: "America/Los_Angeles"))
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let now = Date(timeIntervalSince1970: 1_795_786_800)

        let htmlSource = try source(#"{"mode": "html", "baseURL": "http://pages.invalid/passes"}"#, place: place, logger: logger)
        let apiSource = try source(#"{"mode": "api", "baseURL": "http://api.invalid/api", "accessCode": "bench"}"#, place: place, logger: logger)
        let pageContext = SourceContext(now: now, place: place, logger: logger, http: CannedHTTPClient(body: page, contentType: "text/html; charset=utf-8"))
        let feedContext = SourceContext(now: now, place: place, logger: logger, http: CannedHTTPClient(body: feed, contentType: "application/json"))
        let onePass = Location(urn: try URN("pass:snoqualmie"), pattern: "pass:{name}", arguments: ["name": "snoqualmie"])
        let allPasses = Location(urn: try URN("pass:all"), pattern: "pass:all", arguments: [:])

        let toolkit = try await throughput(bench) {
            let document = try HTMLDocument(data: page, url: "http://pages.invalid/passes/snoqualmie/", encoding: "text/html; charset=utf-8")
            for field in fields { _ = try document.text(field) }
        }
        let pages = try await throughput(bench) { _ = try await htmlSource.resolve(onePass, context: pageContext) }
        let feeds = try await throughput(bench) { _ = try await apiSource.resolve(allPasses, context: feedContext) }
        // An object of 100,000 members: linear with OrderedDictionary (quadratic before: 6.7 s).
        let wide = Data(("{" + (0..<100_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}").utf8)
        let objects = try await throughput(bench) { _ = try JSONValue.parse(wide) }

        let kb = Double(page.count) / 1024
        let megabytes = Double(feed.count) / 1_000_000
        return [
            rate(4, String(format: "HTML toolkit: parse + 7 XPath (%.0f KB page)", kb), toolkit, unit: "pages/s", scale: 1),
            rate(4, String(format: "WSDOT pass:{name}, %.0f KB page (HTML + extraction)", kb), pages, unit: "pages/s", scale: 1),
            rate(4, String(format: "WSDOT pass:all API feed decoding (%.1f KB, 15 passes)", Double(feed.count) / 1024), feeds, unit: "MB/s", scale: megabytes),
            rate(4, String(format: "JSON parsing: one object of 100,000 members (%.1f MB)", Double(wide.count) / 1_000_000), objects,
                 unit: "MB/s", scale: Double(wide.count) / 1_000_000),
        ]
    }

    /// The WSDOT module as the CLI registers it (`RegisteredModules`), so the figure is the shipped module's.
    private static func source(_ options: String, place: Place, logger: Logger) throws -> any ConditionsSource {
        guard let object = try JSONValue.parse(options).objectValue else { throw Bench.Failed(description: "options are not an object") }
        guard let module = SourceCatalog(RegisteredModules.all).module(named: "WSDOT") else { throw Bench.Failed(description: "no WSDOT module in the catalog") }
        return try module.init(configuration: SourceConfiguration(
            instance: "wsdot", options: SourceOptions(path: "sources.wsdot.options", object: object, baseDirectory: URL(fileURLWithPath: "/")),
            configDirectory: URL(fileURLWithPath: "/"), place: place, logger: logger))
    }

    struct Throughput {
        /// Operations per second, one value per run.
        var rates: Samples
        /// Allocations and bytes allocated by one operation, when counted.
        var allocations: Int?
        var bytes: Int?
    }

    /// Runs `operation` in batches of about 50 ms, `runs` times, after a warm-up, then counts
    /// the allocations of one more call.
    private static func throughput(_ bench: Bench, _ operation: () async throws -> Void) async throws -> Throughput {
        let start = Clock.now()
        var calls = 0
        while Clock.now() - start < 0.05 || calls < 3 {
            try await operation()
            calls += 1
        }
        let batch = max(3, calls)
        var rates: [Double] = []
        for _ in 0..<bench.runs(15) {
            let begin = Clock.now()
            for _ in 0..<batch { try await operation() }
            rates.append(Double(batch) / (Clock.now() - begin))
        }
        guard Allocations.available else { return Throughput(rates: Samples(rates)) }
        let counted = try await Allocations.count { try await operation() }
        return Throughput(rates: Samples(rates), allocations: counted.allocations, bytes: counted.bytes)
    }

    private static func rate(_ scenario: Int, _ name: String, _ result: Throughput, unit: String, scale: Double) -> Figure {
        let median = result.rates.median * scale
        let spread = String(format: "%.0f–%.0f", result.rates.min * scale, result.rates.max * scale)
        let allocations = result.allocations.map { count in
            String(format: ", %d allocations (%.0f KB) per call", count, Double(result.bytes ?? 0) / 1024)
        } ?? ", allocations not counted (malloc interposer not active)"
        return .plain(scenario, name, value: median, unit: unit,
                      text: String(format: "%.0f %@ (%@)", median, unit, spread) + allocations, samples: Samples(result.rates.values.map { $0 * scale }))
    }
}
