import ConditionsText
import Foundation
import LoopbackServer
import Synchronization

/// A loopback stand-in for api.weather.gov, serving the real and derived bodies in
/// `Plugins/NWS/Tests/Resources` (their `SOURCES.md` files say which is which) with their
/// `https://api.weather.gov` URLs pointing at itself, and reproducing the service's traps:
///
/// - a request without a User-Agent gets 403 and an HTML "Access Denied" page;
/// - `/points/{lat},{lon}` with more than four decimals, or a trailing zero, gets 301 with the
///   real `AdjustPointPrecision` / `AdjustTrailingZeroRedundancy` problem body and a
///   `Location` naming the adjusted point;
/// - a point in `marine` gets 404 with the real `MarineForecastNotSupported` body;
/// - a coordinate that is not one gets 400 with the real `InvalidParameter` body;
/// - `fail(_:times:with:)` answers a path with a fault (503 `ForecastGridExpired`, say) a
///   number of times before answering again.
///
/// Points: Stevens (`47.745,-121.0933`) and Snoqualmie (`47.41,-121.4058`) have derived bodies
/// of their own, `30,-85` the real one (grid TAE 58,65); any other point answers as Stevens.
/// Grids other than the two passes' answer with the Stevens forecasts. Every grid's raw data
/// (`/gridpoints/{wfo}/{x},{y}`) is the real TAE 58,65 body, re-timed at each request so its
/// first hour is the current one (`retimed(_:to:)`; `pinClock(_:)` fixes "current"). Alerts:
/// Stevens has a Winter Weather Advisory (and a test message), every other point none.
package final class NWSStandIn: Sendable {
    package typealias Response = LoopbackServer.Response

    /// The server; its `requests` show what the module sent.
    package let server = LoopbackServer()

    private struct State {
        var faults: [String: [Response]] = [:]
        var marine: Set<String> = ["47.6,-122.5"]
        var cacheControl: [String: String] = ["points": "public, max-age=3600", "forecast": "public, max-age=900", "alerts": "public, max-age=30",
                                              "grid": "public, max-age=1800"]
        var clock: Date?
    }

    private let state = Mutex(State())
    private let bodies: [String: String]

    /// The plugin's test resources, from this file's place in it (`Plugins/NWS/StandIn`).
    package static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Resources")

    /// A file under `Plugins/NWS/Tests/Resources` (`real/…` or `derived/…`), as text.
    package static func fixture(_ path: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(path), encoding: .utf8)
    }

    /// A stopped stand-in with every body loaded.
    package init() throws {
        let names = [
            "real/nws_points_30_-85_pynws-fixture.json", "real/nws_problem_301_AdjustPointPrecision.json",
            "real/nws_problem_301_AdjustTrailingZeroRedundancy.json", "real/nws_problem_400_InvalidParameter.json",
            "real/nws_problem_404_MarineForecastNotSupported.json", "real/nws_gridpoints_TAE_58_65_2022-02-04.json",
            "derived/points_47.745_-121.0933.json", "derived/points_47.41_-121.4058.json",
            "derived/forecast_SEW_163_68.json", "derived/forecast_hourly_SEW_163_68.json",
            "derived/forecast_SEW_151_53.json", "derived/forecast_hourly_SEW_151_53.json",
            "derived/alerts_47.745_-121.0933.json", "derived/alerts_none.json",
            "derived/problem_503_ForecastGridExpired.json", "derived/problem_500_UnexpectedProblem.json",
            "derived/access_denied_403.html",
        ]
        var bodies: [String: String] = [:]
        for name in names { bodies[name] = try Self.fixture(name) }
        self.bodies = bodies
        server.fallback { [unowned self] request in self.answer(request) }
    }

    deinit { server.stop() }

    /// Starts listening on 127.0.0.1.
    package func start() throws { try server.start() }

    /// Stops the server.
    package func stop() { server.stop() }

    /// What to write as the NWS instance's `baseURL`.
    package var baseURL: URL { server.baseURL }

    /// Answers requests for `path` with `response`, `times` times, before answering as usual.
    package func fail(_ path: String, times: Int, with response: Response) {
        state.withLock { $0.faults[path, default: []] += Array(repeating: response, count: times) }
    }

    /// Points (`lat,lon` as sent) answered 404 `MarineForecastNotSupported`.
    package func addMarine(_ point: String) {
        state.withLock { _ = $0.marine.insert(point) }
    }

    /// The hour the gridpoints body is re-timed to is `date`'s (nil: the clock's at each request).
    package func pinClock(_ date: Date?) {
        state.withLock { $0.clock = date }
    }

    /// The `Cache-Control` of `points`, `forecast` (daily and hourly), `grid` or `alerts` answers.
    package func setCacheControl(_ kind: String, _ value: String) {
        state.withLock { $0.cacheControl[kind] = value }
    }

    /// A body as served: NWS's own URLs pointing here.
    package func body(_ name: String) -> String {
        (bodies[name] ?? "").replacingOccurrences(of: "https://api.weather.gov", with: baseURL.absoluteString)
    }

    /// The 503 `ForecastGridExpired` problem (derived), with `Retry-After` when given.
    package func gridExpired(retryAfter: String? = nil) -> Response {
        var response = problem("derived/problem_503_ForecastGridExpired.json", status: 503)
        if let retryAfter { response.headers["Retry-After"] = retryAfter }
        return response
    }

    /// The 500 `UnexpectedProblem` problem (derived).
    package func unexpectedProblem() -> Response {
        problem("derived/problem_500_UnexpectedProblem.json", status: 500)
    }

    /// Requests received whose path starts with `prefix`.
    package func requests(_ prefix: String) -> [LoopbackServer.Request] {
        server.requests.filter { $0.path.hasPrefix(prefix) }
    }

    // MARK: Answering

    private func answer(_ request: LoopbackServer.Request) -> Response {
        guard let agent = request.headers["user-agent"], !agent.trimmingCharacters(in: .whitespaces).isEmpty else {
            return Response(status: 403, headers: ["Content-Type": "text/html"], body: Data((bodies["derived/access_denied_403.html"] ?? "").utf8))
        }
        if let fault = state.withLock({ state -> Response? in
            guard var queue = state.faults[request.path], !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            state.faults[request.path] = queue
            return first
        }) {
            return fault
        }
        let path = request.path
        if path.hasPrefix("/points/") { return points(String(path.dropFirst("/points/".count))) }
        if path == "/alerts/active" {
            let point = (request.query ?? "").split(separator: "&").first { $0.hasPrefix("point=") }.map { String($0.dropFirst(6)) } ?? ""
            guard Self.coordinates(point) != nil else { return problem("real/nws_problem_400_InvalidParameter.json", status: 400) }
            return document(point == "47.745,-121.0933" ? "derived/alerts_47.745_-121.0933.json" : "derived/alerts_none.json", kind: "alerts")
        }
        if path.hasPrefix("/gridpoints/") {
            let grid = path.contains("/SEW/151,53/") ? "SEW_151_53" : "SEW_163_68"
            if path.hasSuffix("/forecast/hourly") { return document("derived/forecast_hourly_\(grid).json", kind: "forecast") }
            if path.hasSuffix("/forecast") { return document("derived/forecast_\(grid).json", kind: "forecast") }
            // `/gridpoints/{wfo}/{x},{y}`: the raw grid, any office and cell.
            if path.split(separator: "/").count == 3 {
                let now = state.withLock { $0.clock } ?? Date()
                return document("real/nws_gridpoints_TAE_58_65_2022-02-04.json", kind: "grid") { Self.retimed($0, to: now) }
            }
        }
        return .json(#"{"correlationId": "0", "title": "Not Found", "type": "https://api.weather.gov/problems/NotFound", "status": 404, "detail": "'\#(path)' is not a valid resource path", "instance": "https://api.weather.gov/requests/0"}"#, status: 404)
    }

    /// `/points/{text}` with NWS's rules on how a coordinate is written.
    private func points(_ text: String) -> Response {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, Self.coordinates(text) != nil else { return problem("real/nws_problem_400_InvalidParameter.json", status: 400) }
        if parts.contains(where: { Self.decimals($0).count > 4 }) {
            var response = problem("real/nws_problem_301_AdjustPointPrecision.json", status: 301)
            response.headers["Location"] = "/points/" + parts.map(Self.adjusted).joined(separator: ",")
            return response
        }
        if parts.contains(where: { Self.decimals($0).hasSuffix("0") }) {
            var response = problem("real/nws_problem_301_AdjustTrailingZeroRedundancy.json", status: 301)
            response.headers["Location"] = "/points/" + parts.map(Self.adjusted).joined(separator: ",")
            return response
        }
        if state.withLock({ $0.marine.contains(text) }) { return problem("real/nws_problem_404_MarineForecastNotSupported.json", status: 404) }
        switch text {
        case "30,-85": return document("real/nws_points_30_-85_pynws-fixture.json", kind: "points")
        case "47.41,-121.4058": return document("derived/points_47.41_-121.4058.json", kind: "points")
        default: return document("derived/points_47.745_-121.0933.json", kind: "points")
        }
    }

    private func document(_ name: String, kind: String, edit: (String) -> String = { $0 }) -> Response {
        var headers = ["Content-Type": "application/geo+json"]
        if let control = state.withLock({ $0.cacheControl[kind] }) { headers["Cache-Control"] = control }
        return Response(status: 200, headers: headers, body: Data(edit(body(name)).utf8))
    }

    /// `body` with every UTC timestamp (`2022-02-03T21:00:00+00:00`) moved by the same whole
    /// hours, so that the earliest interval start (`…/PT1H`) falls in the hour `now` is in:
    /// a real grid, as if issued now.
    ///
    /// Read byte by byte, not with regular expressions: on the 132 KB grid those took 0.1–0.3 s
    /// of CPU in a debug build, on the thread answering the request, for every grid asked. On a
    /// loaded machine that made a grid answer take longer than the NWS tests' HTTP client then
    /// waited (10 s), and `SkySourceTests.anOlderMemoEntryStillAnswers`, which asks for three
    /// grids, failed so. This takes about 4 ms.
    package static func retimed(_ body: String, to now: Date) -> String {
        var bytes = Array(body.utf8)
        var stamps: [(offset: Int, seconds: Int)] = []
        var earliestStart: Int?
        var index = 0
        while index + stampLength <= bytes.count {
            guard let seconds = stampSeconds(bytes, at: index) else {
                index += 1
                continue
            }
            stamps.append((index, seconds))
            // An interval's start: `<stamp>/<duration>`.
            if index + stampLength < bytes.count, bytes[index + stampLength] == UInt8(ascii: "/") {
                earliestStart = min(earliestStart ?? seconds, seconds)
            }
            index += stampLength
        }
        guard let earliestStart else { return body }
        let shift = Int((now.timeIntervalSince1970 / 3600).rounded(.down)) * 3600 - earliestStart
        for stamp in stamps {
            let moved = stampText(stamp.seconds + shift)
            guard moved.count == 19 else { continue }
            bytes.replaceSubrange(stamp.offset..<(stamp.offset + 19), with: moved)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `yyyy-MM-ddTHH:mm:ss+00:00`.
    private static let stampLength = 25

    /// The seconds since 1970 of the `yyyy-MM-ddTHH:mm:ss+00:00` at `index`, or nil when there
    /// is none there.
    private static func stampSeconds(_ bytes: [UInt8], at index: Int) -> Int? {
        guard bytes[index + 19] == UInt8(ascii: "+") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[(index + from)..<(index + from + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (20, "0"), (21, "0"), (22, ":"), (23, "0"), (24, "0")]
        guard separators.allSatisfy({ bytes[index + $0.0] == $0.1.asciiValue }),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        return CivilCalendar.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// `yyyy-MM-ddTHH:mm:ss` of `seconds` since 1970, UTC.
    private static func stampText(_ seconds: Int) -> [UInt8] {
        let days = Int((Double(seconds) / 86_400).rounded(.down)), time = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(days: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return Array("\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time % 3600 / 60)):\(two(time % 60))".utf8)
    }

    private func problem(_ name: String, status: Int) -> Response {
        Response(status: status, headers: ["Content-Type": "application/problem+json"], body: Data(body(name).utf8))
    }

    /// The digits after the point, if any.
    private static func decimals(_ number: String) -> Substring {
        guard let dot = number.firstIndex(of: ".") else { return "" }
        return number[number.index(after: dot)...]
    }

    /// `number` at four decimals without trailing zeros, as NWS's `Location` gives it.
    private static func adjusted(_ number: String) -> String {
        var text = String(format: "%.4f", Double(number) ?? 0)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `lat,lon` as numbers within range, or nil.
    private static func coordinates(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return (latitude, longitude)
    }
}
