import ConditionsJSON
import ConditionsKit
import Foundation

/// A snow season as WSDOT's SnowFallData service names it: by the calendar year it starts in
/// (its `Year` parameter; the 2025–26 season is 2025).
struct SnowfallSeason: Sendable, Hashable, Comparable {
    let startYear: Int

    /// The first season WSDOT has records for (Snoqualmie's 1999–2000; the others start in 2004–05).
    static let firstOnRecord = 1999
    /// The month a season starts: before August the season under way began last year.
    static let startMonth = 8
    /// The zone the season boundary is in, whatever zone a config's pages use.
    static let pacific = TimeZone(identifier: "America/Los_Angeles") ?? .gmt

    /// The season under way at `now`, on the Pacific calendar: from August 1 on, the one that
    /// starts this year; before it, last year's.
    static func current(at now: Date) -> SnowfallSeason {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = pacific
        let parts = calendar.dateComponents([.year, .month], from: now)
        let year = parts.year ?? 1970
        return SnowfallSeason(startYear: (parts.month ?? 1) >= startMonth ? year : year - 1)
    }

    /// The season a URN's `{season}` names: four ASCII digits, from `firstOnRecord` to the
    /// season under way at `now`; anything else is `invalidArguments` saying what is accepted.
    static func named(_ text: String, now: Date) throws(ConditionsError) -> SnowfallSeason {
        let current = current(at: now)
        let range = "\(firstOnRecord) (WSDOT's first season on record) to \(current.startYear) (the season under way, \(current.name))"
        guard text.utf8.count == 4, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let year = Int(text) else {
            throw ConditionsError.invalidArguments(argument: "season", value: text,
                                                   allowed: "the 4-digit year the season starts in (2024 for 2024–25), from \(range)")
        }
        let season = SnowfallSeason(startYear: year)
        if season > current {
            throw ConditionsError(.invalidArguments, "invalid season \"\(text)\": the \(season.name) season has not started yet; expected \(range)")
        }
        guard year >= firstOnRecord else {
            throw ConditionsError.invalidArguments(argument: "season", value: text, allowed: range)
        }
        return season
    }

    /// `2023–24` (an en dash); `1999–00` across a century.
    var name: String {
        let next = (startYear + 1) % 100
        return "\(startYear)–\(next < 10 ? "0" : "")\(next)"
    }

    /// The calendar year a month of this season falls in: August to December in the start
    /// year, January to July in the next.
    func year(ofMonth month: Int) -> Int { month >= Self.startMonth ? startYear : startYear + 1 }

    static func < (lhs: SnowfallSeason, rhs: SnowfallSeason) -> Bool { lhs.startYear < rhs.startYear }
}
