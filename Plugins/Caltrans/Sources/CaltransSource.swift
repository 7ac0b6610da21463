import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import ConditionsPass
import ConditionsText
import Foundation

/// California's mountain passes from Caltrans's CWWP2 portal, key-less: `pass:{name}` and
/// `pass:all`, in the same `pass` kind as WSDOT's Washington passes.
///
/// A pass is a set of chain-control checkpoints (the catalog, `Resources/passes.json`); its
/// status comes from their levels (`R-0` … `R-3`), their status texts, and the district's
/// lane closures (a full closure has no R level); cameras are the district's nearest to the
/// summit. Each district file is asked once per TTL however many passes need it. See
/// Plugins/Caltrans/README.md.
public struct CaltransSource: ConditionsSource {
    /// `"Caltrans"`.
    public static let moduleName = "Caltrans"
    /// One line for `conditions sources`.
    public static let summary = "California chain controls, closures and cameras for Sierra passes from Caltrans's CWWP2 portal (key-less)"
    /// `sample.json`, compiled in: what `conditions config init --module Caltrans` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// The portal rewrites its files every minute; five minutes keeps cron jobs polite.
    public static let defaultTTL: Double = 300
    /// The pass kind, read as every state's passes are, on California's map.
    public static let presentations: [any ResultPresentation] = [PassPresentation(publisher: "Caltrans", map: CaliforniaMap.layer)]

    static let passPattern: RoutePattern = "pass:{name}"
    static let allPattern: RoutePattern = "pass:all"
    public let routes = [passPattern, allPattern]

    /// For `--help`: every pass first (what `conditions doctor` asks, so it reads every
    /// district), then Ebbetts and Donner.
    public static let exampleURNs = ["pass:all", "pass:ebbetts", "pass:donner"]

    /// Every pass, then the first two served passes.
    public var examples: [String] {
        ["pass:all"] + served.prefix(2).map { "pass:\($0.id)" }
    }

    private let settings: CaltransSettings
    /// The passes of the districts read, in catalog order.
    private let served: [CaliforniaPass]
    /// Each district file's rows while fresh (the context's `maxAge`, the instance's TTL): a
    /// report of every pass costs one request per file.
    private let documents = FreshValues<[JSONValue]>(capacity: 64)

    /// Validates `baseURL` and `districts`; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try CaltransSettings(options: &options)
        try options.finish()
        let districts = settings.districts
        served = CaltransCatalog.all.filter { districts.contains($0.district) }
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        guard location.pattern != Self.allPattern else { return try await resolveAll(context: context) }
        let name = try location.argument("name")
        guard let pass = CaltransCatalog.pass(named: name, among: served) else {
            if let known = CaltransCatalog.pass(named: name) {
                throw ConditionsError.notFound("\(known.title) is in Caltrans's District \(known.district), which \(settings.optionsPath).districts leaves out",
                                               suggestions: served.prefix(3).map { "pass:\($0.id)" })
            }
            if let reason = CaltransCatalog.leftOut[CaltransCatalog.normalized(name).replacingOccurrences(of: "pass", with: "")] {
                throw ConditionsError.notFound("not served: \(reason)", suggestions: served.prefix(3).map { "pass:\($0.id)" })
            }
            throw ConditionsError.notFound("no California pass named \"\(name)\"",
                                           suggestions: Suggestions.closest(to: CaltransCatalog.normalized(name), among: served.map(\.id)).map { "pass:\($0)" })
        }
        let district = try await read(district: pass.district, context: context)
        return SourceResult(data: district.reading(of: pass, now: context.now).json, kind: .pass, fetchedAt: district.fetchedAt)
    }

    /// Every served pass, in catalog order. A district whose chain controls cannot be read
    /// fails the whole, naming the district and its passes: a partial list under a success
    /// would drop passes without a word (`pass:{name}` of the other districts still answers).
    private func resolveAll(context: SourceContext) async throws -> SourceResult {
        let districts = Array(Set(served.map(\.district))).sorted()
        var outcomes: [Int: Result<District, any Error>] = [:]
        await withTaskGroup(of: (Int, Result<District, any Error>).self) { group in
            for number in districts {
                group.addTask {
                    // Await first, then build the tuple (swiftlang/swift#91911; WSDOTPassSource says why).
                    let outcome: Result<District, any Error>
                    do { outcome = .success(try await read(district: number, context: context)) } catch { outcome = .failure(error) }
                    return (number, outcome)
                }
            }
            for await (number, outcome) in group { outcomes[number] = outcome }
        }
        let failed = districts.compactMap { number -> (Int, ErrorKind, String)? in
            guard case .failure(let error)? = outcomes[number] else { return nil }
            let report = ConditionsError.report(error)
            return (number, report.kind, report.message)
        }
        if let first = failed.first {
            let said = failed.map { number, _, message in
                let passes = served.filter { $0.district == number }.map(\.name).joined(separator: ", ")
                return "District \(number) (\(passes)): \(message)"
            }
            throw ConditionsError(first.1, "Caltrans's chain controls could not be read for " + said.joined(separator: "; "))
        }
        var passes: [JSONValue] = []
        for pass in served {
            guard case .success(let district)? = outcomes[pass.district] else { continue }
            passes.append(district.reading(of: pass, now: context.now).json)
        }
        let fetchedAt = outcomes.values.compactMap { try? $0.get().fetchedAt }.min()
        return SourceResult(data: ["passes": .array(passes)], kind: .pass, fetchedAt: fetchedAt)
    }

    /// One district's files as read: its chain controls (required), lane closures and cameras.
    struct District: Sendable {
        let number: Int
        let checkpoints: [Checkpoint]
        let closures: Result<[LaneClosure], ConditionsError>
        let cameras: [Camera]?
        let fetchedAt: Date

        /// `pass` read from these files at `now`.
        func reading(of pass: CaliforniaPass, now: Date) -> PassReading {
            let own = checkpoints.filter(pass.owns)
            let recorded = checkpoints.compactMap(\.recorded).max()
            return PassReading(pass: pass, checkpoints: own, closures: closures, cameras: cameras, recorded: recorded, now: now)
        }
    }

    /// District `number`'s three files, asked together; the chain controls' failure is the
    /// district's, the others' are carried (a pass reads `unknown` without its closures).
    private func read(district number: Int, context: SourceContext) async throws -> District {
        async let checkpointRows = rows(.chainControls, district: number, context: context)
        async let closureRows = rows(.laneClosures, district: number, context: context)
        async let cameraRows = rows(.cameras, district: number, context: context)
        let checkpointFile = try await checkpointRows
        let closures: Result<[LaneClosure], ConditionsError>
        do {
            closures = .success(try await closureRows.value.compactMap(LaneClosure.init))
        } catch {
            let report = ConditionsError.report(error)
            closures = .failure(ConditionsError(report.kind, report.message))
        }
        let cameras = try? await cameraRows.value.compactMap(Camera.init)
        return District(number: number, checkpoints: checkpointFile.value.compactMap(Checkpoint.init), closures: closures, cameras: cameras,
                        fetchedAt: checkpointFile.madeAt)
    }

    /// A district file's rows, kept while fresh; a fetch in flight is joined. Not
    /// ConditionsHelpers' `JSONAPI`, which parses the bytes as they come: a CWWP2 file may not
    /// be UTF-8 and is read lossily (`CWWP2.rows`).
    private func rows(_ file: CWWP2.File, district: Int, context: SourceContext) async throws -> FreshValues<[JSONValue]>.Made {
        let url = CWWP2.url(file, district: district, baseURL: settings.baseURL)
        return try await documents.made(for: url.absoluteString, in: context) {
            context.logger.debug("fetching Caltrans file", metadata: ["url": "\(Redaction.redact(url))"])
            let response = try await context.http.get(url, headers: ["Accept": "application/json"])
            try response.requireSuccess()
            let what = "Caltrans's District \(district) \(file.title) (\(Redaction.redact(url)))"
            return .init(value: try CWWP2.rows(response.body, member: file.rawValue, what: what), madeAt: context.now)
        }
    }
}
