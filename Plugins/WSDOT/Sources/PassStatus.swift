/// How passable a direction or a whole pass is: the `status` values of the data contract.
enum PassStatus: String, Sendable, CaseIterable {
    case open, restricted, closed, unknown

    /// The status of one direction from its restriction text. Case and spacing never matter:
    /// "No Restrictions" and "no  restrictions" are both open. Closure wins over everything,
    /// because a text such as "Pass closed, no restrictions west of North Bend" means closed.
    init(restriction text: String) {
        let squeezed = String(text.lowercased().filter { !$0.isWhitespace })
        if Self.closedPhrases.contains(where: squeezed.contains) || squeezed.hasPrefix("closed") {
            self = .closed
        } else if squeezed.contains("norestriction") {
            self = .open
        } else {
            self = .restricted
        }
    }

    /// The whole pass from its directions: closed if any direction is closed, open if all are
    /// open, restricted otherwise, and unknown when there is no restriction data at all.
    init(directions: [PassStatus]) {
        let known = directions.filter { $0 != .unknown }
        if known.isEmpty {
            self = .unknown
        } else if known.contains(.closed) {
            self = .closed
        } else if known.allSatisfy({ $0 == .open }) {
            self = .open
        } else {
            self = .restricted
        }
    }

    /// Whitespace-free phrases that mean the road is shut.
    private static let closedPhrases = ["passclosed", "passisclosed", "roadclosed", "roadisclosed", "highwayclosed", "highwayisclosed", "closedfortheseason", "closedseasonally"]
}
