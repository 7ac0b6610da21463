import ConditionsJSON

/// The North American Public Avalanche Danger Scale: a level's name and its travel advice.
enum DangerScale {
    /// The scale's five levels, 1 to 5, with the travel advice the scale gives each.
    static let levels: [(name: String, advice: String)] = [
        ("Low", "Generally safe avalanche conditions. Watch for unstable snow on isolated terrain features."),
        ("Moderate", "Heightened avalanche conditions on specific terrain features. Evaluate snow and terrain carefully; identify features of concern."),
        ("Considerable", "Dangerous avalanche conditions. Careful snowpack evaluation, cautious route-finding and conservative decision-making essential."),
        ("High", "Very dangerous avalanche conditions. Travel in avalanche terrain not recommended."),
        ("Extreme", "Avoid all avalanche terrain."),
    ]

    /// Each level's colour on the scale, 1 to 5, as `#RRGGBB`: green, yellow, orange, red, black
    /// (the scale's published RGB values: 80,184,72; 255,242,0; 247,148,30; 237,28,36; 35,31,32).
    static let fills = ["#50B848", "#FFF200", "#F7941E", "#ED1C24", "#231F20"]
    /// The colour of a band not rated: avalanche.org's map layer's grey for "no rating".
    static let noRatingFill = "#888888"

    /// The name for a band the forecaster did not rate (avalanche.org's -1, 0 or null).
    static let noRating = "No rating"
    /// avalanche.org's travel advice for an unrated zone, as its map layer words it.
    static let noRatingAdvice = "Watch for signs of unstable snow such as recent avalanches, cracking in the snow, and audible collapsing. Avoid traveling on or under similar slopes."

    /// Whether `level` is on the scale (1 to 5).
    static func isRated(_ level: Int?) -> Bool {
        level.map { (1...5).contains($0) } ?? false
    }

    /// `{"level", "name", "advice"}`: the level as avalanche.org gave it (null when it gave none),
    /// its name on the scale and the scale's travel advice.
    static func json(_ level: Int?) -> JSONValue {
        guard let level, isRated(level) else {
            return ["level": JSONValue(level), "name": .string(noRating), "advice": .string(noRatingAdvice)]
        }
        let (name, advice) = levels[level - 1]
        return ["level": .int(level), "name": .string(name), "advice": .string(advice)]
    }
}
