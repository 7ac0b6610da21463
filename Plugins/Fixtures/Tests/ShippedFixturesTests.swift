import ConditionsText
import ConditionsJSON
import ConditionsKit
import Fixtures
import Foundation
import Testing

/// The repository's own `Fixtures/` folder (the offline demo data) loads through the module
/// and keeps the data contracts of the sources it stands in for.
@Suite struct ShippedFixturesTests {
    private typealias Support = FixturesTestSupport

    /// <package>/Fixtures, found from this file: <package>/Plugins/Fixtures/Tests/<file>.
    private static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    private static let passStatuses: Set<String> = ["open", "restricted", "closed", "unknown"]
    private static let moonPhases: Set<String> = ["new moon", "waxing crescent", "first quarter", "waxing gibbous", "full moon", "waning gibbous", "last quarter", "waning crescent"]
    /// No recording is newer than this: the snowpack's, at 10:30 PST on the day its derived
    /// hours end, are the newest (the others predate `Support.now`).
    private static let lastRecording = Timestamp.parse("2026-11-26T18:30:00Z")!
    private static let principalPhases = ["new moon", "first quarter", "full moon", "last quarter"]

    /// Every recorded URN, from the files on disk rather than from the module under test.
    static let urns: [String] = {
        let manager = FileManager.default
        let schemes = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        return schemes.sorted().flatMap { scheme in
            ((try? manager.contentsOfDirectory(atPath: directory.appendingPathComponent(scheme).path)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted().map { "\(scheme):\($0.dropLast(5))" }
        }
    }()

    private func resolve(_ urn: String) async throws -> SourceResult {
        try await Support.resolve(urn, in: Self.directory)
    }

    @Test func theFolderHoldsTheExpectedRecordings() throws {
        #expect(Self.urns.count >= 18)
        for urn in ["moon:now", "phases:5", "pass:all", "pass:snoqualmie", "pass:stevens", "pass:white", "pass:blewett"] {
            #expect(Self.urns.contains(urn), "\(urn) missing from \(Self.directory.path)")
        }
        #expect(try Support.source(directory: Self.directory).examples == Self.urns)
    }

    @Test(arguments: urns)
    func everyFileLoadsAndRecordsItsOwnURN(urn: String) async throws {
        let result = try await resolve(urn)
        let (scheme, name) = try split(urn)
        let record = try JSONValue.parse(Data(contentsOf: Self.directory.appendingPathComponent("\(scheme)/\(name).json")))
        #expect(record["urn"] == .string(urn))
        #expect(record["data"] == result.data)
        #expect(result.fetchedAt != nil)
        #expect(result.fetchedAt.map(Timestamp.string(from:)) == record["fetchedAt"]?.stringValue)
        #expect(result.fetchedAt.map { $0 <= Self.lastRecording } == true, "recorded after the last recording day")

        switch scheme {
        case "pass" where name == "all": try checkAllPasses(result.data)
        case "pass":
            try checkPass(result.data, id: name)
            // California's recordings are read from derived files (no active control was ever captured).
            if record["source"] == "caltrans" {
                #expect(record["recorded"]?.stringValue?.hasPrefix("derived: ") == true, "a derived recording says so")
            }
        case "moon": try checkMoon(result.data)
        case "phases": try checkPhases(result.data, count: Int(name))
        case "forecast": try checkForecast(result.data, place: name)
        case "alerts": try checkAlerts(result.data, place: name)
        case "avalanche":
            try checkAvalanche(result.data, place: name)
            #expect(record["recorded"]?.stringValue?.hasPrefix("derived: ") == true, "a derived recording says so")
        case "snowpack":
            try checkSnowpack(result.data, place: name)
            #expect(record["recorded"]?.stringValue?.hasPrefix("derived: ") == true, "a derived recording says so")
        case "sky": try checkSky(result.data, place: name)
        case "aurora": try checkAurora(result.data, place: name)
        default: Issue.record("no shape check for scheme \(scheme); add one to \(#fileID)")
        }
    }

    @Test func allPassesMatchTheIndividualRecordings() async throws {
        let passes = try #require(try await resolve("pass:all").data["passes"]?.arrayValue)
        let ids = passes.compactMap { $0["id"]?.stringValue }
        #expect(ids.count == passes.count)
        #expect(Set(ids).count == ids.count, "duplicate ids in pass:all")
        // pass:all is WSDOT's list: every recording of its source's passes, and no other state's.
        let washington = try Self.urns.filter { $0.hasPrefix("pass:") && $0 != "pass:all" }.filter { urn in
            let record = try JSONValue.parse(Data(contentsOf: Self.directory.appendingPathComponent("pass/\(urn.dropFirst(5)).json")))
            return record["source"] != "caltrans"
        }
        #expect(Set(ids) == Set(washington.map { String($0.dropFirst(5)) }))
        for pass in passes {
            let id = try #require(pass["id"]?.stringValue)
            #expect(try await resolve("pass:\(id)").data == pass, "pass:all and pass:\(id) disagree")
        }
    }

    // MARK: - Shapes

    private func split(_ urn: String) throws -> (String, String) {
        let parts = urn.split(separator: ":", maxSplits: 1).map(String.init)
        try #require(parts.count == 2)
        return (parts[0], parts[1])
    }

    private func checkAllPasses(_ data: JSONValue) throws {
        let passes = try #require(data["passes"]?.arrayValue)
        #expect(!passes.isEmpty)
        for pass in passes { try checkPass(pass, id: nil) }
    }

    /// The pass contract: id, name, a status from the fixed set, and per-direction restrictions
    /// whose statuses determine the pass's own.
    private func checkPass(_ pass: JSONValue, id: String?) throws {
        let passID = try #require(pass["id"]?.stringValue)
        if let id { #expect(passID == id) }
        #expect(pass["name"]?.stringValue?.isEmpty == false, "\(passID): name")
        let status = try #require(pass["status"]?.stringValue)
        #expect(Self.passStatuses.contains(status), "\(passID): status \(status)")

        let restrictions = try #require(pass["restrictions"]?.arrayValue, "\(passID): restrictions")
        var directionStatuses: [String] = []
        for restriction in restrictions {
            #expect(restriction["direction"]?.stringValue?.isEmpty == false, "\(passID): direction")
            #expect(restriction["text"]?.stringValue?.isEmpty == false, "\(passID): text")
            let directionStatus = try #require(restriction["status"]?.stringValue, "\(passID): restriction status")
            #expect(Self.passStatuses.contains(directionStatus), "\(passID): restriction status \(directionStatus)")
            directionStatuses.append(directionStatus)
        }
        #expect(status == Self.expectedStatus(directionStatuses), "\(passID): status \(status) but directions \(directionStatuses)")

        if let updated = pass["updated"], !updated.isNull {
            #expect(updated.dateValue != nil, "\(passID): updated \(updated)")
        }
        if let url = pass["url"]?.stringValue {
            #expect(url.hasPrefix("https://"), "\(passID): url \(url)")
        }
        if let temperature = pass["temperatureF"], !temperature.isNull {
            #expect(temperature.doubleValue.map { (-60...130).contains($0) } == true, "\(passID): temperatureF \(temperature)")
        }
        if let elevation = pass["elevationFt"], !elevation.isNull {
            #expect(elevation.intValue.map { (0...15_000).contains($0) } == true, "\(passID): elevationFt \(elevation)")
        }
    }

    /// Closed if any direction is closed, open if every direction is open, otherwise restricted;
    /// no directions at all means nothing is known.
    private static func expectedStatus(_ directions: [String]) -> String {
        if directions.isEmpty { return "unknown" }
        if directions.contains("closed") { return "closed" }
        if directions.allSatisfy({ $0 == "open" }) { return "open" }
        return "restricted"
    }

    @Test func statusRuleItself() {
        #expect(Self.expectedStatus(["open", "open"]) == "open")
        #expect(Self.expectedStatus(["restricted", "open"]) == "restricted")
        #expect(Self.expectedStatus(["open", "closed"]) == "closed")
        #expect(Self.expectedStatus(["unknown", "open"]) == "restricted")
        #expect(Self.expectedStatus([]) == "unknown")
    }

    private func checkMoon(_ moon: JSONValue) throws {
        let phase = try #require(moon["phase"]?.stringValue)
        #expect(Self.moonPhases.contains(phase), "phase \(phase)")
        let illumination = try #require(moon["illumination"]?.doubleValue)
        #expect((0...100).contains(illumination))
        let age = try #require(moon["age"]?.doubleValue)
        #expect((0..<29.54).contains(age))
        let cycle = try #require(moon["cycle"]?.doubleValue)
        #expect((0..<1).contains(cycle))
        // The cycle is the age as a fraction of the current lunation, whose length varies
        // between about 29.27 and 29.83 days around the 29.53-day mean.
        #expect(cycle > 0, "cycle \(cycle)")
        let lunation = age / cycle
        #expect((29.2...29.9).contains(lunation), "age \(age) / cycle \(cycle) = \(lunation) days")
        for key in ["rise", "set"] {
            if let value = moon[key], !value.isNull {
                #expect(value.dateValue != nil, "\(key): \(value)")
            }
        }
        let location = try #require(moon["location"])
        #expect(location["name"]?.stringValue?.isEmpty == false)
        #expect(location["latitude"]?.doubleValue.map { (-90...90).contains($0) } == true)
        #expect(location["longitude"]?.doubleValue.map { (-180...180).contains($0) } == true)
    }

    /// The NWS forecast contract (Plugins/NWS/README.md): the place, the point sent, periods in
    /// order with their times and readings, the active alerts.
    private func checkForecast(_ data: JSONValue, place: String) throws {
        #expect(data["place"]?["id"] == .string(place))
        #expect(data["hourly"] == false)
        let point = try #require(data["point"]?.stringValue)
        #expect(point.split(separator: ",").allSatisfy { part in Double(part) != nil && (part.split(separator: ".").dropFirst().first?.count ?? 0) <= 4 }, "point \(point)")
        let periods = try #require(data["periods"]?.arrayValue)
        #expect(periods.count >= 4)
        var previousEnd: Date?
        for period in periods {
            let start = try #require(period["start"]?.dateValue)
            let end = try #require(period["end"]?.dateValue)
            #expect(start < end)
            if let previousEnd { #expect(start == previousEnd, "periods follow each other") }
            previousEnd = end
            #expect(period["name"]?.stringValue?.isEmpty == false)
            #expect(period["temperature"]?.doubleValue.map { (-80...140).contains($0) } == true)
            #expect(period["temperatureUnit"] == "F")
            #expect(period["shortForecast"]?.stringValue?.isEmpty == false)
        }
        #expect(data["elevationM"]?.doubleValue.map { (0...5_000).contains($0) } == true)
        try checkAlerts(data, place: place)
    }

    /// The NWS sky contract (`night:` reads it): 48 consecutive UTC hours, percentages 0–100 or
    /// null, visibility in metres or null, sky cover in at least one hour.
    private func checkSky(_ data: JSONValue, place: String) throws {
        #expect(data["place"]?["id"] == .string(place))
        #expect(data["grid"]?.stringValue?.isEmpty == false)
        let hours = try #require(data["hours"]?.arrayValue)
        #expect(hours.count == 48)
        let times = hours.compactMap { $0["time"]?.dateValue }
        #expect(times.count == 48)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 3600 }, "hour after hour")
        for hour in hours {
            for key in ["skyCover", "precipChance", "humidity"] {
                #expect(hour[key] == .null || hour[key]?.intValue.map { (0...100).contains($0) } == true, "\(key) \(String(describing: hour[key]))")
            }
            #expect(hour["visibilityM"] == .null || hour["visibilityM"]?.intValue.map { $0 >= 0 } == true)
        }
        #expect(hours.contains { $0["skyCover"]?.intValue != nil })
    }

    /// The Avalanche contract: the zone and place, the three bands today and tomorrow on the
    /// 1–5 scale, named problems, published before it expires.
    private func checkAvalanche(_ data: JSONValue, place: String) throws {
        #expect(data["place"]?["id"] == .string(place))
        #expect(data["zone"]?["name"]?.stringValue?.isEmpty == false)
        #expect(data["status"] == "forecast")
        for day in ["today", "tomorrow"] {
            for band in ["above", "near", "below"] {
                #expect(data["danger"]?[day]?[band]?["level"]?.intValue.map { (1...5).contains($0) } == true, "\(day) \(band)")
            }
        }
        #expect(data["problems"]?.arrayValue?.allSatisfy { $0["name"]?.stringValue?.isEmpty == false } == true)
        let published = try #require(data["published"]?.dateValue)
        let expires = try #require(data["expires"]?.dateValue)
        #expect(published < expires)
    }

    /// The Snowpack contract: a station by triplet near the place, depth and SWE never
    /// negative, 14 daily depths, a reading time.
    private func checkSnowpack(_ data: JSONValue, place: String) throws {
        #expect(data["place"]?["id"] == .string(place))
        #expect(data["station"]?["triplet"]?.stringValue?.hasSuffix(":WA:SNTL") == true)
        #expect(data["place"]?["distanceKm"]?.doubleValue.map { (0...100).contains($0) } == true)
        #expect(data["depthIn"]?.doubleValue.map { $0 >= 0 } == true)
        #expect(data["sweIn"]?.doubleValue.map { $0 >= 0 } == true)
        #expect(data["daily"]?.arrayValue?.count == 14)
        #expect(data["reading"]?["time"]?.dateValue != nil)
    }

    /// The SpaceWeather contract (`night:` reads `next24h.gScale` and `ovation.probability`):
    /// Kp now and the peaks ahead on 0–9 with their thirds and a G-level; at a place, the
    /// OVATION probability of its grid cell.
    private func checkAurora(_ data: JSONValue, place: String) throws {
        for key in ["observed", "next24h", "next3d"] {
            let period = try #require(data[key], "\(key)")
            #expect(period["kp"]?.doubleValue.map { (0...9).contains($0) } == true, "\(key)")
            #expect(period["kpText"]?.stringValue?.isEmpty == false, "\(key)")
            #expect(period["gScale"]?.stringValue.map { ["G0", "G1", "G2", "G3", "G4", "G5"].contains($0) } == true, "\(key)")
            #expect(period["time"]?.dateValue != nil, "\(key)")
        }
        if place == "now" {
            #expect(data["place"] == .null)
            #expect(data["ovation"] == .null)
            return
        }
        #expect(data["place"]?["id"] == .string(place))
        let ovation = try #require(data["ovation"])
        #expect(ovation["probability"]?.intValue.map { (0...100).contains($0) } == true)
        #expect(ovation["latitude"]?.intValue.map { (-90...90).contains($0) } == true)
        #expect(ovation["longitude"]?.intValue.map { (0...359).contains($0) } == true)
        #expect(ovation["forecastTime"]?.dateValue != nil)
    }

    /// The NWS alerts contract: each alert's event, severity and headline, dates readable.
    private func checkAlerts(_ data: JSONValue, place: String) throws {
        #expect(data["place"]?["id"] == .string(place))
        for alert in try #require(data["alerts"]?.arrayValue) {
            #expect(alert["event"]?.stringValue?.isEmpty == false)
            #expect(["Extreme", "Severe", "Moderate", "Minor", "Unknown"].contains(alert["severity"]?.stringValue ?? ""))
            #expect(alert["headline"]?.stringValue?.isEmpty == false)
            for key in ["onset", "effective", "expires", "ends"] {
                if let value = alert[key], !value.isNull { #expect(value.dateValue != nil, "\(key)") }
            }
        }
    }

    private func checkPhases(_ data: JSONValue, count: Int?) throws {
        let phases = try #require(data["phases"]?.arrayValue)
        #expect(phases.count == count)
        var previous: (index: Int, name: String, date: Date)?
        for phase in phases {
            let name = try #require(phase["name"]?.stringValue)
            let index = try #require(Self.principalPhases.firstIndex(of: name), "phase name \(name)")
            let date = try #require(phase["date"]?.dateValue, "date of \(name)")
            #expect(date > Support.now, "phases are upcoming")
            if let previous {
                // Principal phases follow each other in order, about a quarter of a month apart.
                #expect(index == (previous.index + 1) % Self.principalPhases.count, "\(previous.name) then \(name)")
                let days = date.timeIntervalSince(previous.date) / 86_400
                #expect((6.0...8.7).contains(days), "\(days) days between \(previous.name) and \(name)")
            }
            previous = (index, name, date)
        }
    }
}
