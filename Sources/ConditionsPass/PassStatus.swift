/// How passable a direction or a whole pass is: the `status` values of the data contract.
public enum PassStatus: String, Sendable, CaseIterable {
    case open, restricted, closed, unknown

    /// The status of one direction from its restriction text alone. Case and spacing never
    /// matter: "No restrictions" and "no  restrictions" are both open. Closure wins over
    /// everything, because a text such as "Pass closed, no restrictions west of North Bend"
    /// means closed; closed to a class of vehicle only is restricted (`RoadClosure`).
    public init(restriction text: String) {
        if RoadClosure(in: text, isRestriction: true) != nil {
            self = .closed
        } else if text.lowercased().filter({ !$0.isWhitespace }).contains("norestriction") {
            self = .open
        } else {
            self = .restricted
        }
    }

    /// The whole pass from its directions: closed if any direction is closed, open if all are
    /// open, restricted otherwise, and unknown when there is no restriction data at all.
    public init(directions: [PassStatus]) {
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
}
