import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import ConditionsPass

/// The validated `options` of a WSDOT source instance.
struct WSDOTSettings: Sendable {
    /// Where the data comes from.
    enum Mode: String, Sendable {
        /// One page per pass (the classic design), read with `fields`.
        case html
        /// WSDOT's Traveler Information JSON API: one request answers every pass; needs an access code.
        case api
        /// WSDOT's key-less mobile feed (what its phone apps read): one request answers every
        /// pass, with cameras, forecast and alerts.
        case feed

        /// Whether one document lists every pass (the pass list then comes from it).
        var readsFeed: Bool { self != .html }
    }

    static let defaultPageBase = URL(string: "https://wsdot.com/travel/real-time/mountainpasses")!
    static let classicPageBase = URL(string: "http://www.wsdot.com/traffic/passes")!
    static let defaultAPIBase = URL(string: "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc")!
    static let defaultMobileBase = URL(string: "https://data.wsdot.wa.gov/mobile")!

    /// Where these options live in `sources.json`, for messages.
    var optionsPath: String
    var mode: Mode
    /// Pages' base (HTML mode), the service's base (API mode) or the mobile feed's folder (feed mode).
    var baseURL: URL
    /// The API access code; a secret.
    var accessCode: String?
    /// The passes served, in the configured order (HTML mode; API and feed modes take them from the feed).
    var passes: [MountainPass]
    /// The `passes` option as written, nil when absent: API and feed modes resolve names against the
    /// feed, which may hold passes the catalog does not know.
    var passNames: [String]?
    /// How pages are read.
    var layout: PageLayout
    /// The browser that renders pages first (`render`), nil to read them as fetched.
    var renderer: PageRenderer?
    /// Page URLs overriding `{baseURL}/{slug}/`.
    var pages: [String: URL]
    /// The extraction rules for pages.
    var fields: PageFields
    /// The zone pages' "last update" text is in.
    var timeZone: TimeZone
    /// WSDOT's SnowFallData service (`snowfall:` URNs, every mode).
    var snowfallURL: URL

    init(options: inout SourceOptions) throws(ConditionsError) {
        let path = options.path
        optionsPath = path
        mode = Mode(rawValue: try options.string("mode", oneOf: ["html", "api", "feed"]) ?? "html") ?? .html

        if let url = try options.httpURL("baseURL") {
            baseURL = url
        } else {
            switch mode {
            case .html: baseURL = Self.defaultPageBase
            case .api: baseURL = Self.defaultAPIBase
            case .feed: baseURL = Self.defaultMobileBase
            }
        }

        accessCode = try options.string("accessCode").flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        if mode == .api, accessCode == nil {
            throw ConditionsError.configuration("\(path).accessCode: api mode needs WSDOT's access code (for example \"${WSDOT_ACCESS_CODE}\"); it is missing or empty")
        }

        if let slugs = try options.strings("passes") {
            guard !slugs.isEmpty else {
                throw ConditionsError.configuration("\(path).passes: the list is empty; leave it out to serve every pass")
            }
            passNames = slugs
            var chosen: [MountainPass] = []
            for (index, slug) in slugs.enumerated() {
                // API and feed modes may name a pass only the feed knows; it is checked against the feed.
                if mode.readsFeed, PassCatalog.pass(named: slug) == nil {
                    guard !PassCatalog.normalizedSlug(slug).isEmpty else {
                        throw ConditionsError.configuration("\(path).passes[\(index)]: the name is empty")
                    }
                    continue
                }
                let pass = try Self.pass(slug, at: "\(path).passes[\(index)]")
                guard !chosen.contains(pass) else {
                    throw ConditionsError.configuration("\(path).passes[\(index)]: \"\(pass.slug)\" is listed twice")
                }
                chosen.append(pass)
            }
            passes = chosen
        } else {
            passes = PassCatalog.all
            passNames = nil
        }

        let layoutName = try options.string("layout", oneOf: PageLayout.allCases.map(\.rawValue)) ?? PageLayout.auto.rawValue
        layout = PageLayout(rawValue: layoutName) ?? .auto

        renderer = nil
        if let value = options.value("render"), !value.isNull {
            if let name = value.stringValue {
                guard name == "chromium" else {
                    throw ConditionsError.configuration("\(path).render: \"\(name)\" is not a known browser; use \"chromium\" or an argv array such as [\"/usr/bin/chromium-headless-shell\", \"--headless\", \"--dump-dom\"]")
                }
                renderer = PageRenderer(program: .chromium, optionPath: "\(path).render")
            } else if let argv = try options.strings("render") {
                guard let first = argv.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw ConditionsError.configuration("\(path).render: the argv is empty; name a program that prints the rendered page of the URL given last")
                }
                renderer = PageRenderer(program: .argv(argv), optionPath: "\(path).render")
            } else {
                throw ConditionsError.configuration("\(path).render: expected \"chromium\" or an array of strings, found \(value.typeName)")
            }
        }

        pages = [:]
        if var object = try options.object("pages") {
            for (key, value) in object.object {
                let pass = try Self.pass(key, at: "\(object.path).\(key)")
                guard value.stringValue != nil else {
                    throw ConditionsError.configuration("\(object.path).\(key): expected a URL string, found \(value.typeName)")
                }
                pages[pass.slug] = try object.httpURL(key)
            }
        }

        if var object = try options.object("fields") {
            fields = try PageFields(options: &object)
        } else {
            fields = PageFields()
        }

        if let identifier = try options.string("timeZone") {
            guard let zone = TimeZone(identifier: identifier) else {
                throw ConditionsError.configuration("\(path).timeZone: unknown time zone \"\(identifier)\" (use an IANA name such as America/Los_Angeles)")
            }
            timeZone = zone
        } else {
            timeZone = TimeZone(identifier: "America/Los_Angeles") ?? .gmt
        }

        if let url = try options.httpURL("snowfallURL") {
            snowfallURL = url
        } else {
            snowfallURL = SnowfallService.defaultURL
        }
    }

    /// The page a pass is read from (HTML mode) or linked to (API and feed modes): the `pages`
    /// override, else `{base}/{site slug}` under `baseURL` in HTML mode and WSDOT's public site otherwise.
    func pageURL(for pass: MountainPass) -> URL {
        if let page = pages[pass.slug] { return page }
        let base = mode == .html ? baseURL : Self.defaultPageBase
        return base.appendingPathComponent(pass.pageSlug, isDirectory: false)
    }

    /// The mobile feed's URL.
    var mobileFeedURL: URL { baseURL.appendingPathComponent("MountainPassConditions.json", isDirectory: false) }

    /// The feed request URL, access code included (redact before showing it).
    var feedURL: URL {
        let endpoint = baseURL.appendingPathComponent("GetMountainPassConditionsAsJson")
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        var items = components?.queryItems ?? []
        items.append(URLQueryItem(name: "AccessCode", value: accessCode ?? ""))
        components?.queryItems = items
        return components?.url ?? endpoint
    }

    private static func pass(_ name: String, at path: String) throws(ConditionsError) -> MountainPass {
        if let pass = PassCatalog.pass(named: name) { return pass }
        let close = Suggestions.closest(to: PassCatalog.normalizedSlug(name), among: PassCatalog.slugs)
        let hint = close.isEmpty
            ? "known passes: \(PassCatalog.slugs.joined(separator: ", "))"
            : "did you mean \(close.map { "\"\($0)\"" }.joined(separator: " or "))?"
        throw ConditionsError.configuration("\(path): unknown pass \"\(name)\"; \(hint)")
    }
}
