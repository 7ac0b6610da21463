import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// Space weather in Home Assistant: Kp now, the G-level the card shows, and at a place whether
/// an aurora may be seen there.
extension AuroraPresentation {
    /// The G-levels, `G0` … `G5`.
    static let levels = (0...5).map(KpScale.word)
    /// The OVATION probability (%) at the place's cell from which an aurora counts as possible
    /// there: one chance in ten. The module reads visibility at a place from this probability
    /// alone (the Kp and G-levels are the planet's, not the place's); a few percent at the
    /// oval's fringe is too faint a hope for a switch to turn on.
    static let possibleProbability = 10

    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let aurora = Self.isAurora(data)
        let observed = aurora ? Self.period(data["observed"]) : nil
        // As the card's status and `watch` read it: the next 24 hours, else the observed level.
        let ahead = aurora ? Self.period(data["next24h"]) ?? observed : nil
        let probability = aurora && Self.placeName(data) != nil ? data["ovation"]?["probability"]?.intValue : nil
        return [
            .measurement("kp", name: "Kp index", observed?.kp, unit: nil, icon: "mdi:earth",
                         attributes: ["kp_text": observed.map { .string($0.text) } ?? .null, "since": Self.timeValue(observed?.time)]),
            .choice("g_level", name: "Geomagnetic storm level", ahead?.gScale, options: Self.levels, icon: "mdi:sun-wireless",
                    attributes: ["peak_kp": ahead.map { .double($0.kp) } ?? .null, "peak_time": Self.timeValue(ahead?.time),
                                 "observed": observed.map { .string($0.gScale) } ?? .null]),
            .binary("aurora_possible", name: "Aurora possible tonight here", on: probability.map { $0 >= Self.possibleProbability },
                    icon: "mdi:creation", attributes: ["probability": probability.map(JSONValue.int) ?? .null]),
        ]
    }

    private static func timeValue(_ date: Date?) -> JSONValue {
        date.map { .string(Timestamp.string(from: $0)) } ?? .null
    }
}
