import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// An `aurora` result's data: the latest observed Kp, the highest Kp of the next 24 hours and
/// of the next 3 days with its G-level and the time of the peak, and for a place the OVATION
/// probability at its grid cell. Another module's `night:` reads `next24h.gScale` and
/// `ovation.probability`: those names stay.
struct AuroraReport: Sendable {
    /// The forecast windows, in hours, with their data keys.
    static let windows: [(key: String, hours: Double)] = [("next24h", 24), ("next3d", 72)]
    /// A Kp period lasts 3 hours: one that began up to 3 hours before `now` is still on.
    static let periodHours = 3.0
    /// An OVATION forecast further than this from the report's time is said to be (hours).
    static let ovationDriftHours = 3.0

    let json: JSONValue

    /// `place` is the place's data, null for `aurora:now`; `grid` is read only with a place.
    init(observed: KpSeries, forecast: KpSeries, place: PlacePoint?, grid: OvationGrid?, now: Date) {
        var notes: [String] = []
        var object = JSONObject()

        // Periods after `now` (a report pinned to an earlier instant) are not yet observed.
        let past = observed.periods.filter { $0.time <= now }
        if let latest = past.last {
            object["observed"] = Self.period(latest)
        } else {
            object["observed"] = .null
            notes.append("no observed Kp at or before the report's time (the first is \(Timestamp.string(from: observed.periods[0].time)))")
        }
        for window in Self.windows {
            let start = now.addingTimeInterval(-Self.periodHours * 3600)
            let end = now.addingTimeInterval(window.hours * 3600)
            let inWindow = forecast.periods.filter { $0.time > start && $0.time < end }
            // The highest Kp, and of equal ones the earliest: when it is first reached.
            let peak = inWindow.reduce(nil as KpPeriod?) { best, period in
                guard let best else { return period }
                return period.kp > best.kp ? period : best
            }
            object[window.key] = peak.map(Self.period) ?? .null
            if peak == nil, window.key == "next24h", let last = forecast.periods.last {
                notes.append("the Kp forecast ends at \(Timestamp.string(from: last.time.addingTimeInterval(Self.periodHours * 3600))), before the report's time")
            }
        }

        if let place {
            object["place"] = place.json
            let cell = OvationGrid.cell(latitude: place.latitude, longitude: place.longitude)
            if let grid {
                let probability = grid.probability(at: cell)
                object["ovation"] = ["probability": JSONValue(probability), "latitude": .int(cell.latitude), "longitude": .int(cell.longitude),
                                     "observationTime": JSONValue(grid.observationTime), "forecastTime": JSONValue(grid.forecastTime)]
                if probability == nil { notes.append("the OVATION grid has no point at \(cell.latitude)°, \(cell.longitude)° E") }
                if grid.skipped > 0 { notes.append("skipped \(Self.count(grid.skipped, "unreadable OVATION point"))") }
                if let forecastTime = grid.forecastTime, abs(forecastTime.timeIntervalSince(now)) > Self.ovationDriftHours * 3600 {
                    let hours = Int((abs(forecastTime.timeIntervalSince(now)) / 3600).rounded())
                    notes.append("the OVATION forecast is for \(Timestamp.string(from: forecastTime)), \(hours) h \(forecastTime < now ? "before" : "after") the report's time")
                }
            } else {
                object["ovation"] = .null
            }
        } else {
            object["place"] = .null
            object["ovation"] = .null
        }
        object["formats"] = ["kp": .string(observed.format.rawValue), "forecast": .string(forecast.format.rawValue)]
        if observed.skipped > 0 { notes.append("skipped \(Self.count(observed.skipped, "unreadable row")) of the planetary K-index") }
        if forecast.skipped > 0 { notes.append("skipped \(Self.count(forecast.skipped, "unreadable row")) of the Kp forecast") }
        object["notes"] = .array(notes.map(JSONValue.string))
        json = .object(object)
    }

    /// `{"kp", "kpText", "gScale", "time", "kind"}`.
    static func period(_ period: KpPeriod) -> JSONValue {
        ["kp": .double(period.kp), "kpText": .string(KpScale.text(period.kp)), "gScale": .string(KpScale.word(period.level)),
         "time": .string(Timestamp.string(from: period.time)), "kind": JSONValue(period.kind)]
    }

    /// `1 unreadable row`, `3 unreadable rows`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
