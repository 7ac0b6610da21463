import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// One pass's snowfall over one season: the result `data` of `snowfall:{pass}` and
/// `snowfall:{pass}:{season}`.
///
/// The summary is counted back from the **latest reported day**, not from now: the service
/// reports whole days, and a season long over still ends with its last week. Whether that day
/// is recent is for the reader to judge from `latestDay`.
struct SnowfallReport: Sendable, Equatable {
    let pass: MountainPass
    let season: SnowfallSeason
    /// Whether `season` is the one under way (it decides how an empty season is worded).
    let isCurrentSeason: Bool
    let record: SnowfallRecord
    /// The pass's public page, where WSDOT draws the same figures.
    let url: URL

    /// The figures a person looks for first.
    struct Summary: Sendable, Equatable {
        /// The latest day the service reports.
        var latestDay: CivilDate?
        /// The most recent depth reported, on the latest day or before.
        var depthIn: Double?
        /// The season's snowfall to the latest day: the latest `accumulatedSnowFall`, plus new
        /// snow of later days that report none; the sum of new snow when no day reports one.
        var seasonTotalIn: Double?
        /// New snow on the latest day (WSDOT's daily figure covers the 24 hours to its reading).
        var newSnow24hIn: Double?
        /// New snow over the 7 days ending on the latest day; days not reported add nothing.
        var newSnow7dIn: Double?
        /// How many days the season reports.
        var daysReported: Int
    }

    var summary: Summary {
        let days = record.days
        guard let latest = days.last else { return Summary(daysReported: 0) }
        var total: Double?
        var depth: Double?
        for day in days {
            if let accumulated = day.seasonTotalIn {
                total = accumulated
            } else if let new = day.newSnowIn {
                total = (total ?? 0) + new
            }
            if let reported = day.depthIn { depth = reported }
        }
        let week = days.filter { $0.date.ordinal > latest.date.ordinal - 7 }.compactMap(\.newSnowIn)
        return Summary(latestDay: latest.date, depthIn: depth, seasonTotalIn: total, newSnow24hIn: latest.newSnowIn,
                       newSnow7dIn: week.isEmpty ? nil : week.reduce(0, +), daysReported: days.count)
    }

    /// Why there is nothing to show, when no day is reported; nil otherwise.
    var note: String? {
        guard record.days.isEmpty else { return nil }
        if !record.months.isEmpty {
            return "WSDOT gives monthly averages but no daily figures for the \(season.name) season at \(pass.name)."
        }
        return isCurrentSeason
            ? "No snowfall reported yet for the \(season.name) season at \(pass.name)."
            : "WSDOT reports no snowfall for the \(season.name) season at \(pass.name)."
    }

    /// The data contract, keys in their documented order (Plugins/WSDOT/README.md, Snowfall).
    var json: JSONValue {
        let summary = summary
        var object = JSONObject()
        object["id"] = .string(pass.slug)
        object["name"] = .string(pass.name)
        object["season"] = .int(season.startYear)
        object["seasonName"] = .string(season.name)
        object["summary"] = [
            "latestDay": JSONValue(summary.latestDay?.iso),
            "depthIn": Self.inches(summary.depthIn),
            "seasonTotalIn": Self.inches(summary.seasonTotalIn),
            "newSnow24hIn": Self.inches(summary.newSnow24hIn),
            "newSnow7dIn": Self.inches(summary.newSnow7dIn),
            "daysReported": .int(summary.daysReported),
        ]
        object["note"] = JSONValue(note)
        object["days"] = .array(record.days.map { day in
            ["date": .string(day.date.iso), "newSnowIn": Self.inches(day.newSnowIn), "depthIn": Self.inches(day.depthIn),
             "seasonTotalIn": Self.inches(day.seasonTotalIn)]
        })
        object["months"] = .array(record.months.map { month in
            ["month": .string("\(month.year)-\(month.month < 10 ? "0" : "")\(month.month)"),
             "avgNewSnowIn": Self.exact(month.avgNewSnowIn), "avgDepthIn": Self.exact(month.avgDepthIn)]
        })
        object["url"] = .string(Redaction.redact(url))
        return .object(object)
    }

    /// Inches to the thousandth (what the service's decimals carry; sums lose float noise),
    /// whole numbers as integers; null when not reported.
    static func inches(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e9 { return .int(Int(rounded)) }
        return .double(rounded)
    }

    /// The service's own figure unrounded (its monthly averages carry six decimals), whole
    /// numbers as integers; null when not given.
    static func exact(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 1e9 { return .int(Int(value)) }
        return .double(value)
    }
}
