import Foundation
import LoopbackServer
import Synchronization

/// A loopback stand-in for NOAA SWPC's services, from the bodies in
/// `Plugins/SpaceWeather/Tests/Resources` (`real/` byte for byte from SWPC, `derived/` made by
/// the script there; each folder's SOURCES.md says which is which):
///
/// - `/products/noaa-planetary-k-index.json` and `…-forecast.json` in the chosen `Format`: the
///   old form (the real bodies of 2026-02-09), or the new (the real K-index of 2026-08-31 and the
///   forecast derived from the old one beside it);
/// - `/json/ovation_aurora_latest.json`: the real OVATION grid of 2025-01-12 (0.9 MB);
/// - `queueForecasts(_:)`: the next forecast answers scripted, one per request (for `watch`,
///   whose polls each ask once); `forecast(_:periodNow:)` makes one whose periods are moved so a
///   chosen one is under way at the real clock;
/// - `answerWithHTML()`: every request answered HTTP 200 with an HTML page.
package final class SWPCStandIn: Sendable {
    /// Which of SWPC's forms the Kp products come in.
    package enum Format: String, Sendable {
        case old
        case new
    }

    package static let kpPath = "/products/noaa-planetary-k-index.json"
    package static let forecastPath = "/products/noaa-planetary-k-index-forecast.json"
    package static let ovationPath = "/json/ovation_aurora_latest.json"
    /// For the old form: two hours before its G1 period (2026-02-05 03:00, Kp 5+), the `--now` of tests.
    package static let oldNow = "2026-02-05T01:00:00Z"
    /// For the new form: an hour after its K-index's last period.
    package static let newNow = "2026-08-31T10:00:00Z"

    /// The server; its `requests` show what the module sent.
    package let server = LoopbackServer()

    private struct State {
        var format = Format.old
        var queued: [String] = []
        var html = false
    }

    private let state = Mutex(State())
    private let files: [String: String]

    /// The plugin's test resources, from this file's place in it (`Plugins/SpaceWeather/StandIn`).
    package static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Resources")

    static let bodies = [
        "real/swpc_kp_OLDFORMAT_2026-02.json", "real/swpc_kp_forecast_OLDFORMAT_2026-02.json", "real/swpc_kp_NEWFORMAT_2026-08-31.json",
        "derived/swpc_kp_forecast_NEWFORMAT_2026-08-31.json", "real/swpc_ovation_aurora_2025-01-12.json",
    ]

    /// A stopped stand-in with every body loaded.
    package init() throws {
        var files: [String: String] = [:]
        for name in Self.bodies {
            files[name] = try String(contentsOf: Self.resources.appendingPathComponent(name), encoding: .utf8)
        }
        self.files = files
        server.fallback { [unowned self] request in self.answer(request) }
    }

    deinit { server.stop() }

    /// Starts listening on 127.0.0.1.
    package func start() throws { try server.start() }

    /// Stops the server.
    package func stop() { server.stop() }

    /// What to write as the SpaceWeather instance's `baseURL`.
    package var baseURL: URL { server.baseURL }

    /// Serves the Kp products in `format` from now on.
    package func serve(_ format: Format) {
        state.withLock { $0.format = format }
    }

    /// Answers the next forecast requests with `bodies`, one each in order, then as before.
    package func queueForecasts(_ bodies: [String]) {
        state.withLock { $0.queued += bodies }
    }

    /// Answers every request with HTTP 200 and an HTML page from now on.
    package func answerWithHTML() {
        state.withLock { $0.html = true }
    }

    /// Requests received for `path`.
    package func requests(_ path: String) -> [LoopbackServer.Request] {
        server.requests.filter { $0.path == path }
    }

    /// The forecast in `format` with every period moved by whole 3-hour periods so the one that
    /// began at `periodNow` (a `time_tag` of the old body, `2026-02-04 06:00:00`) is the one under
    /// way at `now`: what `watch`, which runs on the real clock, polls.
    package func forecast(_ format: Format, periodNow: String, now: Date = Date()) throws -> String {
        guard let then = Self.date(periodNow) else { throw CocoaError(.coderReadCorrupt) }
        let periodStart = (now.timeIntervalSince1970 / 10_800).rounded(.down) * 10_800
        // The new-form body is the old one 203 days later (derived/SOURCES.md).
        let base = format == .old ? then : then.addingTimeInterval(203 * 86_400)
        return Self.shifted(files[Self.forecastName(format)]!, by: periodStart - base.timeIntervalSince1970)
    }

    // MARK: Answering

    private static func forecastName(_ format: Format) -> String {
        format == .old ? "real/swpc_kp_forecast_OLDFORMAT_2026-02.json" : "derived/swpc_kp_forecast_NEWFORMAT_2026-08-31.json"
    }

    private func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
        let (format, html) = state.withLock { ($0.format, $0.html) }
        if html {
            return .text("<!DOCTYPE html><html><head><title>Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>",
                         contentType: "text/html; charset=utf-8")
        }
        switch request.path {
        case Self.kpPath:
            return .json(files[format == .old ? "real/swpc_kp_OLDFORMAT_2026-02.json" : "real/swpc_kp_NEWFORMAT_2026-08-31.json"]!)
        case Self.forecastPath:
            let queued = state.withLock { state -> String? in state.queued.isEmpty ? nil : state.queued.removeFirst() }
            return .json(queued ?? files[Self.forecastName(format)]!)
        case Self.ovationPath:
            return .json(files["real/swpc_ovation_aurora_2025-01-12.json"]!)
        default:
            return .text("<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>", status: 404, contentType: "text/html; charset=utf-8")
        }
    }

    // MARK: Moving times

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `2026-02-04 06:00:00` or `2026-08-31T06:00:00` (either form's `time_tag`), UTC.
    static func date(_ text: String) -> Date? {
        let digits = text.split { !$0.isNumber }.prefix(6).compactMap { Int($0) }
        guard digits.count == 6 else { return nil }
        return calendar.date(from: DateComponents(year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4], second: digits[5]))
    }

    /// `body` with every `time_tag` moved by `seconds`, each written in its own form.
    static func shifted(_ body: String, by seconds: TimeInterval) -> String {
        body.replacing(/\d{4}-\d{2}-\d{2}([ T])\d{2}:\d{2}:\d{2}/) { match in
            guard let date = date(String(match.output.0)) else { return String(match.output.0) }
            let moved = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date.addingTimeInterval(seconds))
            return String(format: "%04d-%02d-%02d", moved.year ?? 0, moved.month ?? 0, moved.day ?? 0) + match.output.1
                + String(format: "%02d:%02d:%02d", moved.hour ?? 0, moved.minute ?? 0, moved.second ?? 0)
        }
    }
}
