import ConditionsJSON
import ConditionsKit
import ConditionsMoon
import Foundation

/// The Moon as seen from one place at one instant: what `moon:now` and `moon:{date}` answer.
struct MoonReport: Equatable {
    /// The phase name: a principal phase on the local day it happens, else the stretch between.
    let phase: String
    /// Illuminated percentage of the disk, one decimal.
    let illumination: Double
    /// Days since the last new moon, two decimals.
    let age: Double
    /// Fraction of the current lunation elapsed, four decimals.
    let cycle: Double
    /// The first moonrise on the local calendar day, nil when there is none.
    let rise: Date?
    /// The first moonset on the local calendar day, nil when there is none.
    let set: Date?

    /// Computes everything for `date` as seen from `place`.
    init(at date: Date, place: Place) {
        let local = LocalDay(zone: place.timeZone)
        let (previous, next) = MoonPhases.bracket(date)
        if local.isSameDay(previous.date, date) {
            phase = previous.phase.name
        } else if local.isSameDay(next.date, date) {
            phase = next.phase.name
        } else {
            phase = previous.phase.followingName
        }

        let fraction = MoonIllumination.fraction(julianEphemerisDay: TimeScale.julianEphemerisDay(date))
        illumination = (fraction * 1000).rounded() / 10

        let lunation = MoonPhases.lunation(containing: date)
        let elapsed = date.timeIntervalSince(lunation.start)
        age = (elapsed / 86400 * 100).rounded() / 100
        cycle = (elapsed / lunation.end.timeIntervalSince(lunation.start) * 10000).rounded() / 10000

        let today = local.day(of: date)
        let (start, end) = (local.start(of: today), local.start(of: today.adding(days: 1)))
        (rise, set) = MoonRiseSet.events(from: start, to: end, latitude: place.latitude, longitude: place.longitude)
    }

    /// The result data, keys in contract order.
    func json(place: Place) -> JSONValue {
        MoonData.observation(phase: phase, illumination: illumination, age: age, cycle: cycle, rise: rise, set: set, place: place)
    }

    /// The Gregorian calendar in the place's zone (UTC when it names none), for the reports
    /// that need more of a calendar than `LocalDay` gives.
    static func calendar(for place: Place) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = place.timeZone ?? .gmt
        return calendar
    }
}
