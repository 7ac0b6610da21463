import ConditionsJSON
import ConditionsKit
import Foundation

/// One principal phase in a `/sunmoon/moonphases` response element.
///
/// The seed dropped elements it could not read and returned whatever was left; here one bad
/// element fails the request, naming it, so a short list is never mistaken for the real one.
struct AerisPhase: Equatable {
    /// `new moon`, `first quarter`, `full moon` or `last quarter`.
    var name: String
    var date: Date

    init(element: AerisField) throws(ConditionsError) {
        name = try element.member("name").string().lowercased()
        date = Date(timeIntervalSince1970: try element.member("timestamp").number())
    }

    /// Exactly `count` phases in time order; fewer is an error, extra ones are dropped.
    static func decodeNext(_ count: Int, from elements: [AerisField]) throws(ConditionsError) -> [AerisPhase] {
        var phases: [AerisPhase] = []
        for element in elements { phases.append(try AerisPhase(element: element)) }
        guard phases.count >= count else {
            throw ConditionsError.badResponse("Aeris response: asked for \(count) phases, received \(phases.count)")
        }
        return Array(phases.sorted { $0.date < $1.date }.prefix(count))
    }
}
