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

    static func == (lhs: MountainPass, rhs: MountainPass) -> Bool { lhs.slug == rhs.slug }
    func hash(into hasher: inout Hasher) { hasher.combine(slug) }
}

/// The fifteen passes in WSDOT's feed (ids 1…16; 4 is unused).
enum PassCatalog {
    private static let northSouth = (first: "Northbound", second: "Southbound")
    private static let eastWest = (first: "Eastbound", second: "Westbound")

    /// Every pass, in WSDOT id order: the default list and order.
    static let all: [MountainPass] = [
        MountainPass(slug: "blewett", id: 1, name: "Blewett Pass US 97", elevationFt: 4102, directions: northSouth),
        MountainPass(slug: "cayuse", id: 2, name: "Cayuse Pass SR 123", elevationFt: 4675, directions: northSouth),
        MountainPass(slug: "chinook", id: 3, name: "Chinook Pass SR 410", elevationFt: 5430, directions: eastWest),
        MountainPass(slug: "crystal-greenwater", id: 5, name: "Crystal to Greenwater SR 410", elevationFt: 2600, directions: eastWest),
        MountainPass(slug: "mt-baker", id: 6, name: "Mt. Baker Hwy SR 542", elevationFt: 4250, directions: eastWest),
        MountainPass(slug: "north-cascade", id: 7, name: "North Cascade Hwy SR 20", elevationFt: 5477, directions: eastWest),
        MountainPass(slug: "satus", id: 8, name: "Satus Pass US 97", elevationFt: 3107, directions: northSouth),
        MountainPass(slug: "sherman", id: 9, name: "Sherman Pass SR 20", elevationFt: 5575, directions: eastWest),
        MountainPass(slug: "stevens", id: 10, name: "Stevens Pass US 2", elevationFt: 4061, directions: eastWest),
        MountainPass(slug: "snoqualmie", id: 11, name: "Snoqualmie Pass I-90", elevationFt: 3022, directions: eastWest),
        MountainPass(slug: "white", id: 12, name: "White Pass US 12", elevationFt: 4500, directions: eastWest),
        MountainPass(slug: "manastash", id: 13, name: "Manastash Ridge I-82", elevationFt: 2672, directions: eastWest),
        MountainPass(slug: "loup-loup", id: 14, name: "Loup Loup Pass SR 20", elevationFt: 4020, directions: eastWest),
        MountainPass(slug: "disautel", id: 15, name: "Disautel Pass SR 155", elevationFt: 3252, directions: northSouth),
        MountainPass(slug: "wauconda", id: 16, name: "Wauconda Pass SR 20", elevationFt: 4310, directions: eastWest),
    ]

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
