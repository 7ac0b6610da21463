import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import ConditionsText
import Foundation
@testable import Snowpack

/// A file under Tests/Resources (`derived/…`, made by `derived/derive-awdb.py` in AWDB's
/// documented shape; provenance in its SOURCES.md).
func fixture(_ name: String) throws -> Data {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    return try Data(contentsOf: folder.appendingPathComponent(name))
}

/// The derived bodies the tests serve.
enum Body {
    /// Every active WA SNOTEL station the tests know (real triplets and coordinates) and one
    /// derived ended station.
    static let stationsWA = "derived/awdb_stations_WA_SNTL.json"
    /// Stevens Pass, latest hour 2026-11-26 10:00 PST: a second depth sensor, suspect, missing
    /// and edited values, a missing SWE hour 72 hours back.
    static let stevens = "derived/awdb_data_791_2026-11-26.json"
    /// Olallie Meadows, the same hours, every value valid.
    static let olallie = "derived/awdb_data_672_2026-11-26.json"
    /// Stevens Pass whose last reading is 2026-11-25 20:00 PST.
    static let stevensStale = "derived/awdb_data_791_stale.json"
    /// Stevens Pass at midday on 2026-07-01 PST.
    static let stevensJuly = "derived/awdb_data_791_2026-07-01.json"
    /// Stevens Pass with its elements and no values.
    static let stevensNoValues = "derived/awdb_data_791_novalues.json"
}

/// The paths AWDB answers on under the default base URL.
enum Path {
    static let stations = "/awdbRestApi/services/v1/stations"
    static let data = "/awdbRestApi/services/v1/data"
    static let stationsQuery = "stationTriplets=*:WA:SNTL&activeOnly=true"
    /// The whole data URL of `triplet` on 2026-11-26 under the default base URL.
    static func dataURL(_ triplet: String) -> String {
        "https://wcc.sc.egov.usda.gov\(data)?\(dataQuery(triplet))"
    }
    /// The data request of `triplet` on 2026-11-26 (PST).
    static func dataQuery(_ triplet: String, today: String = "2026-11-26", begin: String = "2026-11-12") -> String {
        "stationTriplets=\(triplet)&elements=SNWD,WTEQ,TOBS&duration=HOURLY&beginDate=\(begin)%2000:00&endDate=\(today)%2023:59"
    }
}

/// The config's places: the passes at WSDOT's coordinates; Spokane, far from every WA SNOTEL
/// station in the list; `here` is Seattle.
let places = Places(location: .seattle, named: [
    ("stevens", Place.stevens),
    ("snoqualmie", Place(name: "Snoqualmie Pass", latitude: 47.41, longitude: -121.405833)),
    ("white", Place(name: "White Pass", latitude: 46.6383, longitude: -121.39)),
    ("spokane", Place(name: "Spokane", latitude: 47.6588, longitude: -117.426)),
])

/// 2026-11-26T18:30:00Z, 10:30 PST: half an hour after the derived November bodies' latest hour.
let novemberMorning = Timestamp.parse("2026-11-26T18:30:00Z")!

/// A source made from `options` as the host would, with `places`.
func makeSource(_ options: JSONValue = [:]) throws -> SnowpackSource {
    try SnowpackSource(configuration: .testing(instance: "snowpack", options: options, places: places))
}

/// A context at `now` with `places`, fetching through `http`; `maxAge` is what the host
/// allows of a document fetched for an earlier URN (the TTL by default); `memory` is the
/// source memo (a new one by default, so the station list is kept between URNs).
func context(_ http: any HTTPClient, now: Date = novemberMorning, maxAge: Double = SnowpackSource.defaultTTL,
             memory: FreshValues<JSONValue> = FreshValues()) -> SourceContext {
    SourceContextBuilder(now: now, places: places, http: http, maxAge: maxAge).keepingValues(in: memory).build()
}

/// AWDB on 2026-11-26: the derived station list, Stevens Pass (`stevens`) and Olallie
/// Meadows; any other data request answers `[]`.
func november(stevens: String = Body.stevens, _ more: [String: RecordingHTTPClient.Reply] = [:]) throws -> RecordingHTTPClient {
    var replies: [String: RecordingHTTPClient.Reply] = [
        Path.stations: try .jsonFixture(Body.stationsWA),
        Path.dataURL("791:WA:SNTL"): try .jsonFixture(stevens),
        Path.dataURL("672:WA:SNTL"): try .jsonFixture(Body.olallie),
    ]
    replies.merge(more) { $1 }
    return RecordingHTTPClient(replies, fallback: .json("[]"))
}

extension RecordingHTTPClient.Reply {
    /// A document under Tests/Resources, as AWDB sends JSON.
    static func jsonFixture(_ name: String) throws -> Self {
        .body(try fixture(name), contentType: "application/json")
    }

    /// A maintenance page with HTTP 200.
    static let htmlPage = Self.text("<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head><body><h1>AWDB is down for maintenance</h1></body></html>",
                                    contentType: "text/html; charset=utf-8")
}

/// The presentation of `snowpack` results.
let presentation = SnowpackSource.presentations.first { $0.kind == SnowpackSource.kind }!

/// Plain text with times as UTC ISO 8601 (the host formats them in the config's zone).
func textContext(_ urn: String) -> PresentationContext {
    PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
}

