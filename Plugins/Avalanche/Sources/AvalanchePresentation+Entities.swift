import ConditionsEntities
import ConditionsJSON
import ConditionsKit

/// Avalanche danger as Home Assistant entities: a sensor per elevation band (the level 1–5,
/// unknown when the band is not rated), the day's highest with the bottom line, and a binary
/// sensor for considerable (3) or higher. The day is the data's `day`: today for
/// `avalanche:{place}`, tomorrow for `avalanche:{place}:tomorrow` (the ratings its text shows).
///
/// `avalanche:all` is one device: each band is the highest of that band over the zones, its
/// `zone` attribute naming the zone (the first of equals), so an automation on "considerable or
/// higher" fires when any zone of the center is. Odd data (a member missing or of another type)
/// leaves the entity unknown, never traps; the keys are always the same five.
extension AvalanchePresentation {
    /// The data's bands (`danger.today.above`, …), highest first, with HA's names for them.
    static let entityBands = [("above", "Danger above treeline"), ("near", "Danger near treeline"), ("below", "Danger below treeline")]
    /// HA's recorder drops a state whose attributes pass 16 KiB; a bottom line is a paragraph.
    static let maxBottomLine = 4_096

    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let list = data["zones"]?.arrayValue
        let zones = list ?? [data]
        let days = zones.map { Self.danger(of: $0, in: data) }
        // The zone a level is from, for `avalanche:all` only (a single zone's device is the zone).
        func zone(_ rated: Rated?) -> JSONValue? {
            guard list != nil else { return nil }
            return JSONValue(rated.flatMap { zones[$0.zone]["zone"]?["name"]?.stringValue })
        }
        var entities: [Entity] = []
        var highest: Rated?
        for (band, name) in Self.entityBands {
            let rated = Self.highest(days.map { Self.rated($0?[band]) })
            if let rated, rated.level > highest?.level ?? 0 { highest = rated }
            entities.append(Self.level("danger_\(band)", name: name, rated, given: days.contains { $0?[band] != nil }, zone: zone(rated)))
        }
        var top = Self.level("danger_highest", name: "Highest danger", highest, given: days.contains { $0 != nil }, zone: zone(highest))
        let bottomLine = (list == nil ? data : highest.map { zones[$0.zone] })?["bottomLine"]?.stringValue
        top.attributes["bottomLine"] = JSONValue(bottomLine.map { String($0.prefix(Self.maxBottomLine)) })
        entities.append(top)
        entities.append(.binary("considerable_or_higher", name: "Considerable danger or higher", on: highest.map { $0.level >= 3 },
                                deviceClass: "safety", icon: "mdi:alert"))
        return entities
    }

    /// A rated level (1–5) and the index of the zone that has it.
    struct Rated {
        let level: Int
        let zone: Int
    }

    /// The zone's bands on its day (its own `day`, else the data's, else today); nil when the
    /// data has none (off-season, no forecast) or they are not an object.
    static func danger(of zone: JSONValue, in data: JSONValue) -> JSONValue? {
        let day = zone["day"]?.stringValue ?? data["day"]?.stringValue ?? ForecastDay.today.rawValue
        guard let bands = zone["danger"]?[day], bands.objectValue != nil else { return nil }
        return bands
    }

    /// A band's level when it is on the scale (avalanche.org's 0, -1 and null are not).
    static func rated(_ band: JSONValue?) -> Int? {
        band?["level"]?.intValue.flatMap { DangerScale.isRated($0) ? $0 : nil }
    }

    /// The highest of `levels` (one per zone), the first zone of equals.
    static func highest(_ levels: [Int?]) -> Rated? {
        var best: Rated?
        for (zone, level) in levels.enumerated() {
            if let level, level > best?.level ?? 0 { best = Rated(level: level, zone: zone) }
        }
        return best
    }

    /// A level's sensor: the number, its name on the scale as `level` ("No rating" for a band
    /// given but not rated, unknown for one not given), and `zone` when given one.
    static func level(_ key: String, name: String, _ rated: Rated?, given: Bool, zone: JSONValue?) -> Entity {
        var attributes: [String: JSONValue] = [
            "level": rated.map { .string(DangerScale.levels[$0.level - 1].name) } ?? (given ? .string(DangerScale.noRating) : .null),
        ]
        if let zone { attributes["zone"] = zone }
        return .sensor(key, name: name, state: rated.map { .int($0.level) } ?? .null, icon: "mdi:alert", attributes: attributes)
    }
}
