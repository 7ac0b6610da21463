import ConditionsFigures
import ConditionsGeo
import ConditionsCore
import ConditionsText
import ConditionsKit
import Foundation

/// One card as the templates see it: a result's `ResultCard` (from its kind's presentation),
/// or a failed URN's error, turned into the dictionaries Mustache walks. Every string stays
/// raw here; the templates escape it (`{{ }}`), so escaping happens in one place.
struct CardView {
    /// A result's card as its presentation made it, with what the page adds.
    struct Built: Sendable {
        let record: ResultRecord
        /// The presentation's card; nil for a failure.
        let card: ResultCard?
        /// `updated` in the location's zone (for the tooltip), per card and part.
        let updatedLocal: [String: String]
        /// The record's state as `/v1/events` reports it (`after`).
        let state: String
        /// The maps the kind's modules place its cards on; a card goes on the first whose frame holds it.
        var maps: [MapLayer] = []
    }

    /// Builds the card of `record` through its kind's presentation, with local times from
    /// `renderer`. Call with `renderer` held exclusively (its formatters are not shared).
    static func build(_ record: ResultRecord, renderer: TextRenderer, place: Place) -> Built {
        let state = ResultState(record, catalog: renderer.catalog).status
        guard case .success(_, _, _, let data, _) = record.outcome else {
            return Built(record: record, card: nil, updatedLocal: [:], state: state)
        }
        let context = renderer.context(urn: record.urn, place: place)
        let presentation = renderer.catalog.presentation(for: record.kind)
        let card = presentation.card(data, context: context)
        var local: [String: String] = [:]
        func collect(_ card: ResultCard, path: String) {
            if let updated = card.updated { local[path] = renderer.localTime(updated, withDate: true) }
            for (index, part) in card.parts.enumerated() { collect(part, path: "\(path)/\(index)") }
        }
        collect(card, path: "")
        return Built(record: record, card: card, updatedLocal: local, state: state, maps: renderer.catalog.maps(for: record.kind))
    }

    /// A marker on a map: a card with a position inside the frame of its presentation's map.
    struct Marker {
        let map: MapLayer
        let cardID: String
        let title: String
        /// The label beside the marker (`ResultCard.mapLabel`, else the title).
        let label: String
        let status: ResultCard.Status?
        let coordinate: GeoPoint
    }

    /// The template context of `built` as card `id`, "ago" texts counted from `now`; markers
    /// for the map are appended to `markers`.
    static func context(_ built: Built, id: String, now: Date, markers: inout [Marker]) -> [String: Any] {
        let record = built.record
        // The history strip, when any, is the page's to add (`Dashboard.historyStrips`).
        var view: [String: Any] = ["id": id, "urn": record.urn, "state": built.state, "history": false]
        switch record.outcome {
        case .failure(let kind, let message, let suggestions):
            view["kind"] = "failed"
            view["title"] = record.urn
            view["status"] = status(.init("failed", tone: .bad))
            let links = suggestions.map { urn -> [String: Any] in
                ["urn": urn, "href": "/?urn=" + (urn.addingPercentEncoding(withAllowedCharacters: Self.queryValue) ?? "")]
            }
            view["failure"] = ["kind": kind.rawValue, "message": message, "suggestions": links, "hasSuggestions": !links.isEmpty] as [String: Any]
            for key in ["subtitle", "image", "drawing", "lines", "updated", "staleNote", "resultStale", "link", "hasRows", "hasParts"] { view[key] = false }
            return view
        case .success(_, _, let fetchedAt, _, let staleAge):
            guard let card = built.card else { return view }
            // A CSS class: a kind an Exec program made up must not add classes of its own.
            let kind = record.kind?.rawValue ?? "generic"
            view["kind"] = kind.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "-") }) && !kind.isEmpty ? kind : "other"
            fill(&view, card: card, id: id, path: "", built: built, now: now, markers: &markers)
            view["failure"] = false
            view["resultStale"] = staleAge.map { "The upstream failed; this is the result fetched \(TextRenderer.age($0)) ago (\(Timestamp.string(from: fetchedAt)))." } ?? false
            return view
        }
    }

    /// Every key a template reads is set, `false` when absent: Mustache looks a missing key up
    /// in the enclosing context, so a part without a subtitle would show its card's.
    private static func fill(_ view: inout [String: Any], card: ResultCard, id: String, path: String, built: Built, now: Date, markers: inout [Marker]) {
        view["title"] = card.title
        view["subtitle"] = card.subtitle ?? false
        view["status"] = card.status.map(Self.status) ?? false
        // Only https: the page's policy loads no other images, and a fixture must not put a
        // `javascript:` or plain-http URL on it.
        if let image = card.image, image.url.scheme?.lowercased() == "https", image.url.host?.isEmpty == false {
            view["image"] = ["url": image.url.absoluteString, "alt": image.alt]
        } else {
            view["image"] = false
        }
        if let drawing = card.figure { view["drawing"] = DrawingShape.view(drawing, id: id) } else { view["drawing"] = false }
        let rows = card.rows.enumerated().map { index, row -> [String: Any] in
            var item: [String: Any] = ["label": row.label, "value": row.value, "rowTone": row.tone?.rawValue ?? false]
            if let drawing = row.figure { item["rowDrawing"] = DrawingShape.view(drawing, id: "\(id)-row\(index + 1)") } else { item["rowDrawing"] = false }
            return item
        }
        view["rows"] = rows
        view["hasRows"] = !rows.isEmpty
        view["lines"] = card.lines.isEmpty ? false : card.lines.joined(separator: "\n")
        if let updated = card.updated {
            let age = now.timeIntervalSince(updated)
            var item: [String: Any] = ["iso": Timestamp.string(from: updated), "local": built.updatedLocal[path] ?? Timestamp.string(from: updated),
                                       "ago": false, "old": false]
            if age >= -60 {
                item["ago"] = TextRenderer.age(max(0, age))
                // An off-season pass keeps a months-old report; say so even where the
                // presentation had no age to go by (a replayed fixture, say).
                if age > 86_400, card.staleNote == nil { item["old"] = true }
            }
            view["updated"] = item
        } else {
            view["updated"] = false
        }
        view["staleNote"] = card.staleNote ?? false
        view["resultStale"] = false
        // Only web links: a hand-edited fixture must not put a `javascript:` URL on the page.
        if let link = card.link, let scheme = link.url.scheme?.lowercased(), scheme == "https" || scheme == "http" {
            view["link"] = ["url": link.url.absoluteString, "label": link.label]
        } else {
            view["link"] = false
        }
        if let coordinate = card.coordinate, let map = built.maps.first(where: { $0.contains(coordinate) }) {
            markers.append(Marker(map: map, cardID: id, title: card.title, label: card.mapLabel ?? card.title, status: card.status, coordinate: coordinate))
        }
        let parts = card.parts.enumerated().map { index, part -> [String: Any] in
            var partView: [String: Any] = ["id": "\(id)-\(index + 1)", "urn": built.record.urn]
            fill(&partView, card: part, id: "\(id)-\(index + 1)", path: "\(path)/\(index)", built: built, now: now, markers: &markers)
            return partView
        }
        view["parts"] = parts
        view["hasParts"] = !parts.isEmpty
    }

    /// What may stay unescaped in a query value: URN characters but `&`, `=`, `+` and `#`.
    static let queryValue: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.remove(charactersIn: "&=+#")
        return set
    }()

    static func status(_ status: ResultCard.Status) -> [String: Any] {
        ["word": status.word, "tone": status.tone.rawValue]
    }
}
