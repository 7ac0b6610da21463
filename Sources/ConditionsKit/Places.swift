/// The places a config names (its top-level `"places"`) and `here`, its `location`: what a URN
/// such as `forecast:stevens` or `forecast:here` may name. Every source gets them through its
/// `SourceConfiguration` and `SourceContext`.
///
/// ```json
/// "places": { "stevens": { "name": "Stevens Pass", "latitude": 47.745, "longitude": -121.093333 } }
/// ```
///
/// ```swift
/// context.places.place(named: "Stevens")   // the place above: names are case-insensitive
/// context.places.place(named: "here")      // the config's location
/// ```
public struct Places: Sendable, Equatable {
    /// The name that always means the config's `location`.
    public static let here = "here"

    /// The config's `location`.
    public let location: Place
    /// The names of the named places, in config order (`here` not included).
    public let names: [String]
    private let byKey: [String: Place]

    /// `location` as `here` plus `named` (name, place) in order; a name repeated in any case
    /// keeps its first place (the host refuses such configs, so this never shows).
    public init(location: Place, named: [(name: String, place: Place)] = []) {
        self.location = location
        var names: [String] = []
        var byKey: [String: Place] = [:]
        for (name, place) in named where byKey[name.lowercased()] == nil && name.lowercased() != Self.here {
            names.append(name)
            byKey[name.lowercased()] = place
        }
        self.names = names
        self.byKey = byKey
    }

    /// The place called `name` in any case (`here`: the location), or nil.
    public func place(named name: String) -> Place? {
        let key = name.lowercased()
        return key == Self.here ? location : byKey[key]
    }
}
