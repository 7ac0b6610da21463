import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// The Tonight card's one timeline, sunset to sunrise, read from a night's data alone: the
/// twilights as bands, the Moon's altitude as a curve over its horizon line, the sky cover per
/// hour as bars, the windows picked out. Whatever the data lacks is left out of the drawing,
/// never guessed; without a sunset and a sunrise (or the Moon's samples to stand in for them)
/// there is no timeline.
struct NightTimeline {
    let data: JSONValue
    let night: NightPresentation.Night
    let context: PresentationContext

    var timeline: Timeline? {
        let samples = (data["moon"]?["altitude"]?.arrayValue ?? []).compactMap { sample -> Timeline.Sample? in
            guard let time = time(sample["time"]), let degrees = sample["degrees"]?.doubleValue, degrees.isFinite else { return nil }
            return Timeline.Sample(time, degrees)
        }
        // A polar night or day has no sunset or sunrise; the Moon's samples span the same night.
        guard let start = time(data["sunset"]) ?? samples.first?.time, let end = time(data["sunrise"]) ?? samples.last?.time,
              end > start else { return nil }
        let curve = samples.isEmpty ? nil : Timeline.Curve(label: "Moon altitude", range: -90...90, baseline: 0, samples: samples)
        let bars = (data["sky"]?["hours"]?.arrayValue ?? []).compactMap { hour -> Timeline.Bar? in
            guard let from = time(hour["time"]) else { return nil }
            let to = from.addingTimeInterval(3_600)
            guard to > start, from < end else { return nil }
            return Timeline.Bar(from: max(from, start), to: min(to, end), value: hour["skyCover"]?.doubleValue, label: context.localTime(from, .time))
        }
        let windowWord = night.darkness == "nautical" ? "Nautical window" : "Window"
        let highlights = night.windows.map { Timeline.Highlight(from: $0.0, to: $0.1, label: "\(windowWord) \(range($0.0, $0.1))") }
        return Timeline(title: "Tonight, sunset to sunrise", start: start, end: end, bands: bands(start, end), curve: curve,
                        barsLabel: "Sky cover", bars: bars, highlightsLabel: night.darkness == "nautical" ? "Nautically dark, moonless and clear" : "Dark, moonless and clear",
                        highlights: highlights, ticks: ticks(start, end), summary: summary(start, end, bars: bars))
    }

    /// The twilights between `start` and `end`. Each dusk takes the sky one shade darker and
    /// each dawn one lighter, so a night without astronomical darkness simply never reaches
    /// the darkest shade.
    func bands(_ start: Date, _ end: Date) -> [Timeline.Band] {
        let twilight = data["twilight"]
        var events: [(time: Date, depth: Int, dusk: Bool)] = []
        for (depth, edge) in [(1, twilight?["civil"]), (2, twilight?["nautical"]), (3, twilight?["astronomical"])] {
            if let dusk = time(edge?["dusk"]) { events.append((dusk, depth + 1, true)) }
            if let dawn = time(edge?["dawn"]) { events.append((dawn, depth, false)) }
        }
        if let sunset = time(data["sunset"]) { events.append((sunset, 1, true)) }
        if let sunrise = time(data["sunrise"]) { events.append((sunrise, 0, false)) }
        events.sort { $0.time < $1.time }
        guard let first = events.first else { return [] }
        // Before the first event the sky is one shade lighter than a dusk leaves it, or as dark
        // as a dawn finds it.
        var depth = first.dusk ? first.depth - 1 : first.depth + 1
        var from = start
        var bands: [Timeline.Band] = []
        for (time, after) in events.map({ ($0.time, $0.depth) }) + [(end, depth)] {
            let to = min(max(time, start), end)
            if to > from, Self.shades.indices.contains(depth) {
                let shade = Self.shades[depth]
                bands.append(Timeline.Band(shade, from: from, to: to, label: Self.names[shade] ?? ""))
            }
            from = max(from, to)
            depth = after
        }
        return bands
    }

    static let shades: [Timeline.Shade] = [.day, .civil, .nautical, .astronomical, .night]
    static let names: [Timeline.Shade: String] = [.day: "Daylight", .civil: "Civil twilight", .nautical: "Nautical twilight",
                                                  .astronomical: "Astronomical twilight", .night: "Astronomical night"]

    /// Local whole hours inside the timeline, every second one (every one in a short night).
    func ticks(_ start: Date, _ end: Date) -> [Timeline.Tick] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = data["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        let every = end.timeIntervalSince(start) < 6 * 3_600 ? 1 : 2
        var ticks: [Timeline.Tick] = []
        var hour = calendar.nextDate(after: start, matching: DateComponents(minute: 0, second: 0), matchingPolicy: .nextTime)
        while let current = hour, current < end, ticks.count < 48 {
            if calendar.component(.hour, from: current) % every == 0, current.timeIntervalSince(start) >= 600, end.timeIntervalSince(current) >= 600 {
                let text = context.localTime(current, .time)
                ticks.append(Timeline.Tick(current, text.split(separator: " ").first.map(String.init) ?? text))
            }
            hour = calendar.date(byAdding: .hour, value: 1, to: current)
        }
        return ticks
    }

    /// The drawing in words, in the order the eye takes it: the edges, the darkness, the Moon,
    /// the clouds, the windows.
    func summary(_ start: Date, _ end: Date, bars: [Timeline.Bar]) -> String {
        var sentences = ["From sunset \(context.localTime(start, .time)) to sunrise \(context.localTime(end, .time))."]
        let dark = NightPresentation.Night.spans(data["dark"])
        if !dark.isEmpty {
            sentences.append((night.darkness == "nautical" ? "Nautical darkness " : "Astronomical night ") + dark.map { range($0.0, $0.1) }.joined(separator: ", ") + ".")
        } else if night.darkness == "none" {
            sentences.append("The Sun stays above −12°.")
        }
        let up = NightPresentation.Night.spans(data["moon"]?["up"]).compactMap { span -> (Date, Date)? in
            let from = max(span.0, start), to = min(span.1, end)
            return from < to ? (from, to) : nil
        }
        let lit = data["moon"]?["illumination"]?.doubleValue.map { ", \(NightPresentation.number($0))% lit" } ?? ""
        sentences.append(up.isEmpty ? "The Moon stays below the horizon." : "The Moon is up " + up.map { range($0.0, $0.1) }.joined(separator: ", ") + lit + ".")
        let known = bars.compactMap(\.value)
        if let low = known.min(), let high = known.max() {
            var clouds = low == high ? "Sky cover \(NightPresentation.number(low))% every hour" : "Sky cover \(NightPresentation.number(low))–\(NightPresentation.number(high))%"
            let unknown = bars.filter { $0.value == nil }.map(\.label)
            if !unknown.isEmpty { clouds += ", unknown at " + unknown.joined(separator: ", ") }
            sentences.append(clouds + ".")
        } else {
            sentences.append("Sky cover unknown.")
        }
        let word = night.darkness == "nautical" ? "Nautically dark, moonless and clear" : "Dark, moonless and clear"
        sentences.append(night.windows.isEmpty ? "No \(word.lowercased()) window." : "\(word): " + night.windows.map { range($0.0, $0.1) }.joined(separator: ", ") + ".")
        return sentences.joined(separator: " ")
    }

    private func time(_ value: JSONValue?) -> Date? {
        value?.dateValue
    }

    private func range(_ start: Date, _ end: Date) -> String {
        NightPresentation.range(start, end, context)
    }
}
