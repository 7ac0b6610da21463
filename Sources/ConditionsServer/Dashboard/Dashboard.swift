import ConditionsCore
import ConditionsText
import ConditionsKit
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Mustache
import NIOCore
import Synchronization

/// The page at `GET /`: the configured URNs (or `?urn=…`) as cards, the maps the modules place
/// their cards on, and a small script that keeps the cards current from `/v1/events`. Server-rendered from Mustache
/// templates, so it works without JavaScript; every answer goes through the server's shared
/// `ResultCoordinator`, so the page costs no more upstream than the API does.
final class Dashboard: Sendable {
    private let server: ConditionsServer
    private let resources: Result<DashboardResources, DashboardResources.BrokenTemplate>
    /// Local times in the config location's zone. Its formatters are reused across requests
    /// (making one costs ~0.3 ms), so it is used by one request at a time.
    private let renderer: Mutex<TextRenderer>
    private let title: String
    private let defaultURNs: [String]
    /// The page memory (docs/caching.md): pages made in the last few seconds, by URN list (see `pageLifetime`).
    private let pages = Mutex<[String: RenderedPage]>([:])

    /// A rendered page and until when it may be answered again (its keptUntil).
    private struct RenderedPage: Sendable {
        /// Shared, not copied, by every answer (copy-on-write).
        let body: ByteBuffer
        let etag: String
        let expires: ContinuousClock.Instant
    }

    /// How long a rendered page is answered again, in seconds: never past the first of its
    /// answers' TTL, and at most this long, so local results (the moon, computed on each resolution)
    /// are at most this old and a failing upstream is asked at most this often by the page.
    /// Rendering the shipped report costs ~2 ms; a page served again costs a dictionary lookup
    /// (docs/performance.md, scenario 11).
    static let pageLifetime = 10
    /// At most this many URN lists' pages are kept, each at most `maximumPageBytes` (a
    /// hundred-card page is not kept): any request may name a new list, so memory stays
    /// within 32 × 256 KiB.
    static let maximumPages = 32
    static let maximumPageBytes = 256 * 1024

    /// The meta refresh of the page without JavaScript: the shortest TTL among the cards,
    /// but never more often than this…
    static let minimumRefresh = 30
    /// …nor less often than this; also the period when no card has a TTL (local sources).
    static let maximumRefresh = 3600
    static let defaultRefresh = 300

    init(server: ConditionsServer) {
        self.server = server
        do {
            resources = .success(try DashboardResources.load())
        } catch {
            server.logger.warning("dashboard: \(error.message)")
            resources = .failure(error)
        }
        let configuration = server.runtime.configuration
        renderer = Mutex(TextRenderer(catalog: server.runtime.catalog, style: .plain, timeZone: configuration.place.timeZone ?? .current, placeName: configuration.place.name))
        title = configuration.dashboard.title ?? "Conditions"
        defaultURNs = configuration.dashboard.urns ?? configuration.report
    }

    /// Adds `/`, `/card` and the two assets to `router`.
    static func addRoutes(to router: Hummingbird.Router<ServerRequestContext>, server: ConditionsServer) {
        let dashboard = Dashboard(server: server)
        router.get("/") { request, _ in await dashboard.page(request) }
        router.get("/card") { request, _ in await dashboard.card(request) }
        router.get("/assets/dashboard.css") { request, _ in dashboard.asset(\.stylesheet, request: request) }
        router.get("/assets/dashboard.js") { request, _ in dashboard.asset(\.script, request: request) }
    }

    // MARK: Pages

    /// `GET /[?urn=…&urn=…]`.
    func page(_ request: Request) async -> Response {
        guard case .success(let resources) = resources else { return unavailable() }
        let asked = request.uri.queryParameters.getAll("urn").map { String($0) }
        let urns = asked.isEmpty ? defaultURNs : asked
        guard urns.count <= ServerSettings.maximumURNs else {
            return errorPage(resources, status: .badRequest, kind: .tooManyURNs, message: "\(urns.count) URNs; at most \(ServerSettings.maximumURNs) per page")
        }
        let key = urns.joined(separator: "\n")
        let started = ContinuousClock.now
        if let page = pages.withLock({ $0[key] }), page.expires > started {
            return respond(body: page.body, etag: page.etag, request: request)
        }
        let now = Date()
        let answers = await server.coordinator.resolve(urns)
        let built = build(answers.map(\.record))

        var markers: [CardView.Marker] = []
        var used: [String: Int] = [:]
        let strips = await historyStrips(built.map(\.record), now: now)
        let cards = built.map { built -> [String: Any] in
            let id = Self.cardID(for: built.record.urn, used: &used)
            var view = CardView.context(built, id: id, now: now, markers: &markers)
            if let strip = strips[built.record.urn] { view["history"] = strip(id) }
            return view
        }
        let ttls = urns.map { Int(server.coordinator.ttl(of: $0)) }.filter { $0 > 0 }
        let refresh = ttls.min().map { min(Self.maximumRefresh, max(Self.minimumRefresh, $0)) } ?? Self.defaultRefresh
        let failures = built.filter(\.record.failed).count
        var context: [String: Any] = [
            "title": title,
            "cards": cards,
            "hasCards": !cards.isEmpty,
            "refresh": refresh,
            "generatedISO": Timestamp.string(from: now),
            "generatedLocal": renderer.withLock { $0.localTime(now, withDate: true) },
            "failures": failures,
            "hasFailures": failures > 0,
            "cardsText": cards.count == 1 ? "1 card" : "\(cards.count) cards",
            "stylesheet": "/assets/dashboard.css?v=\(resources.stylesheet.version)",
            "script": "/assets/dashboard.js?v=\(resources.script.version)",
            "exampleURNs": "/?urn=\(ExampleURNs.pick(server.exampleURNs, 0))&urn=\(ExampleURNs.pick(server.exampleURNs, 1))",
        ]
        if !markers.isEmpty { context["maps"] = MapView.contexts(markers: markers, place: server.runtime.configuration.place) }
        let bytes = Array((resources.templates.render(context, withTemplate: "page") ?? "").utf8)
        let etag = HTTPCaching.etag(bytes)
        let body = ByteBuffer(bytes: bytes)
        let lifetimes = answers.map { answer -> Int in
            // A local result is made anew on each resolution: reuse it as long as a page is kept.
            if server.coordinator.ttl(of: answer.record.urn) <= 0 { return Self.pageLifetime }
            // A fresh result: until its TTL runs out, when the next resolution may change it.
            if case .success(_, _, _, _, nil) = answer.record.outcome { return answer.maxAge }
            // A failure or a stale stand-in: ask again in a few seconds, not on every view.
            return Self.pageLifetime
        }
        let lifetime = min(Self.pageLifetime, lifetimes.min() ?? Self.pageLifetime)
        if lifetime > 0, bytes.count <= Self.maximumPageBytes {
            let page = RenderedPage(body: body, etag: etag, expires: started + .seconds(lifetime))
            pages.withLock { pages in
                if pages.count >= Self.maximumPages {
                    pages = pages.filter { $0.value.expires > started }
                    if pages.count >= Self.maximumPages { pages.removeAll() }
                }
                pages[key] = page
            }
        }
        return respond(body: body, etag: etag, request: request)
    }

    /// The page with its validator, `304` when the client has it.
    private func respond(body: ByteBuffer, etag: String, request: Request) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "max-age=0", .eTag: etag]
        Self.secure(&headers)
        if let condition = request.headers[.ifNoneMatch], HTTPCaching.matches(ifNoneMatch: condition, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// `GET /card?urn=…[&id=…][&answer=N]`: one card's HTML, as on the page, for the script to
    /// swap in; `answer` picks which chain's answer of a URN several chains answered (`pass:all`
    /// of two states), counted from 0 in the order the page shows them.
    func card(_ request: Request) async -> Response {
        guard case .success(let resources) = resources else { return unavailable() }
        let query = request.uri.queryParameters
        let urns = query.getAll("urn")
        guard urns.count == 1, let urn = urns.first.map({ String($0) }), !urn.isEmpty else {
            return API.errorResponse(status: .badRequest, kind: .invalidRequest, message: "name exactly one URN: /card?urn=\(ExampleURNs.pick(server.exampleURNs, 0))")
        }
        var id: String
        if let given = query["id"] {
            guard Self.isCardID(String(given)) else {
                return API.errorResponse(status: .badRequest, kind: .invalidRequest, message: "id: \"card-\" and up to 120 lower-case letters, digits or '-'")
            }
            id = String(given)
        } else {
            var used: [String: Int] = [:]
            id = Self.cardID(for: urn, used: &used)
        }
        var index = 0
        if let given = query["answer"] {
            guard let number = Int(given), (0..<ServerSettings.maximumURNs).contains(number) else {
                return API.errorResponse(status: .badRequest, kind: .invalidRequest, message: "answer: a whole number from 0 to \(ServerSettings.maximumURNs - 1)")
            }
            index = number
        }
        let answer = await server.coordinator.resolve(urn)
        // A URN asked twice on one page counts its answers twice over: index modulo their number.
        let answers = answer.record.answers
        let built = build([answers[index % answers.count]])[0]
        var markers: [CardView.Marker] = []
        let now = Date()
        var context = CardView.context(built, id: id, now: now, markers: &markers)
        if let strip = await historyStrips([built.record], now: now)[urn] { context["history"] = strip(id) }
        let html = resources.templates.render(context, withTemplate: "card") ?? ""
        var response = respond(html, request: request)
        // The script asks after a change event: a cached copy would be the old card.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The stylesheet or the script: a year's caching when asked for by its current version
    /// (the page's links carry it), revalidation otherwise.
    func asset(_ pick: KeyPath<DashboardResources, DashboardResources.Asset>, request: Request) -> Response {
        guard case .success(let resources) = resources else { return unavailable() }
        let asset = resources[keyPath: pick]
        var headers: HTTPFields = [.contentType: asset.contentType, .eTag: asset.etag]
        headers[.xContentTypeOptions] = "nosniff"
        let current = request.uri.queryParameters["v"].map { String($0) == asset.version } ?? false
        headers[.cacheControl] = current ? "public, max-age=31536000, immutable" : "no-cache"
        if let condition = request.headers[.ifNoneMatch], HTTPCaching.matches(ifNoneMatch: condition, etag: asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    // MARK: Parts

    /// For each card whose presentation asks for it (`showsHistory`), its last 48 hours from
    /// the history store, as a function of the card's id giving the `history` template's
    /// context. None when the server records no history or its store cannot be read (the page
    /// is the same as without history).
    private func historyStrips(_ records: [ResultRecord], now: Date) async -> [String: (String) -> Any] {
        let catalog = server.runtime.catalog
        let withHistory = records.filter { catalog.presentation(for: $0.kind).showsHistory }
        guard !withHistory.isEmpty, let store = await server.history?.store() else { return [:] }
        var found: [(ResultRecord, [HistoryChange])] = []
        for record in withHistory {
            guard let changes = try? await store.changes(urn: record.urn, from: now.addingTimeInterval(-HistoryStrip.span), to: now,
                                                         limit: HistoryStrip.maximumChanges).changes else { continue }
            found.append((record, changes))
        }
        let place = server.runtime.configuration.place
        var strips: [String: (String) -> Any] = [:]
        renderer.withLock { renderer in
            for (record, changes) in found {
                let stretches = HistoryStrip.stretches(changes, presentation: renderer.catalog.presentation(for: record.kind), now: now, context: renderer.context(urn: record.urn, place: place))
                let times = stretches.flatMap { [$0.from, $0.to] }
                let local = Dictionary(times.map { ($0, renderer.localTime($0, withDate: true)) }, uniquingKeysWith: { first, _ in first })
                strips[record.urn] = { id -> Any in
                    // The template's section value: the strip, or false for none.
                    let strip: [String: Any]? = HistoryStrip.view(stretches, id: id, now: now) { local[$0] ?? Timestamp.string(from: $0) }
                    return strip.map { $0 as Any } ?? false
                }
            }
        }
        return strips
    }

    private func build(_ records: [ResultRecord]) -> [CardView.Built] {
        let place = server.runtime.configuration.place
        // A URN several chains answered (`pass:all` of two states) is a card per answer.
        return renderer.withLock { renderer in records.flatMap(\.answers).map { CardView.build($0, renderer: renderer, place: place) } }
    }

    /// An HTML answer with validators and the page's security headers.
    private func respond(_ html: String, request: Request, status: HTTPResponse.Status = .ok) -> Response {
        let bytes = Array(html.utf8)
        var response = API(server: server).body(ByteBuffer(bytes: bytes), etag: HTTPCaching.etag(bytes), contentType: "text/html; charset=utf-8",
                                                request: request, status: status, maxAge: 0, lastModified: nil)
        Self.secure(&response.headers)
        return response
    }

    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// Defence in depth behind the templates' escaping: no script but our own file, no inline
    /// handlers, no plug-ins, no framing, nothing fetched from elsewhere.
    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        headers[Self.referrerPolicy] = "no-referrer"
    }

    private func errorPage(_ resources: DashboardResources, status: HTTPResponse.Status, kind: API.RequestKind, message: String) -> Response {
        let html = resources.templates.render(["title": title, "status": Int(status.code), "kind": kind.rawValue, "message": message,
                                               "stylesheet": "/assets/dashboard.css?v=\(resources.stylesheet.version)"] as [String: Any],
                                              withTemplate: "error") ?? message
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        Self.secure(&headers)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func unavailable() -> Response {
        let message = if case .failure(let error) = resources { error.message } else { "the dashboard is unavailable" }
        return API.errorResponse(status: .internalServerError, kind: .internal, message: message)
    }

    /// `card-pass-stevens`: the URN with every character but ASCII letters and digits as `-`,
    /// lower-cased and cut to 100 characters; a repeat gets `-2`, `-3`, ….
    static func cardID(for urn: String, used: inout [String: Int]) -> String {
        var slug = String(urn.lowercased().unicodeScalars.prefix(100).map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)) ? Character(scalar) : "-"
        })
        while slug.contains("--") { slug = slug.replacingOccurrences(of: "--", with: "-") }
        slug = slug.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        let base = "card-" + (slug.isEmpty ? "urn" : slug)
        let count = (used[base] ?? 0) + 1
        used[base] = count
        return count == 1 ? base : "\(base)-\(count)"
    }

    static func isCardID(_ text: String) -> Bool {
        text.hasPrefix("card-") && text.utf8.count <= 125 && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }
}
