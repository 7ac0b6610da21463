import ConditionsKit
import Foundation

/// Washington mountain pass conditions from WSDOT: `pass:{name}` and `pass:all`.
///
/// Reads either WSDOT's pass pages (`"mode": "html"`, one page per pass, extraction rules in
/// the `fields` option) or its Traveler Information API (`"mode": "api"`, one request for
/// every pass). The options choose and order the passes served; see Plugins/WSDOT/README.md.
public struct WSDOTPassSource: ConditionsSource {
    /// `"WSDOT"`.
    public static let moduleName = "WSDOT"
    /// One line for `conditions sources`.
    public static let summary = "Washington mountain pass conditions from WSDOT (pages or Traveler Information API)"
    /// Pass reports change within minutes in a storm; five minutes keeps cron jobs polite.
    public static let defaultTTL: Double = 300
    /// The API access code.
    public static let secretOptions: Set<String> = ["accessCode"]

    /// `pass:{name}` and `pass:all`.
    public let routes: [RoutePattern] = ["pass:{name}", "pass:all"]

    /// Two passes and `pass:all`: Snoqualmie and Stevens when every pass is served, else the
    /// first two configured.
    public var examples: [String] {
        let shown = settings.passes == PassCatalog.all ? ["snoqualmie", "stevens"] : settings.passes.prefix(2).map(\.slug)
        return shown.map { "pass:\($0)" } + ["pass:all"]
    }

    private let settings: WSDOTSettings

    /// Validates the instance's options; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try WSDOTSettings(options: &options)
        try options.finish()
    }

    /// Answers `pass:all` with `{"passes": [...]}` in configured order, or `pass:{name}` with one pass.
    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        if location.pattern.placeholders.isEmpty {
            let reports = try await reports(for: settings.passes, context: context)
            return SourceResult(data: ["passes": .array(reports.map(\.json))])
        }
        let pass = try configuredPass(named: try location.argument("name"))
        let reports = try await reports(for: [pass], context: context)
        return SourceResult(data: reports[0].json)
    }

    /// The configured pass `name` means, or `notFound` suggesting the closest configured ones.
    func configuredPass(named name: String) throws(ConditionsError) -> MountainPass {
        if let pass = PassCatalog.pass(named: name, among: settings.passes) { return pass }
        let configured = settings.passes.map(\.slug)
        let close = Suggestions.closest(to: PassCatalog.normalizedSlug(name), among: configured).map { "pass:\($0)" }
        if let known = PassCatalog.pass(named: name) {
            throw ConditionsError.notFound("pass \"\(known.slug)\" is not in \(settings.optionsPath).passes", suggestions: close)
        }
        throw ConditionsError.notFound("no pass named \"\(name)\"", suggestions: close)
    }

    /// Reports for `passes`, in their order.
    private func reports(for passes: [MountainPass], context: SourceContext) async throws -> [PassReport] {
        switch settings.mode {
        case .api:
            let feed = try await fetchFeed(context: context)
            return try passes.map { pass throws(ConditionsError) in try feed.report(for: pass, url: settings.pageURL(for: pass)) }
        case .html:
            return try await fetchPages(passes, context: context)
        }
    }

    private func fetchFeed(context: SourceContext) async throws -> PassFeed {
        let url = settings.feedURL
        context.logger.debug("fetching WSDOT feed", metadata: ["url": "\(Redaction.redact(url))"])
        let response = try await context.http.get(url, headers: ["Accept": "application/json"])
        try response.requireSuccess()
        return try PassFeed(data: response.body, secret: settings.accessCode)
    }

    /// Fetches every page concurrently. If any fails the whole answer fails, naming each
    /// failed pass: partial data under a success would silently drop passes.
    private func fetchPages(_ passes: [MountainPass], context: SourceContext) async throws -> [PassReport] {
        if passes.count == 1 { return [try await fetchPage(passes[0], context: context)] }
        let outcomes = await withTaskGroup(of: (Int, Result<PassReport, any Error>).self) { group in
            for (index, pass) in passes.enumerated() {
                group.addTask {
                    // Await first, then build the tuple: Swift 6.3's -O splits a tuple whose
                    // second half comes after a suspension and corrupts the first
                    // (swiftlang/swift#91911), so `index` arrived as garbage in release builds.
                    let outcome: Result<PassReport, any Error>
                    do { outcome = .success(try await fetchPage(pass, context: context)) } catch { outcome = .failure(error) }
                    return (index, outcome)
                }
            }
            var outcomes = [Result<PassReport, any Error>?](repeating: nil, count: passes.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        var reports: [PassReport] = []
        var failures: [(slug: String, error: any Error)] = []
        for (pass, outcome) in zip(passes, outcomes) {
            switch outcome {
            case .success(let report)?: reports.append(report)
            case .failure(let error)?: failures.append((pass.slug, error))
            case nil: failures.append((pass.slug, CancellationError()))
            }
        }
        guard failures.isEmpty else { throw PassesFailed(total: passes.count, failures: failures) }
        return reports
    }

    private func fetchPage(_ pass: MountainPass, context: SourceContext) async throws -> PassReport {
        let url = settings.pageURL(for: pass)
        context.logger.debug("fetching WSDOT pass page", metadata: ["pass": "\(pass.slug)", "url": "\(Redaction.redact(url))"])
        let response = try await context.http.get(url, headers: ["Accept": "text/html"])
        try response.requireSuccess()
        let values = try PageExtraction.values(from: response, fields: settings.fields)
        return try PassPage.report(values: values, pass: pass, url: url, fields: settings.fields, timeZone: settings.timeZone)
    }
}
