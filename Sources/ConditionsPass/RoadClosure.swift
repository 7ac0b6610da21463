import Foundation

/// A text's word that the road itself is shut, in which directions, and the sentences that say
/// so: read from WSDOT's restriction texts, its road condition and a page's rows alike, and
/// from a Caltrans checkpoint's status description.
///
/// Safety first, by construction: a traveller can act on "closed" safely, and a closed road
/// read as restricted sends someone up a mountain to a gate. So a sentence saying closed (or
/// shut, blocked, impassable) closes the road, in the directions it names, unless it is
/// clearly about something narrower:
/// - a class of vehicle, named: "closed to trucks", "closed to vehicles over 10,000 GVW",
///   "closed to vehicles towing trailers" (but "closed to westbound traffic" and "closed to
///   eastbound vehicles" close);
/// - a lane named in the singular or with a count that is not "all" ("the right lane", "two
///   lanes"; but "westbound lanes", "all lanes", "both lanes" close), a shoulder, ramp, exit,
///   rest area, sno-park, trail or another facility;
/// - a section beyond the pass ("the final 2.7-mile section of Mt. Baker Highway, … the road to
///   Artist Point … is closed for the season", WSDOT's words of 2025-11-03 while the pass itself
///   was open); a section not said to be beyond closes;
/// - a negation ("not closed", "no longer closed") or a reopening in the same clause ("has
///   reopened"; "expected to reopen at noon" and "westbound closed, eastbound reopened" still
///   close).
/// A restriction text is about the road by its nature; a road condition's sentence must name
/// the road: a road word (pass, highway, SR, I-90, milepost, …), a direction ("WB closed"),
/// all its lanes, or open with the closure ("Closed at the summit").
public struct RoadClosure: Equatable, Sendable {
    /// The directions named ("eastbound"), lowercased; empty: the whole road.
    public var directions: Set<String> { namesNoDirection || namesEveryDirection ? [] : named }
    /// The sentences that said closed, as written (trimmed), in text order.
    public let sentences: [String]
    /// The directions the sentences name.
    public let named: Set<String>
    /// Whether a sentence names no direction ("Pass Closed"): the whole road in a road
    /// condition, the row's own direction in a restriction.
    public let namesNoDirection: Bool
    /// Whether a sentence says every direction ("closed in both directions").
    public let namesEveryDirection: Bool

    /// The closure `text` tells of; nil when it tells of none.
    public init?(in text: String, isRestriction: Bool) {
        var named: Set<String> = []
        var said: [String] = []
        for sentence in Sentence.split(text) {
            guard let closed = Self.closure(in: sentence.words, isRestriction: isRestriction) else { continue }
            named.formUnion(closed.isEmpty ? [Self.noDirection] : closed)
            said.append(sentence.text)
        }
        guard !said.isEmpty else { return nil }
        namesNoDirection = named.contains(Self.noDirection)
        namesEveryDirection = named.contains(Self.everyDirection)
        self.named = named.subtracting([Self.noDirection, Self.everyDirection])
        sentences = said
    }

    /// Whether the closure covers the direction called `direction` (as the report names it).
    /// A direction the closure names that the pass does not have closes every direction: better
    /// a traveller checks than drives into a closure we misread.
    public func covers(_ direction: String, of all: [String]) -> Bool {
        let known = Set(all.map { $0.lowercased() })
        return directions.isEmpty || directions.isDisjoint(with: known) || directions.contains(direction.lowercased())
    }

    /// Whether a closure read in the restriction of direction `row` covers `direction`: what
    /// it names, or `row` itself for a sentence naming none ("Pass Closed" in the eastbound
    /// row closes eastbound; "Pass closed to westbound traffic" there closes westbound).
    public func covers(_ direction: String, inRestrictionOf row: String, of all: [String]) -> Bool {
        if namesEveryDirection || (namesNoDirection && row.lowercased() == direction.lowercased()) { return true }
        guard !named.isEmpty else { return false }
        let known = Set(all.map { $0.lowercased() })
        return named.isDisjoint(with: known) || named.contains(direction.lowercased())
    }

    // MARK: Words

    /// Stand for "both directions" and for no direction named among the directions read.
    private static let everyDirection = "*", noDirection = ""

    /// Words that say a road, a lane or a facility is not passable.
    private static let closureWords: Set<String> = ["closed", "shut", "blocked", "impassable"]
    /// Direction words and WSDOT's abbreviations ("EB/WB closed"), as the full word.
    private static let compass: [String: String] = [
        "eastbound": "eastbound", "westbound": "westbound", "northbound": "northbound", "southbound": "southbound",
        "eb": "eastbound", "wb": "westbound", "nb": "northbound", "sb": "southbound",
    ]
    /// Words for lanes: a closed lane is narrower unless all of a direction's lanes are.
    private static let lanes: Set<String> = ["lane", "lanes"]
    /// Facilities beside the road; closed, any number of them, they leave the road open.
    private static let facilities: Set<String> = [
        "shoulder", "shoulders", "ramp", "ramps", "on-ramp", "on-ramps", "off-ramp", "off-ramps", "exit", "exits", "area", "areas",
        "sno-park", "sno-parks", "snopark", "snoparks", "parking", "lot", "lots", "trail", "trails", "trailhead", "trailheads",
        "campground", "campgrounds", "sidewalk", "sidewalks", "chain-up", "turnout", "turnouts", "facility", "facilities",
        "restroom", "restrooms", "lodge", "store", "office", "center", "centre", "building", "station", "viewpoint", "overlook",
        "path", "walkway", "crosswalk", "access", "resort", "lift", "lifts",
    ]
    /// What makes a lane phrase narrower than the road: a count that is not "all", a side.
    private static let laneNarrowers: Set<String> = [
        "a", "an", "one", "two", "three", "four", "1", "2", "3", "4", "single", "several", "some", "multiple", "partial",
        "right", "left", "center", "centre", "middle", "inside", "outside", "inner", "outer", "hov", "carpool", "express",
        "truck", "climbing", "passing", "turn", "slow", "fast", "shoulder",
    ]
    /// Words that may modify "lanes" besides directions, counts and sides.
    private static let laneModifiers: Set<String> = laneNarrowers.union(["all", "both", "the", "travel", "through", "main", "of", "no", "none"])
    /// Classes of vehicle (and of traveller) a road may be closed to while others pass.
    private static let vehicleClasses: Set<String> = [
        "truck", "trucks", "commercial", "cmv", "cmvs", "oversize", "oversized", "over-size", "over", "overweight", "over-length",
        "over-legal", "wide", "high-profile", "towing", "tow", "trailer", "trailers", "tractor-trailer", "tractor-trailers",
        "rv", "rvs", "motorhome", "motorhomes", "bus", "buses", "semi", "semis", "gvw", "lbs", "pounds", "without",
        "pedestrian", "pedestrians", "bicycle", "bicycles", "bicyclists", "cyclists", "bikes", "hikers", "snowmobiles",
        "motorcycles", "hazardous", "hazmat",
    ]
    /// Words that end the object of "closed to …" ("closed to westbound traffic at milepost 58").
    private static let objectEnds: Set<String> = [
        "at", "between", "from", "near", "due", "because", "until", "for", "in", "on", "beyond", "past", "east", "west", "north",
        "south", "after", "before", "while", "as", "by", "except", "but", "so",
    ]
    /// Words that make "closed" about part of the road ...
    private static let part: Set<String> = ["section", "portion", "segment", "stretch", "spur"]
    /// ... when said to be beyond the pass.
    private static let beyond: Set<String> = ["final", "last", "beyond", "past", "end", "upper", "remaining"]
    /// Words that name the road itself in a road condition.
    private static let road: Set<String> = ["pass", "road", "roads", "highway", "hwy", "summit", "route", "interstate", "sr", "us",
                                            "roadway", "milepost", "mp"]
    /// Words that say a road condition's closure is about the road as well as `road`'s.
    private static let traffic: Set<String> = ["traffic", "lanes", "directions", "vehicles"]
    /// Words between a subject and "closed" ("the right lane is temporarily closed").
    private static let filler: Set<String> = ["is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "will", "remain",
                                              "remains", "temporarily", "currently", "now", "still", "fully", "completely", "totally",
                                              "entirely", "also", "again"]
    /// Words that negate the "closed" they come just before (over filler): "is not closed",
    /// "isn't closed", "no longer closed", "not expected to be closed".
    private static let negations: Set<String> = ["not", "never", "longer", "isn", "aren", "wasn", "weren", "t", "neither", "nor", "none"]
    /// Words that may sit between a negation and "closed" besides filler.
    private static let negationReach: Set<String> = ["expected", "to", "yet", "likely"]
    /// Before a reopening word, words that make it future or conditional, so the sentence may
    /// still say closed: "expected to reopen at noon", "closed until it reopens", "no estimated
    /// time to reopen".
    private static let notYet: Set<String> = ["until", "will", "expected", "estimated", "to", "when", "before", "possible", "no",
                                              "not", "may", "might", "could", "should", "plans", "planned", "scheduled", "once", "if"]

    // MARK: The rule

    /// For one sentence's words: nil when it says the road is not closed; else the directions
    /// it names (empty: none named; `everyDirection`: "both directions").
    private static func closure(in words: [String], isRestriction: Bool) -> Set<String>? {
        var directions: Set<String>?
        for index in words.indices where closureWords.contains(words[index]) {
            guard let found = closure(at: index, in: words, isRestriction: isRestriction) else { continue }
            directions = (directions ?? []).union(found)
        }
        return directions
    }

    /// Whether a clause says the road reopened: a reopening word not put in the future. Only
    /// its own clause: "westbound lanes closed, eastbound reopened" still closes westbound.
    private static func reopens(_ words: ArraySlice<String>) -> Bool {
        for index in words.indices where words[index].hasPrefix("reopen") || words[index].hasPrefix("re-open") {
            let before = words[max(words.startIndex, index - 4)..<index]
            if !before.contains(where: notYet.contains) { return true }
        }
        return false
    }

    /// The closure the closure word at `index` says, or nil when it is about something narrower.
    private static func closure(at index: Int, in words: [String], isRestriction: Bool) -> Set<String>? {
        let clause = clauseBounds(around: index, in: words)
        if reopens(words[clause]) { return nil }
        // Back over "is", "temporarily" and the like to the subject, noting a negation.
        var subject = index - 1
        while subject >= clause.lowerBound, filler.contains(words[subject]) || negations.contains(words[subject])
                || negationReach.contains(words[subject]) {
            if negations.contains(words[subject]) { return nil }
            subject -= 1
        }
        let before = words[..<index]
        if before.contains(where: part.contains), before.contains(where: beyond.contains) { return nil }

        var namesRoad = isRestriction || index == 0
        if subject >= clause.lowerBound {
            switch headNoun(endingAt: subject, from: clause.lowerBound, in: words) {
            case .lanes(let phrase):
                if phrase.contains(where: { $0 == "no" || $0 == "none" }) { return nil }
                if phrase.contains(where: laneNarrowers.contains) { return nil }
                namesRoad = true
            case .singleLane, .facility, .vehicleClass:
                return nil
            case .other:
                break
            }
        }
        // "Closed to …": a class of vehicle is narrower; traffic, vehicles, a direction or
        // anything else closes.
        if index + 2 < clause.upperBound, words[index + 1] == "to" {
            let object = words[(index + 2)..<clause.upperBound].prefix { !objectEnds.contains($0) }
            if object.contains(where: vehicleClasses.contains) { return nil }
            namesRoad = true
        }
        let clauseWords = words[clause]
        let named = directionsNamed(in: clauseWords)
        if !namesRoad {
            namesRoad = !named.isEmpty || words.contains { road.contains($0) || traffic.contains($0) || isRouteNumber($0) }
        }
        guard namesRoad else { return nil }
        if wholeRoad(words) { return [everyDirection] }
        return named
    }

    /// The clause holding `index`: between the separators (commas, colons, brackets) around it.
    private static func clauseBounds(around index: Int, in words: [String]) -> Range<Int> {
        var start = index
        while start > 0, words[start - 1] != Sentence.separator { start -= 1 }
        var end = index
        while end < words.count, words[end] != Sentence.separator { end += 1 }
        return start..<end
    }

    private enum Head {
        /// Lanes, plural, with the words before them ("all westbound lanes").
        case lanes([String])
        case singleLane, facility, vehicleClass, other
    }

    /// What the subject ending at `end` is: the noun there, or the noun of "X of Y" ("two lanes
    /// of westbound I-90", "the right lane on SR 20"), or an "access road".
    private static func headNoun(endingAt end: Int, from start: Int, in words: [String]) -> Head {
        var head = end
        var scan = end
        // Over a road's name back to an "of" or "on" whose noun is what is closed.
        while scan > start, isRoadName(words[scan]) || words[scan] == "the" { scan -= 1 }
        if scan > start, scan < end, ["of", "on", "in"].contains(words[scan]) {
            let noun = words[scan - 1]
            if lanes.contains(noun) || facilities.contains(noun) { head = scan - 1 }
        }
        let noun = words[head]
        if noun == "lane" { return .singleLane }
        if noun == "lanes" {
            // The words just before "lanes" that modify them ("all westbound", "one of two").
            let phrase = words[start..<head].reversed().prefix { laneModifiers.contains($0) || compass[$0] != nil || $0.allSatisfy(\.isNumber) }
            return .lanes(Array(phrase.reversed()))
        }
        if facilities.contains(noun) { return .facility }
        if ["road", "roads"].contains(noun), head > start, facilities.contains(words[head - 1]) { return .facility }
        if vehicleClasses.contains(noun) { return .vehicleClass }
        return .other
    }

    /// A word of a road's name: "SR", "20", "I-90", "westbound", "highway".
    private static func isRoadName(_ word: String) -> Bool {
        road.contains(word) || isRouteNumber(word) || compass[word] != nil || word.allSatisfy(\.isNumber)
    }

    /// "I-90", "US-2", "SR-20", "542": a route's number.
    private static func isRouteNumber(_ word: String) -> Bool {
        word.hasPrefix("i-") || word.hasPrefix("us-") || word.hasPrefix("sr-")
    }

    /// Whether the sentence says every direction: "both directions", "both ways", "all directions".
    private static func wholeRoad(_ words: [String]) -> Bool {
        zip(words, words.dropFirst()).contains { first, second in
            ["both", "all", "either"].contains(first) && ["directions", "direction", "ways"].contains(second)
        }
    }

    /// The directions a clause names as closed, except one that names a facility ("the
    /// eastbound rest area") or is said to be open ("westbound open").
    private static func directionsNamed(in clause: ArraySlice<String>) -> Set<String> {
        var named: Set<String> = []
        for index in clause.indices {
            guard let direction = compass[clause[index]] else { continue }
            let next = clause[(index + 1)..<min(index + 3, clause.endIndex)].filter { !filler.contains($0) && $0 != "the" }
            if let following = next.first, facilities.contains(following) || following == "rest" || following.hasPrefix("open") { continue }
            named.insert(direction)
        }
        return named
    }
}
