import ConditionsJSON
import ConditionsKit
import ConditionsMoon
import Foundation

/// The moon in one `/sunmoon` response element.
///
/// The seed required the phase fields but read a missing moonrise as `0`, reporting a moon
/// rising on 1970-01-01; here a missing or `null` rise or set stays nil (the moon does not
/// rise or set every calendar day), and a value of the wrong type is an error.
struct AerisMoon: Equatable {
    /// Lower-case phase name: `waning crescent`.
    var phase: String
    /// Percent of the disc lit, 0…100.
    var illumination: Double
    /// Days since the last new moon.
    var age: Double
    /// Fraction of the synodic month, 0 (new) … 0.5 (full) … 1.
    var cycle: Double
    var rise: Date?
    var set: Date?

    init(element: AerisField) throws(ConditionsError) {
        let moon = try element.member("moon")
        let phase = try moon.member("phase")
        self.phase = try phase.member("name").string().lowercased()
        illumination = try phase.member("illum").number(in: 0...100)
        // A synodic month is 29.53 days; a little headroom for Aeris' own rounding.
        age = try phase.member("age").number(in: 0...30)
        cycle = try phase.member("phase").number(in: 0...1)
        rise = try moon.member("rise").optionalNumber().map(Date.init(timeIntervalSince1970:))
        set = try moon.member("set").optionalNumber().map(Date.init(timeIntervalSince1970:))
    }

    /// The result data; the keys and their order are the contract shared with the local
    /// Astronomy module.
    func json(place: Place) -> JSONValue {
        MoonData.observation(phase: phase, illumination: illumination, age: age, cycle: cycle, rise: rise, set: set, place: place)
    }
}
