import ConditionsJSON
import ConditionsKit

/// Answers `outing:{station}`: the next tide at a station and the moon's phase tonight,
/// combined from whatever sources.json routes `tide:` and `moon:` to.
public struct OutingSource: ConditionsSource {
    public static let moduleName = "Outing"
    public static let summary = "The next tide and tonight's moon, for an evening on the shore"
    public let routes: [RoutePattern] = ["outing:{station}"]
    /// A config that routes either scheme nowhere is refused at load and by `conditions check`.
    public let requiredSchemes = ["tide", "moon"]

    public init(configuration: SourceConfiguration) throws {
        // No options: any key in its "options" is a configuration error.
        try configuration.options.finish()
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let station = try location.argument("station")
        let answers = await context.resolve(["tide:\(station)", "moon:now"])
        // Without the tide there is no answer: its error (a bad station, NOAA down) is this URN's.
        let tide = try answers[0].result.get()
        // The moon is a nicety: when it fails, say so in the data and answer anyway.
        let phase = (try? answers[1].result.get())?.data["phase"] ?? .null
        return SourceResult(data: ["tide": tide.data, "moon": phase], kind: "outing", inputs: answers.map(\.input))
    }
}
