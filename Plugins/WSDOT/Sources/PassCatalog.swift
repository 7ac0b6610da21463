import ConditionsGeo
/// One mountain pass WSDOT reports on: the built-in facts that never come from a page.
struct MountainPass: Sendable, Hashable {
    /// The stable name used in URNs (`pass:snoqualmie`) and options.
    let slug: String
    /// WSDOT's `MountainPassId`, which is how feed entries are matched (their names vary).
    let id: Int
    /// The name as WSDOT writes it, spacing normalized.
    let name: String
    /// Summit elevation, used when a page gives none.
    let elevationFt: Int
    /// The two directions in WSDOT's order: the first is what pages call restriction one.
    let directions: (first: String, second: String)
    /// The last path segment of the pass's page on wsdot.com, where it differs from `slug`.
    var siteSlug: String?
    /// False for a pass known only from the feed (a new id), named by a slug made from its name.
    var isCatalogued = true
    /// Where the pass is (WSDOT's feed `Latitude`/`Longitude`), for maps; nil for a pass known only from the feed.
    var coordinate: (latitude: Double, longitude: Double)?

    /// This pass at `latitude`, `longitude`.
    func at(_ latitude: Double, _ longitude: Double) -> MountainPass {
        var copy = self
        copy.coordinate = (latitude, longitude)
        return copy
    }

    /// The path segment of the pass's page on wsdot.com.
    var pageSlug: String { siteSlug ?? slug }

    static func == (lhs: MountainPass, rhs: MountainPass) -> Bool { lhs.slug == rhs.slug }
    func hash(into hasher: inout Hasher) { hasher.combine(slug) }
}

/// The sixteen passes in WSDOT's feed (ids 1…17; 4 is unused). The feed may add more: API
/// mode serves a pass it does not know under a slug made from the feed's name (`feedPass`).
enum PassCatalog {
    private static let northSouth = (first: "Northbound", second: "Southbound")
    private static let eastWest = (first: "Eastbound", second: "Westbound")

    /// Every pass, in WSDOT id order: the default list and order.
    ///
    /// `siteSlug`: seen on wsdot.com (2024–2025 captures and links): `snoqualmie`, `stevens`,
    /// `white`, `north-cascade-hwy`, `crystal-to-greenwater`, `mt.-baker`. Every other pass's
    /// site slug is assumed to be ours until a page is seen; `pages` overrides either way.
    ///
    /// Coordinates (`at`): the `Latitude`/`Longitude` WSDOT's own feed gives each pass, as in
    /// the 2025-11-03 capture (Tests/Resources/real; RealCaptureTests checks they agree).
    /// Each catalogued pass's summit by id, for the pass kind's map.
    static var places: [String: GeoPoint] {
        Dictionary(all.compactMap { pass in pass.coordinate.map { (pass.slug, GeoPoint(latitude: $0.latitude, longitude: $0.longitude)) } },
                   uniquingKeysWith: { first, _ in first })
    }

    static let all: [MountainPass] = [
        MountainPass(slug: "blewett", id: 1, name: "Blewett Pass US 97", elevationFt: 4102, directions: northSouth).at(47.335298, -120.581068),
        MountainPass(slug: "cayuse", id: 2, name: "Cayuse Pass SR 123", elevationFt: 4675, directions: northSouth).at(46.865575, -121.53611),
        MountainPass(slug: "chinook", id: 3, name: "Chinook Pass SR 410", elevationFt: 5430, directions: eastWest).at(46.8717, -121.515483),
        MountainPass(slug: "crystal-greenwater", id: 5, name: "Crystal to Greenwater SR 410", elevationFt: 2600, directions: eastWest, siteSlug: "crystal-to-greenwater").at(47.073008, -121.577913),
        MountainPass(slug: "mt-baker", id: 6, name: "Mt. Baker Hwy SR 542", elevationFt: 4250, directions: eastWest, siteSlug: "mt.-baker").at(48.86461, -121.668538),
        MountainPass(slug: "north-cascade", id: 7, name: "North Cascade Hwy SR 20", elevationFt: 5477, directions: eastWest, siteSlug: "north-cascade-hwy").at(48.50349, -120.711912),
        MountainPass(slug: "satus", id: 8, name: "Satus Pass US 97", elevationFt: 3107, directions: northSouth).at(45.984722, -120.653611),
        MountainPass(slug: "sherman", id: 9, name: "Sherman Pass SR 20", elevationFt: 5575, directions: eastWest).at(48.606667, -118.48),
        MountainPass(slug: "stevens", id: 10, name: "Stevens Pass US 2", elevationFt: 4061, directions: eastWest).at(47.745, -121.093333),
        MountainPass(slug: "snoqualmie", id: 11, name: "Snoqualmie Pass I-90", elevationFt: 3022, directions: eastWest).at(47.41, -121.405833),
        MountainPass(slug: "white", id: 12, name: "White Pass US 12", elevationFt: 4500, directions: eastWest).at(46.638333, -121.39),
        MountainPass(slug: "manastash", id: 13, name: "Manastash Ridge I-82", elevationFt: 2672, directions: eastWest).at(46.881665, -120.424877),
        MountainPass(slug: "loup-loup", id: 14, name: "Loup Loup Pass SR 20", elevationFt: 4020, directions: eastWest).at(48.387763, -119.889746),
        MountainPass(slug: "disautel", id: 15, name: "Disautel Pass SR 155", elevationFt: 3252, directions: northSouth).at(48.281758, -119.143406),
        MountainPass(slug: "wauconda", id: 16, name: "Wauconda Pass SR 20", elevationFt: 4310, directions: eastWest).at(48.726185, -118.95952),
        // In the feed since 2025 (id 17, "Tiger Mountain SR18"); its site slug is assumed.
        MountainPass(slug: "tiger-mountain", id: 17, name: "Tiger Mountain SR18", elevationFt: 1377, directions: eastWest).at(47.465743, -121.926995),
    ]

    /// The catalog's pass with WSDOT id `id`.
    static func pass(id: Int) -> MountainPass? { all.first { $0.id == id } }

    /// A pass the feed reports under an id the catalog does not know, named by `slug(fromName:)`.
    static func feedPass(id: Int, name: String, elevationFt: Int?, directions: (first: String, second: String)?) -> MountainPass {
        let shownName = name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let slug = slug(fromName: shownName)
        return MountainPass(
            slug: slug.isEmpty ? "pass-\(id)" : slug, id: id, name: shownName.isEmpty ? "Pass \(id)" : shownName,
            elevationFt: elevationFt ?? 0, directions: directions ?? eastWest, isCatalogued: false
        )
    }

    /// Our style of slug for a feed name: the words before the route designation, without a
    /// trailing "Pass", lower-cased and hyphenated (`Tiger Mountain SR18` → `tiger-mountain`,
    /// `Foo Pass US 97` → `foo`). Only letters and digits survive inside words.
    static func slug(fromName name: String) -> String {
        var words: [String] = []
        for word in name.split(whereSeparator: { $0.isWhitespace }) {
            let lower = word.lowercased()
            if isRouteDesignation(lower) { break }
            let kept = String(lower.unicodeScalars.filter { ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) }.map(Character.init))
            if !kept.isEmpty { words.append(kept) }
        }
        if words.count > 1, words.last == "pass" { words.removeLast() }
        return words.joined(separator: "-")
    }

    /// `sr`, `us`, `i`, `hwy`, `sr18`, `i-90`, `us-97`: where a WSDOT name's road part starts.
    private static func isRouteDesignation(_ word: String) -> Bool {
        for prefix in ["sr", "us", "i"] where word.hasPrefix(prefix) {
            let rest = word.dropFirst(prefix.count).drop { $0 == "-" }
            if rest.isEmpty || rest.allSatisfy(\.isNumber) { return true }
        }
        return word == "hwy" || word == "highway"
    }

    /// The slugs, in catalog order.
    static var slugs: [String] { all.map(\.slug) }

    /// The pass a user means by `name`: its slug in any case, with spaces or underscores for
    /// hyphens (`Mt_Baker`, `loup loup`), or its WSDOT id (`11`).
    static func pass(named name: String, among passes: [MountainPass] = all) -> MountainPass? {
        let key = normalizedSlug(name)
        if let id = Int(key) { return passes.first { $0.id == id } }
        return passes.first { $0.slug == key }
    }

    /// `name` lower-cased and trimmed, with runs of spaces, underscores and hyphens as one hyphen.
    static func normalizedSlug(_ name: String) -> String {
        name.lowercased()
            .split(whereSeparator: { $0.isWhitespace || $0 == "_" || $0 == "-" })
            .joined(separator: "-")
    }
}
