import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// A zone's current product, `GET /v2/public/product?type=forecast&center_id=…&zone_id=…`:
/// nothing (avalanche.org's "not found" is HTTP 200 with `null` or an object of nulls), an
/// off-season summary, or a forecast.
enum ZoneProduct: Sendable {
    case none
    /// `product_type` "summary": the center's words for the off-season, as plain text.
    case summary(text: String?, published: Date?, author: String?, url: String?)
    case forecast(ZoneForecast)

    /// Reads a product document; `source` names it in errors.
    init(document: JSONValue, source: String) throws(ConditionsError) {
        guard case .object = document else {
            guard document.isNull else { throw ConditionsError.badResponse("\(source): expected a product object, found \(document.typeName)") }
            self = .none
            return
        }
        if !Self.isProduct(document) {
            self = .none
            return
        }
        let url = document["forecast_zone"]?.arrayValue?.first?["url"]?.stringValue
        if document["product_type"]?.stringValue == "summary" {
            let text = PlainText.from(html: document["bottom_line"]?.stringValue) ?? PlainText.from(html: document["hazard_discussion"]?.stringValue)
            self = .summary(text: text, published: Self.date(document["published_time"]), author: Self.text(document["author"]), url: url)
            return
        }
        self = .forecast(try ZoneForecast(document: document, url: url, source: source))
    }

    /// Whether `document` is a product: the "not found" object has every field null (or
    /// empty) and no id, type or publication time.
    static func isProduct(_ document: JSONValue) -> Bool {
        document["product_type"]?.stringValue != nil || document["published_time"]?.stringValue != nil || document["id"]?.intValue != nil
    }

    /// When the forecast expires; nil for a summary or nothing.
    var expires: Date? {
        if case .forecast(let forecast) = self { return forecast.expires }
        return nil
    }

    static func date(_ value: JSONValue?) -> Date? {
        value?.dateValue
    }

    static func text(_ value: JSONValue?) -> String? {
        value?.stringValue.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// The danger in one day's three elevation bands (avalanche.org's `upper`, `middle`, `lower`):
/// -1 to 5, nil when not given.
struct DayDanger: Sendable, Equatable {
    let above: Int?
    let near: Int?
    let below: Int?

    /// The bands, highest first, with their names.
    var bands: [(name: String, level: Int?)] { [("above", above), ("near", near), ("below", below)] }

    /// The highest rated level of the day, nil when no band is rated.
    var highest: Int? { bands.compactMap { $0.level }.filter { DangerScale.isRated($0) }.max() }

    /// `{"above": {level, name, advice}, "near": …, "below": …}`.
    var json: JSONValue {
        .object(JSONObject(bands.map { ($0.name, DangerScale.json($0.level)) }))
    }
}

/// An avalanche problem: `forecast_avalanche_problems[]`.
struct AvalancheProblem: Sendable {
    let rank: Int?
    let name: String
    let likelihood: String?
    /// Aspects in compass order (`north` … `northwest`), from `location`'s "north upper" pairs.
    let aspects: [String]
    /// Elevation bands, highest first (`above treeline`, `near treeline`, `below treeline`).
    let elevations: [String]
    /// The destructive-size range (D-scale), from `size` (strings such as "1.5" in every capture).
    let size: (min: Double, max: Double)?

    static let compass = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
    static let bands = [("upper", "above treeline"), ("middle", "near treeline"), ("lower", "below treeline")]

    init(_ problem: JSONValue, index: Int) {
        rank = problem["rank"]?.intValue
        name = ZoneProduct.text(problem["name"]) ?? "Problem \(index + 1)"
        likelihood = ZoneProduct.text(problem["likelihood"])
        let locations = (problem["location"]?.arrayValue ?? []).compactMap { $0.stringValue?.lowercased().split(separator: " ").map(String.init) }
        aspects = Self.compass.filter { aspect in locations.contains { $0.first == aspect } }
        elevations = Self.bands.filter { band in locations.contains { $0.last == band.0 } }.map { $0.1 }
        let sizes = (problem["size"]?.arrayValue ?? []).compactMap { $0.doubleValue ?? $0.stringValue.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
            .filter(\.isFinite)
        if let low = sizes.min(), let high = sizes.max() { size = (low, high) } else { size = nil }
    }

    var json: JSONValue {
        ["rank": JSONValue(rank), "name": .string(name), "likelihood": JSONValue(likelihood),
         "aspects": .array(aspects.map(JSONValue.string)), "elevations": .array(elevations.map(JSONValue.string)),
         "size": size.map { ["min": .double($0.min), "max": .double($0.max)] } ?? .null]
    }
}

/// A zone's forecast: the danger by band today and tomorrow, the problems, the bottom line.
struct ZoneForecast: Sendable {
    let today: DayDanger?
    let tomorrow: DayDanger?
    let problems: [AvalancheProblem]
    let bottomLine: String?
    let published: Date?
    let expires: Date?
    let author: String?
    let url: String?

    init(document: JSONValue, url: String?, source: String) throws(ConditionsError) {
        guard let danger = document["danger"].flatMap({ $0.isNull ? [] : $0.arrayValue }) else {
            throw ConditionsError.badResponse("\(source): the forecast's \"danger\" is not an array")
        }
        func day(_ name: String) -> DayDanger? {
            danger.first { $0["valid_day"]?.stringValue == name }.map { entry in
                DayDanger(above: Self.level(entry["upper"]), near: Self.level(entry["middle"]), below: Self.level(entry["lower"]))
            }
        }
        today = day("current")
        tomorrow = day("tomorrow")
        let problems = document["forecast_avalanche_problems"]?.arrayValue ?? []
        self.problems = problems.enumerated().map { AvalancheProblem($0.element, index: $0.offset) }
            .sorted { ($0.rank ?? .max) < ($1.rank ?? .max) }
        bottomLine = PlainText.from(html: document["bottom_line"]?.stringValue)
        published = ZoneProduct.date(document["published_time"])
        expires = ZoneProduct.date(document["expires_time"])
        author = ZoneProduct.text(document["author"])
        self.url = url
    }

    /// A band's level: an integer (a string of one is read too), nil for null or anything else.
    private static func level(_ value: JSONValue?) -> Int? {
        value?.intValue ?? value?.stringValue.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}
