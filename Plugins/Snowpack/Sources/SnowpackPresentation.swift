import ConditionsFigures
import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// How `snowpack` results read, and what `watch` compares in them.
///
/// Text: the station, depth and SWE; their change over 24 h, 72 h and 7 days; air
/// temperature; the station's elevation and distance; the reading's time (marked stale); a
/// 14-day sparkline of daily depth; and what was skipped.
///
/// Change key: the status is `no data`, `stale`, or the depth in 6-inch bands (`48–54 in`);
/// the detail is the station and whether the last 24 hours brought 2 inches or more of depth.
/// Hourly readings that move the depth within a band, SWE, temperature and the reading's time
/// are not news, so a re-fetch of the same readings, or of readings an hour on, is no change.
struct SnowpackPresentation: ResultPresentation {
    let kind = SnowpackSource.kind
    /// The width of a depth band, in inches (the change key's status).
    static let bandInches = 6.0
    /// A 24-hour rise of at least this many inches is new snow (the change key's detail).
    static let newSnowInches = 2.0

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard Self.isSnowpack(data) else { return GenericPresentation().render(data, context: context) }
        let style = context.style
        let station = data["station"] ?? .null
        let status = data["status"]?.stringValue ?? "?"
        var heading = "\(style.bold(context.urn))  \(Self.stationTitle(station))"
        if status == SnowpackReport.Status.noData.rawValue {
            heading += ": no data"
        } else {
            heading += ": depth \(Self.inches(data["depthIn"]?.doubleValue)), SWE \(Self.inches(data["sweIn"]?.doubleValue))"
        }
        if status == SnowpackReport.Status.stale.rawValue { heading += "  " + style.yellow("stale") }
        var lines = [heading]
        var rows: [(String, String)] = []
        for window in SnowpackReport.windows {
            let change = data["changes"]?[window.key]
            guard let change, !change.isNull else { continue }
            rows.append((window.label, "depth \(Self.change(change["depthIn"]?.doubleValue)) · SWE \(Self.change(change["sweIn"]?.doubleValue))"))
        }
        if let temperature = data["airTempF"]?.doubleValue { rows.append(("air", Self.fahrenheit(temperature))) }
        if let placement = Self.whereText(data) { rows.append(("station", placement)) }
        if let reading = Self.readingTime(data) {
            // The station's own PST hour too, unless the local time already says it.
            let local = context.localTime(reading, .dateTime)
            let pst = "\(PacificStandardTime.wallTime(reading).suffix(5)) PST"
            var text = local.hasSuffix(pst) ? local : "\(local) (\(pst))"
            if status == SnowpackReport.Status.stale.rawValue {
                let age = data["reading"]?["ageHours"]?.doubleValue.map { ", \(JSONValue.format(($0 * 10).rounded() / 10)) h old" } ?? ""
                text += "  " + style.yellow("stale\(age)")
            }
            rows.append(("reading", text))
        }
        let daily = Self.daily(data)
        if daily.contains(where: { $0.depth != nil }), let first = daily.first, let last = daily.last {
            let values = daily.compactMap(\.depth)
            var spark = "\(Self.sparkline(daily.map(\.depth)))  \(first.day.shortText) – \(last.day.shortText)"
            if let low = values.min(), let high = values.max() {
                spark += ", " + (low == high ? Self.inches(low) : "\(Self.inches(low).dropLast(3))–\(Self.inches(high))")
            }
            rows.append(("\(SnowpackReport.days) days", spark))
        }
        for note in (data["notes"]?.arrayValue ?? []).compactMap(\.stringValue) { rows.append(("note", note)) }
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { label, value in "  " + style.dim(label.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + value }
        if let url = station["url"]?.stringValue { lines.append("  " + url) }
        return lines
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard Self.isSnowpack(data) else { return GenericPresentation().changeKey(data) }
        let status = data["status"]?.stringValue ?? "?"
        let triplet = data["station"]?["triplet"]?.stringValue ?? "?"
        var word = status
        if status == SnowpackReport.Status.current.rawValue {
            word = data["depthIn"]?.doubleValue.map(Self.band) ?? "no depth"
        }
        let rise = data["changes"]?["24h"]?["depthIn"]?.doubleValue
        let newSnow = rise.map { $0 >= Self.newSnowInches ? "yes" : "no" } ?? "unknown"
        return ChangeKey(status: word, detail: "\(triplet); new snow in 24 h: \(newSnow)")
    }

    /// The station and place, depth, SWE, changes and temperature, a bar chart of the 14
    /// daily depths, NRCS's station page, the station's position, and a note when stale.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard Self.isSnowpack(data) else { return GenericPresentation().card(data, context: context) }
        let station = data["station"] ?? .null
        let name = station["name"]?.stringValue ?? station["triplet"]?.stringValue ?? "SNOTEL station"
        let status = data["status"]?.stringValue ?? "?"
        var subtitle = station["triplet"]?.stringValue ?? ""
        if let place = Self.placeText(data) { subtitle += subtitle.isEmpty ? place : " · \(place)" }
        let link = station["url"]?.stringValue.flatMap { URL(string: $0) }.map { ResultCard.Link(url: $0, label: "NRCS's page for \(name)") }
        var coordinate: GeoPoint?
        if let latitude = station["latitude"]?.doubleValue, let longitude = station["longitude"]?.doubleValue {
            coordinate = GeoPoint(latitude: latitude, longitude: longitude)
        }
        let reading = Self.readingTime(data)
        var rows: [ResultCard.Row] = []
        var cardStatus: ResultCard.Status?
        var figure: Drawing?
        var staleNote: String?
        if status == SnowpackReport.Status.noData.rawValue {
            cardStatus = ResultCard.Status("no data", tone: .neutral)
        } else {
            rows.append(.init("Snow depth", Self.inches(data["depthIn"]?.doubleValue)))
            rows.append(.init("Snow water equivalent", Self.inches(data["sweIn"]?.doubleValue)))
            for window in SnowpackReport.windows {
                guard let change = data["changes"]?[window.key], !change.isNull else { continue }
                rows.append(.init("Last \(window.label)", "depth \(Self.change(change["depthIn"]?.doubleValue)) · SWE \(Self.change(change["sweIn"]?.doubleValue))"))
            }
            if let temperature = data["airTempF"]?.doubleValue { rows.append(.init("Air temperature", Self.fahrenheit(temperature))) }
            if let reading { rows.append(.init("Reading", context.localTime(reading, .dateTime))) }
            if status == SnowpackReport.Status.stale.rawValue, let reading {
                cardStatus = ResultCard.Status("stale", tone: .caution)
                let age = data["reading"]?["ageHours"]?.doubleValue.map { ", \(JSONValue.format(($0 * 10).rounded() / 10)) hours old" } ?? ""
                staleNote = "latest reading \(context.localTime(reading, .dateTime))\(age)"
            }
            let daily = Self.daily(data)
            if daily.contains(where: { $0.depth != nil }) { figure = Self.chart(daily, name: name) }
        }
        if let placement = Self.whereText(data) { rows.append(.init("Station", placement)) }
        let notes = (data["notes"]?.arrayValue ?? []).compactMap(\.stringValue)
        return ResultCard(title: name, subtitle: subtitle.isEmpty ? nil : subtitle, status: cardStatus, figure: figure, rows: rows, lines: notes,
                          updated: reading, staleNote: staleNote, link: link, coordinate: coordinate)
    }

    // MARK: Reading the data

    /// Data from elsewhere (a fixture, the cache) is read as snowpack only with the members
    /// the text is built from.
    static func isSnowpack(_ data: JSONValue) -> Bool {
        data["station"]?.objectValue != nil && data["status"]?.stringValue != nil
    }

    /// `Stevens Pass (791:WA:SNTL)`.
    static func stationTitle(_ station: JSONValue) -> String {
        let name = station["name"]?.stringValue ?? "SNOTEL station"
        return station["triplet"]?.stringValue.map { "\(name) (\($0))" } ?? name
    }

    /// `0.6 km (0.4 mi) from Stevens Pass`; nil for a station asked by triplet.
    static func placeText(_ data: JSONValue) -> String? {
        guard let place = data["place"], let km = place["distanceKm"]?.doubleValue else { return nil }
        let name = place["name"]?.stringValue ?? place["id"]?.stringValue ?? "the place"
        let miles = place["distanceMi"]?.doubleValue.map { " (\(String(format: "%.1f", $0)) mi)" } ?? ""
        return "\(String(format: "%.1f", km)) km\(miles) from \(name)"
    }

    /// `3,940 ft (1,201 m) · 0.6 km (0.4 mi) from Stevens Pass`.
    static func whereText(_ data: JSONValue) -> String? {
        var parts: [String] = []
        if let feet = data["station"]?["elevationFt"]?.doubleValue, feet.isFinite, abs(feet) < 1e6 {
            var text = "\(GroupedNumber.text(Int(feet.rounded()))) ft"
            if let metres = data["station"]?["elevationM"]?.doubleValue, metres.isFinite, abs(metres) < 1e6 {
                text += " (\(GroupedNumber.text(Int(metres.rounded()))) m)"
            }
            parts.append(text)
        }
        if let place = placeText(data) { parts.append(place) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    static func readingTime(_ data: JSONValue) -> Date? {
        data["reading"]?["time"]?.dateValue
    }

    struct DailyDepth {
        let day: CivilDate
        let depth: Double?
    }

    /// The data's daily depths, in order; entries without a readable date are left out.
    static func daily(_ data: JSONValue) -> [DailyDepth] {
        (data["daily"]?.arrayValue ?? []).prefix(366).compactMap { entry in
            guard let text = entry["date"]?.stringValue, let midnight = Timestamp.parse(text) else { return nil }
            let day = CivilDate(ordinal: Int((midnight.timeIntervalSince1970 / 86_400).rounded(.down)))
            return DailyDepth(day: day, depth: entry["depthIn"]?.doubleValue.flatMap { $0.isFinite ? $0 : nil })
        }
    }

    // MARK: Writing

    /// `48–54 in`: the 6-inch band holding `depth`.
    static func band(_ depth: Double) -> String {
        guard depth.isFinite, abs(depth) < 1e6 else { return "no depth" }
        let low = Int((max(0, depth) / bandInches).rounded(.down) * bandInches)
        return "\(low)–\(low + Int(bandInches)) in"
    }

    /// `58 in`, `15.1 in`; `—` when not reported.
    static func inches(_ value: Double?) -> String {
        guard let value, value.isFinite, abs(value) < 1e9 else { return "—" }
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) in" : String(format: "%.1f in", tenths)
    }

    /// `+8 in`, `-1.5 in`, `±0 in`; `unavailable` when a window's end has no value.
    static func change(_ value: Double?) -> String {
        guard let value, value.isFinite, abs(value) < 1e9 else { return "unavailable" }
        let tenths = (value * 10).rounded() / 10
        if tenths == 0 { return "±0 in" }
        return (tenths > 0 ? "+" : "") + inches(tenths)
    }

    /// `27.5 °F`.
    static func fahrenheit(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e6 else { return "—" }
        return "\(JSONValue.format((value * 10).rounded() / 10)) °F"
    }

    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Where a day has no depth.
    static let gap: Character = "·"

    /// One glyph per day, scaled from the window's least depth (`▁`) to its most (`█`); all
    /// equal: `▄`; `·` for a day without a value.
    static func sparkline(_ values: [Double?]) -> String {
        let known = values.compactMap { $0 }.filter(\.isFinite)
        let low = known.min() ?? 0, high = known.max() ?? 0
        return String(values.map { value -> Character in
            guard let value, value.isFinite else { return gap }
            guard high > low else { return levels[3] }
            // Scaled as a fraction first: with depths near ±Double.greatestFiniteMagnitude the
            // span overflows to infinity, and no level is made of a value that is not finite.
            let fraction = value / 2 - low / 2
            let span = high / 2 - low / 2
            let level = (fraction / span * 7).rounded()
            guard level.isFinite else { return levels[0] }
            return levels[Int(min(7, max(0, level)))]
        })
    }

    /// The daily depths as bars, with the same facts in words.
    static func chart(_ daily: [DailyDepth], name: String) -> Drawing {
        let bars = daily.map { Drawing.Slot($0.day.shortText, $0.depth) }
        let reported = daily.filter { $0.depth != nil }
        var words = "Snow depth at \(name)"
        if let first = daily.first, let last = daily.last { words += " from \(first.day.shortText) to \(last.day.shortText) \(last.day.year)" }
        words += ": "
        if let firstReported = reported.first?.depth, let lastReported = reported.last?.depth {
            let depths = reported.compactMap(\.depth)
            words += "\(inches(firstReported)) to \(inches(lastReported)), least \(inches(depths.min() ?? 0)), most \(inches(depths.max() ?? 0))"
        } else {
            words += "no day reported"
        }
        let missing = daily.count - reported.count
        if missing > 0, !reported.isEmpty { words += "; \(missing) day\(missing == 1 ? "" : "s") without a value" }
        return .bars(title: "Snow depth per day", unit: "in", bars, summary: words + ".")
    }
}
