/// A text's word that the road itself is shut, and in which directions: read from WSDOT's
/// restriction texts, its road condition and a page's rows alike.
///
/// Safety first: a traveller can act on "closed" safely, so any sentence saying the pass, road
/// or highway is closed counts ("is closed", "temporarily closed between milepost 134 and
/// 171", "closed at the summit", "Pass Closed"), whatever else the report says. What does not
/// count: closed to a class of vehicle only ("closed to trucks"), a lane, ramp, rest area or
/// sno-park closed, a section of the road beyond the pass ("the final 2.7-mile section of Mt.
/// Baker Highway, … the road to Artist Point … is closed for the season", WSDOT's words of
/// 2025-11-03, while the pass itself was open), "not closed", and a sentence saying the road
/// reopened. A section closed at the pass comes with a restriction saying so.
struct RoadClosure: Equatable {
    /// The directions named ("eastbound"), lowercased; empty: the whole road.
    let directions: Set<String>

    /// The closure `text` tells of; nil when it tells of none. A restriction text is about the
    /// road by its nature; a road condition must name the road (pass, road, highway, summit,
    /// a route number) in the sentence that says closed.
    init?(in text: String, isRestriction: Bool) {
        var named: Set<String> = []
        var wholeRoad = false
        for sentence in Self.sentences(of: text) {
            guard let closed = Self.closure(in: sentence, isRestriction: isRestriction) else { continue }
            if closed.isEmpty { wholeRoad = true } else { named.formUnion(closed) }
        }
        guard wholeRoad || !named.isEmpty else { return nil }
        directions = wholeRoad ? [] : named
    }

    /// Whether the closure covers the direction called `direction` (as the report names it).
    /// A direction the closure names that the pass does not have closes every direction: better
    /// a traveller checks than drives into a closure we misread.
    func covers(_ direction: String, of all: [String]) -> Bool {
        let known = Set(all.map { $0.lowercased() })
        return directions.isEmpty || directions.isDisjoint(with: known) || directions.contains(direction.lowercased())
    }

    private static let compass: Set<String> = ["eastbound", "westbound", "northbound", "southbound"]
    /// Subjects of "closed" that are something beside the road.
    private static let besideTheRoad: Set<String> = ["lane", "lanes", "shoulder", "shoulders", "ramp", "ramps", "exit", "area", "areas",
                                                     "sno-park", "snopark", "parking", "lot", "trail", "trailhead", "campground",
                                                     "sidewalk", "chain-up", "turnout", "facility", "facilities", "restroom", "restrooms"]
    /// Words that make "closed" about part of the road, not the road.
    private static let part: Set<String> = ["section", "portion", "segment", "stretch"]
    /// Words that name the road itself in a road condition.
    private static let road: Set<String> = ["pass", "road", "roads", "highway", "hwy", "summit", "route", "interstate", "sr", "us", "roadway"]
    /// Words between a subject and "closed" ("the right lane is temporarily closed").
    private static let filler: Set<String> = ["is", "are", "was", "be", "been", "has", "have", "will", "remain", "remains", "temporarily",
                                              "currently", "now", "still", "fully", "completely"]
    private static let negations: Set<String> = ["not", "never", "longer", "isn", "aren", "t"]
    /// What may follow "closed to" and still mean everyone.
    private static let everyone: Set<String> = ["all", "traffic", "through", "the", "public", "everyone"]

    /// Abbreviations WSDOT writes before a period that ends no sentence ("Mt. Baker", "Nov. 13").
    private static let abbreviations: Set<String> = ["mt", "st", "rd", "blvd", "ave", "hwy", "no", "approx", "jan", "feb", "mar", "apr",
                                                     "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu",
                                                     "fri", "sat", "sun", "vs", "etc"]

    /// A text's sentences as lowercased words. A sentence ends at a semicolon, a line break, or
    /// a period, exclamation or question mark before a space, except after an abbreviation or
    /// a single letter ("p.m."): "2.7-mile section of Mt. Baker Highway … is closed" is one
    /// sentence. Words are runs of letters, digits and hyphens.
    private static func sentences(of text: String) -> [[String]] {
        let characters = Array(text.lowercased())
        var sentences: [[String]] = []
        var start = 0
        func words(_ range: Range<Int>) -> [String] {
            String(characters[range]).split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).map(String.init)
        }
        for index in characters.indices {
            let character = characters[index]
            var ends = character == ";" || character == "\n"
            if ".!?".contains(character), index + 1 == characters.count || characters[index + 1].isWhitespace {
                // The letters just before the mark: scanned back, so a long text stays linear.
                var wordStart = index
                while wordStart > start, characters[wordStart - 1].isLetter { wordStart -= 1 }
                let before = String(characters[wordStart..<index])
                ends = character != "." || !(before.count == 1 || abbreviations.contains(before))
            }
            if ends {
                sentences.append(words(start..<index))
                start = index + 1
            }
        }
        sentences.append(words(start..<characters.count))
        return sentences.filter { !$0.isEmpty }
    }

    /// For one sentence: nil when it says nothing is closed; else the directions it names
    /// (empty: all).
    private static func closure(in words: [String], isRestriction: Bool) -> Set<String>? {
        if words.contains(where: { $0.hasPrefix("reopen") || $0.hasPrefix("re-open") }) { return nil }
        var says = false
        for (index, word) in words.enumerated() where word == "closed" {
            // Back over "is", "temporarily" and the like to the subject: "the right lane is
            // closed" closes a lane; "is not closed" and "no longer closed" close nothing.
            var subject = index - 1
            var negated = false
            while subject >= 0, filler.contains(words[subject]) || negations.contains(words[subject]) {
                negated = negated || negations.contains(words[subject])
                subject -= 1
            }
            if negated || (subject >= 0 && besideTheRoad.contains(words[subject])) { continue }
            if !words[..<index].allSatisfy({ !part.contains($0) }) { continue }
            if index + 1 < words.count, words[index + 1] == "to" {
                // "Closed to trucks" restricts a class of vehicle; "closed to all traffic" shuts the road.
                guard index + 2 < words.count, everyone.contains(words[index + 2]) else { continue }
            }
            says = true
        }
        guard says else { return nil }
        if !isRestriction, words.first != "closed", !words.contains(where: { road.contains($0) || $0.hasPrefix("i-") }) { return nil }
        if words.contains("both"), words.contains("directions") { return [] }
        return Set(words.filter(compass.contains))
    }
}
