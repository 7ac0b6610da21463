import ConditionsJSON
import ConditionsKit
import Foundation

/// A test-only module the host knows nothing about: `echo:{text}` answers its text, placed at
/// the config's location on a map of its own (`TestlandMap`), so tests of the host, the server
/// and MCP need no real plugin. Options: `failing`, texts it fails upstream; `outageFile`, a
/// file (relative to the config) whose existence fails every text upstream, for a test that
/// takes the upstream down between two resolutions of one config; `all`, what `echo:all` (a
/// pattern of literals only, as `pass:all` is) answers, "all" by default, for joined routes.
public struct EchoSource: ConditionsSource {
    public static let moduleName = "Echo"
    public static let summary = "Echoes its argument (tests only)"
    public static let presentations: [any ResultPresentation] = [EchoPresentation()]
    public let routes: [RoutePattern] = ["echo:{text}", "echo:all"]
    public static let exampleURNs = ["echo:hello"]
    let failing: Set<String>
    let outageFile: URL?
    let all: String

    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        failing = Set(try options.strings("failing") ?? [])
        outageFile = try options.string("outageFile").map { configuration.configDirectory.appendingPathComponent($0) }
        all = try options.string("all") ?? "all"
        try options.finish()
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let text = location.arguments.isEmpty ? all : try location.argument("text")
        if failing.contains(text) || outageFile.map({ FileManager.default.fileExists(atPath: $0.path) }) == true {
            throw ConditionsError(.upstream, "echo is down for \(text)")
        }
        return SourceResult(data: ["text": .string(text), "latitude": .double(context.place.latitude), "longitude": .double(context.place.longitude)],
                            kind: "echo")
    }
}

/// `echo` results: the text as the status, a card on Testland's map.
public struct EchoPresentation: ResultPresentation {
    public let kind: ResultKind = "echo"
    public var map: MapLayer? { TestlandMap.layer }
    public init() {}

    public func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        ["\(context.style.bold(context.urn))  \(data["text"]?.stringValue ?? "?")"]
    }

    public func changeKey(_ data: JSONValue) -> ChangeKey {
        ChangeKey(status: data["text"]?.stringValue ?? "?")
    }

    public func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        let text = data["text"]?.stringValue ?? "?"
        var card = ResultCard(title: "Echo \(text)", status: .init(text, tone: text == "quiet" ? .caution : .good))
        if let latitude = data["latitude"]?.doubleValue, let longitude = data["longitude"]?.doubleValue {
            card.coordinate = .init(latitude: latitude, longitude: longitude)
        }
        card.mapLabel = text
        return card
    }
}

/// Testland: a made-up triangle around Seattle, so a test can tell its outline from any real one.
public enum TestlandMap {
    public static let layer = MapLayer(
        id: "testland", title: "Echoes on the map", area: "Testland",
        rings: [[.init(latitude: 48.5, longitude: -123.5), .init(latitude: 48.5, longitude: -121.0), .init(latitude: 46.5, longitude: -122.25)]],
        legend: [.init("loud", tone: .good), .init("quiet", tone: .caution)])
}
