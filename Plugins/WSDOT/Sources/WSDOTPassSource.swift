import ConditionsJSON
import ConditionsKit
import ConditionsProcess
import ConditionsMemo
import ConditionsText
import Foundation
import ConditionsPass

/// Washington mountain pass conditions from WSDOT: `pass:{name}` and `pass:all`.
///
/// Reads one of WSDOT's three publications: its key-less mobile feed (`"mode": "feed"`, one
/// request for every pass, with cameras, forecast and alerts), its pass pages
/// (`"mode": "html"`, one page per pass, extraction rules in the `fields` option) or its
/// Traveler Information API (`"mode": "api"`, one request for every pass, with an access
/// code). The options choose and order the passes served; see Plugins/WSDOT/README.md.
public struct WSDOTPassSource: ConditionsSource {
    /// `"WSDOT"`.
    public static let moduleName = "WSDOT"
    /// One line for `conditions sources`.
    public static let summary = "Washington mountain pass conditions from WSDOT (mobile feed, pages or Traveler Information API)"
    /// `sample.json`, compiled in: what `conditions config init --module WSDOT` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// Pass reports change within minutes in a storm; five minutes keeps cron jobs polite.
    public static let defaultTTL: Double = 300
    /// The API access code.
    public static let secretOptions: Set<String> = ["accessCode"]
    /// `pass` results: one pass (`PassReport`) or `{"passes": [...]}`; `snowfall` results (`SnowfallReport`).
    public static let presentations: [any ResultPresentation] = [PassPresentation.washington, SnowfallPresentation()]

    /// `pass:{name}` and `pass:all`; `snowfall:{pass}` and `snowfall:{pass}:{season}`.
    static let passPattern: RoutePattern = "pass:{name}"
    static let allPattern: RoutePattern = "pass:all"
    public let routes = [passPattern, allPattern] + SnowfallService.routes

    /// For `--help`: two passes, every pass, a pass's snowfall.
    public static let exampleURNs = ["pass:snoqualmie", "pass:stevens", "pass:all", "snowfall:snoqualmie"]

    /// Two passes and `pass:all`: Snoqualmie and Stevens when every pass is served, else the
    /// first two configured; then Snoqualmie's snowfall, this season and a past one.
    public var examples: [String] {
        let shown = settings.passes == PassCatalog.all ? ["snoqualmie", "stevens"] : settings.passes.prefix(2).map(\.slug)
        return shown.map { "pass:\($0)" } + ["pass:all", "snowfall:snoqualmie", "snowfall:snoqualmie:2023"]
    }

    private let settings: WSDOTSettings
    /// The last feed this instance read (API and feed modes), shared by every URN that needs
    /// it while fresh. One feed answers every pass, so `pass:all` and each `pass:{name}` should
    /// cost one request between them. Within one run the host's HTTP client already coalesces
    /// identical requests, but `conditions serve` resolves each URN when it is asked for (a
    /// dashboard asks for 17 in a few seconds, each with its own client). So the feed is kept
    /// for as long as the host would keep a result of it (`SourceContext.maxAge`, the
    /// instance's TTL; nothing when the user asked for fresh data). The context's `memo` keeps
    /// JSON across runs; a parsed feed is kept here, in memory, instead.
    private let feed = FreshValues<PassFeed>(capacity: 1)

    /// Validates the instance's options; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try WSDOTSettings(options: &options)
        try options.finish()
    }

    /// Answers `pass:all` with `{"passes": [...]}` in configured order, or `pass:{name}` with one
    /// pass; `snowfall:` URNs with a season's snowfall.
    /// The page renderer, when pages are rendered: a Chromium found, or the argv's program.
    public func healthChecks() async -> [HealthCheck] {
        guard let renderer = settings.renderer else { return [] }
        switch renderer.program {
        case .chromium:
            guard let found = PageRenderer.findChromium() else {
                return [HealthCheck("page renderer", problem: "no Chromium found on PATH (\(PageRenderer.chromiumNames.joined(separator: ", ")))",
                                    fix: "apt-get install chromium-headless-shell, or read WSDOT's feed instead (\"mode\": \"feed\")")]
            }
            return [HealthCheck("page renderer", found: found)]
        case .argv(let argv):
            let program = argv.first ?? ""
            let found = program.contains("/") ? (ProgramSearch.isExecutableFile(program) ? program : nil) : ProgramSearch.executable(named: program)
            guard let found else {
                return [HealthCheck("page renderer", problem: "cannot run \(program): no such program\(program.contains("/") ? "" : " on PATH")",
                                    fix: "install it, or set \(renderer.optionPath) to a program that prints the rendered page")]
            }
            return [HealthCheck("page renderer", found: found)]
        }
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        if SnowfallService.routes.contains(location.pattern) {
            return try await SnowfallService(baseURL: settings.snowfallURL, pageURL: { [settings] in settings.pageURL(for: $0) })
                .resolve(location, context: context)
        }
        let name: String? = location.pattern == Self.allPattern ? nil : try location.argument("name")
        switch settings.mode {
        case .api, .feed:
            let feed: PassFeed
            let fetchedAt: Date
            do {
                (feed, fetchedAt) = try await fetchFeed(context: context)
            } catch {
                // A name neither the catalog nor the configured list knows is a rejection, not
                // an outage: the host must not answer it from a stale cache.
                if let name, PassCatalog.pass(named: name) == nil,
                   !(settings.passNames ?? []).contains(where: { PassCatalog.normalizedSlug($0) == PassCatalog.normalizedSlug(name) }) {
                    let report = ConditionsError.report(error)
                    throw ConditionsError.notFound(
                        "no pass named \"\(name)\" in the catalog, and WSDOT's feed, which may list newer passes, could not be read (\(report.message))",
                        suggestions: Suggestions.closest(to: PassCatalog.normalizedSlug(name), among: PassCatalog.slugs).map { "pass:\($0)" })
                }
                throw error
            }
            let served = try servedPasses(in: feed)
            guard let name else {
                let reports = try served.map { pass throws(ConditionsError) in try report(pass, from: feed, context: context) }
                return SourceResult(data: ["passes": .array(reports.map(\.json))], kind: .pass, fetchedAt: fetchedAt)
            }
            if let pass = PassCatalog.pass(named: name, among: served) {
                return SourceResult(data: try report(pass, from: feed, context: context).json, kind: .pass, fetchedAt: fetchedAt)
            }
            // A catalogued pass the feed lacks: say so, rather than "no pass named".
            if settings.passNames == nil, let known = PassCatalog.pass(named: name) {
                return SourceResult(data: try report(known, from: feed, context: context).json, kind: .pass, fetchedAt: fetchedAt)
            }
            throw notFound(name, among: served)
        case .html:
            guard let name else {
                let reports = try await fetchPages(settings.passes, context: context)
                return SourceResult(data: ["passes": .array(reports.map(\.json))], kind: .pass)
            }
            let pass = try configuredPass(named: name)
            return SourceResult(data: try await fetchPage(pass, context: context).json, kind: .pass)
        }
    }

    /// The configured pass `name` means, or `notFound` suggesting the closest configured ones.
    func configuredPass(named name: String) throws(ConditionsError) -> MountainPass {
        if let pass = PassCatalog.pass(named: name, among: settings.passes) { return pass }
        throw notFound(name, among: settings.passes)
    }

    private func notFound(_ name: String, among passes: [MountainPass]) -> ConditionsError {
        let configured = passes.map(\.slug)
        let close = Suggestions.closest(to: PassCatalog.normalizedSlug(name), among: configured).map { "pass:\($0)" }
        if let known = PassCatalog.pass(named: name) {
            return ConditionsError.notFound("pass \"\(known.slug)\" is not in \(settings.optionsPath).passes", suggestions: close)
        }
        return ConditionsError.notFound("no pass named \"\(name)\"", suggestions: close)
    }

    /// API and feed modes' passes: every pass in the feed (catalogued ones by id, new ids under a slug
    /// made from their name), or the `passes` option's, resolved against the feed first.
    private func servedPasses(in feed: PassFeed) throws(ConditionsError) -> [MountainPass] {
        let inFeed = feed.passes
        guard let names = settings.passNames else { return inFeed }
        var served: [MountainPass] = []
        for (index, name) in names.enumerated() {
            guard let pass = PassCatalog.pass(named: name, among: inFeed) ?? PassCatalog.pass(named: name) else {
                throw ConditionsError.badResponse("\(settings.optionsPath).passes[\(index)]: no pass named \"\(name)\" in the catalog or in WSDOT's feed (it has \(inFeed.map(\.slug).joined(separator: ", ")))")
            }
            if !served.contains(pass) { served.append(pass) }
        }
        return served
    }

    private func report(_ pass: MountainPass, from feed: PassFeed, context: SourceContext) throws(ConditionsError) -> PassReport {
        var report = try feed.report(for: pass, url: settings.pageURL(for: pass))
        report.readAt = context.now
        return report
    }

    /// The feed, shared with the instance's other URNs while fresh (`feed`), and the report
    /// instant it was fetched at.
    private func fetchFeed(context: SourceContext) async throws -> (PassFeed, Date) {
        let settings = self.settings
        let fetch: @Sendable () async throws -> FreshValues<PassFeed>.Made = {
            let url = settings.mode == .feed ? settings.mobileFeedURL : settings.feedURL
            context.logger.debug("fetching WSDOT feed", metadata: ["url": "\(Redaction.redact(url))"])
            let response = try await context.http.get(url, headers: ["Accept": "application/json"])
            try response.requireSuccess()
            let parsed = settings.mode == .feed
                ? try PassFeed(mobileData: response.body, url: Redaction.redact(url), timeZone: settings.timeZone)
                : try PassFeed(data: response.body, secret: settings.accessCode)
            return FreshValues<PassFeed>.Made(value: parsed, madeAt: context.now)
        }
        // Fresh data asked for: not even a fetch in flight is joined.
        let fetched = try await feed.made(for: "feed", in: context, make: fetch)
        return (fetched.value, fetched.madeAt)
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

    /// One page: fetched as is, or rendered by the `render` browser, then read with `layout`.
    private func fetchPage(_ pass: MountainPass, context: SourceContext) async throws -> PassReport {
        let url = settings.pageURL(for: pass)
        let response: HTTPResponse
        if let renderer = settings.renderer {
            context.logger.debug("rendering WSDOT pass page", metadata: ["pass": "\(pass.slug)", "url": "\(Redaction.redact(url))"])
            response = try await renderer.render(url, limits: context.limits)
        } else {
            context.logger.debug("fetching WSDOT pass page", metadata: ["pass": "\(pass.slug)", "url": "\(Redaction.redact(url))"])
            response = try await context.http.get(url, headers: ["Accept": "text/html"])
            try response.requireSuccess()
        }
        let reading: PageReading
        do {
            reading = try PageExtraction.read(response, layout: settings.layout, fields: settings.fields)
        } catch is ShellPage {
            throw shellError(url)
        }
        return try PassPage.report(reading: reading, pass: pass, url: url, fields: settings.fields, timeZone: settings.timeZone, now: context.now)
    }

    /// The one line for a page that is wsdot.com's application shell: what happened, and the fixes.
    private func shellError(_ url: URL) -> ConditionsError {
        let shown = Redaction.redact(url)
        if settings.renderer != nil {
            return ConditionsError.badResponse(
                "\(shown): the rendered page still holds no pass report (its script did not fill it in within the browser's time); "
                    + "try again, or use \"mode\": \"feed\" (no key) or \"mode\": \"api\" with WSDOT's access code"
            )
        }
        return ConditionsError.badResponse(
            "\(shown): the page is an empty shell filled in by JavaScript, so a plain download holds no pass report; "
                + "set \"render\": \"chromium\" in \(settings.optionsPath) (Debian: apt-get install chromium-headless-shell) "
                + "or use \"mode\": \"feed\" (no key) or \"mode\": \"api\" with WSDOT's access code"
        )
    }
}
