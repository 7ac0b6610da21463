import ConditionsJSON
import ConditionsKit
import Foundation

/// The result data of the moon routes, shared by every moon source (the local Astronomy
/// module, Aeris, …) so their output is interchangeable: switching `routes.moon` changes where
/// the numbers come from, never their shape.
///
/// ```swift
/// MoonData.observation(phase: "waning crescent", illumination: 31, age: 24.02, cycle: 0.8134,
///                      rise: rise, set: nil, place: context.place)
/// // {"phase", "illumination", "age", "cycle", "rise", "set", "location"}
/// MoonData.phases([("full moon", date)])   // {"phases": [{"name", "date"}]}
/// ```
public enum MoonData {
    /// The presentations of `moon` and `phases` results, for every module producing them
    /// (`public static let presentations = MoonData.presentations`).
    public static let presentations: [any ResultPresentation] = [MoonPresentation(), PhasesPresentation()]

    /// `moon:now` / `moon:{date}` data: phase name (lower case), illumination in percent,
    /// age in days since new moon, cycle as a 0…1 fraction, rise and set (null on days without).
    public static func observation(phase: String, illumination: Double, age: Double, cycle: Double,
                                   rise: Date?, set: Date?, place: Place) -> JSONValue {
        [
            "phase": .string(phase),
            "illumination": .double(illumination),
            "age": .double(age),
            "cycle": .double(cycle),
            "rise": JSONValue(rise),
            "set": JSONValue(set),
            "location": place.json,
        ]
    }

    /// `phases:{count}` data: the principal phases in time order.
    public static func phases(_ events: [(name: String, date: Date)]) -> JSONValue {
        // Built as `PhaseList` encodes (MoonDataTests holds them equal), not through Codable:
        // its first use in a process cost a local answer ~0.15 ms of runtime lookups.
        ["phases": .array(events.map { ["name": .string($0.name), "date": JSONValue($0.date)] })]
    }

    /// One principal phase of `phases:{count}`: `{"name": "full moon", "date": "…Z"}`.
    public struct Phase: Codable, Sendable, Equatable {
        /// `new moon`, `first quarter`, `full moon` or `last quarter`.
        public var name: String
        /// The instant of the phase.
        public var date: Date

        /// A phase named `name` at `date`.
        public init(name: String, date: Date) {
            self.name = name
            self.date = date
        }
    }

    /// `phases:{count}` data as a type: `{"phases": [Phase]}`.
    public struct PhaseList: Codable, Sendable, Equatable {
        /// The phases in time order.
        public var phases: [Phase]

        /// A list of `phases`.
        public init(phases: [Phase]) { self.phases = phases }
    }

    /// The phase counts `phases:{count}` accepts.
    public static let phaseCounts = 1...100

    /// Reads `{count}`: plain ASCII digits within `phaseCounts` (`+5`, ` 5`, `5.0` are refused,
    /// not guessed at).
    public static func phaseCount(_ text: String) throws(ConditionsError) -> Int {
        guard !text.isEmpty, text.count <= 3, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let count = Int(text), phaseCounts.contains(count)
        else {
            throw ConditionsError.invalidArguments(argument: "count", value: text, allowed: "a whole number from 1 to 100")
        }
        return count
    }
}

extension ResultKind {
    /// `moon:now` / `moon:{date}` data (`MoonData.observation`).
    public static let moon: ResultKind = "moon"
    /// `phases:{count}` data (`MoonData.phases`).
    public static let phases: ResultKind = "phases"
}
