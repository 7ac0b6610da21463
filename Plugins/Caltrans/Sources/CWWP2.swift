import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsPass
import ConditionsText
import Foundation

/// The files of Caltrans's CWWP2 portal this module reads, per district: chain controls, lane
/// closures and cameras. Every value in them is a string; dates and times are Pacific local
/// time with no zone, but for the lane closures' `*Epoch` fields, which are Unix epochs.
///
/// The portal's traps, each met here: a district's folder is not zero-padded but its file is
/// (`/d3/cc/ccStatusD03.json`); a file may not be valid UTF-8 (it is read lossily, never failed
/// whole); `inService` is `true`, `True` or blank (in service) or `false`; a status may be
/// anything (a longitude, once), which is never read as a level.
enum CWWP2 {
    /// What one of a district's files holds.
    enum File: String, Sendable, CaseIterable {
        case chainControls = "cc"
        case laneClosures = "lcs"
        case cameras = "cctv"

        /// In messages: "chain controls".
        var title: String {
            switch self {
            case .chainControls: "chain controls"
            case .laneClosures: "lane closures"
            case .cameras: "cameras"
            }
        }
    }

    /// `{baseURL}/d{N}/{file}/{file}StatusD{NN}.json`.
    static func url(_ file: File, district: Int, baseURL: URL) -> URL {
        let number = district < 10 ? "0\(district)" : "\(district)"
        return baseURL.appendingPathComponent("d\(district)").appendingPathComponent(file.rawValue)
            .appendingPathComponent("\(file.rawValue)StatusD\(number).json")
    }

    /// The rows of a file's `data` list, each the object under `member` (`cc`, `lcs`, `cctv`).
    /// Bytes that are not UTF-8 become U+FFFD. A body that is not JSON, has no `data` list or
    /// an empty one is a `badResponse` naming the file; a row without `member` is skipped.
    static func rows(_ body: Data, member: String, what: String) throws(ConditionsError) -> [JSONValue] {
        let document: JSONValue
        do {
            document = try JSONValue.parse(String(decoding: body, as: UTF8.self))
        } catch {
            throw ConditionsError.badResponse("\(what) is not JSON (\(error))")
        }
        guard let data = document["data"]?.arrayValue else {
            throw ConditionsError.badResponse("\(what) has no \"data\" list")
        }
        guard !data.isEmpty else { throw ConditionsError.badResponse("\(what) lists nothing (an empty \"data\" list)") }
        return data.compactMap { $0[member]?.objectValue != nil ? $0[member] : nil }
    }

    /// `value` trimmed; nil when blank or `Not Reported`.
    static func text(_ value: JSONValue?) -> String? {
        guard let raw = value?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !raw.isEmpty,
              raw.caseInsensitiveCompare("Not Reported") != .orderedSame else { return nil }
        return raw
    }

    /// A number written as a string ("38.460500", "7116"); nil when not finite.
    static func number(_ value: JSONValue?) -> Double? {
        text(value).flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
    }

    /// `inService`: false only when it says false (in any case); blank counts as in service.
    static func inService(_ value: JSONValue?) -> Bool {
        text(value)?.lowercased() != "false"
    }

    private static let pacific = TimeZone(identifier: "America/Los_Angeles") ?? .current

    /// A Pacific local date (`2026-09-29`) and time (`20:57:03`) as an instant (the ISO 8601
    /// reader, `Timestamp.parse`, in Pacific time); nil when either is missing or malformed.
    static func pacificTime(date: JSONValue?, time: JSONValue?) -> Date? {
        guard let date = text(date), let time = text(time) else { return nil }
        return Timestamp.parse("\(date)T\(time)", timeZone: pacific)
    }

    /// A Unix epoch written as a string; nil when blank or not a number.
    static func epoch(_ value: JSONValue?) -> Date? {
        number(value).map { Date(timeIntervalSince1970: $0) }
    }
}

/// One chain-control checkpoint of a district's `cc` file.
struct Checkpoint: Sendable, Equatable {
    /// `10-ALP-4-24.4-W-3`.
    let index: String
    /// `RAYMOND MEADOWS - EBBETTS PASS`.
    let name: String
    let route: String
    let county: String
    /// As written: `East`, `West`, `North`, `South`.
    let direction: String
    let location: GeoPoint?
    let elevationFt: Double?
    let postmile: Double?
    let inService: Bool
    /// The status as written (trimmed): `R-0` … `R-3`, or anything else.
    let status: String
    let statusDescription: String?
    /// When the checkpoint's status last changed.
    let since: Date?
    /// When the file was written.
    let recorded: Date?

    /// The level its status names; nil when it names none (never read as `R-0`).
    var level: ChainControl? { ChainControl(level: status) }

    /// The direction of travel it controls: `Eastbound`.
    var travel: String { direction.isEmpty ? "Unknown direction" : direction.prefix(1).uppercased() + direction.dropFirst().lowercased() + "bound" }

    /// The checkpoint of a `cc` row; nil without an index or a name.
    init?(_ row: JSONValue) {
        guard let index = CWWP2.text(row["index"]), let name = CWWP2.text(row["location"]?["locationName"]) else { return nil }
        let location = row["location"]
        self.index = index
        self.name = name
        route = CWWP2.text(location?["route"]) ?? ""
        county = CWWP2.text(location?["county"]) ?? ""
        direction = CWWP2.text(location?["direction"]) ?? ""
        if let latitude = CWWP2.number(location?["latitude"]), let longitude = CWWP2.number(location?["longitude"]),
           (-90...90).contains(latitude), (-180...180).contains(longitude) {
            self.location = GeoPoint(latitude: latitude, longitude: longitude)
        } else {
            self.location = nil
        }
        elevationFt = CWWP2.number(location?["elevation"])
        postmile = CWWP2.number(location?["postmile"])
        inService = CWWP2.inService(row["inService"])
        status = CWWP2.text(row["statusData"]?["status"]) ?? ""
        statusDescription = CWWP2.text(row["statusData"]?["statusDescription"])
        since = CWWP2.pacificTime(date: row["statusData"]?["statusTimestamp"]?["statusDate"], time: row["statusData"]?["statusTimestamp"]?["statusTime"])
        recorded = CWWP2.pacificTime(date: row["recordTimestamp"]?["recordDate"], time: row["recordTimestamp"]?["recordTime"])
    }
}

/// One window of a district's `lcs` file: a planned or emergency closure of lanes.
struct LaneClosure: Sendable, Equatable {
    let id: String
    let route: String
    let beginCounty: String
    let endCounty: String
    let beginPostmile: Double?
    let endPostmile: Double?
    /// The directions of travel it closes, as words (`east`, `west`); empty: not said.
    let directions: [String]
    /// `typeOfClosure` `Full` with `lanesClosed` `All`: the road shut, not a lane.
    let closesAllLanes: Bool
    /// 10-97: the closure is set up; 10-98: it is picked up; 10-22: it is cancelled.
    let code1097: Bool, code1098: Bool, code1022: Bool
    let start: Date?
    let end: Date?
    let endIndefinite: Bool
    /// Where, in Caltrans's words: `400' east of Highland Lake Road to near Ebetts pass, …`.
    let description: String

    /// The closure of an `lcs` row; nil without an id or a route.
    init?(_ row: JSONValue) {
        let closure = row["closure"], begin = row["location"]?["begin"], end = row["location"]?["end"]
        guard let id = CWWP2.text(row["index"]), let route = CWWP2.text(begin?["beginRoute"]) else { return nil }
        self.id = id
        self.route = route
        beginCounty = CWWP2.text(begin?["beginCounty"]) ?? ""
        endCounty = CWWP2.text(end?["endCounty"]) ?? beginCounty
        beginPostmile = CWWP2.number(begin?["beginPostmile"])
        endPostmile = CWWP2.number(end?["endPostmile"])
        directions = (CWWP2.text(row["location"]?["travelFlowDirection"]) ?? "").lowercased()
            .split(whereSeparator: { !$0.isLetter }).map(String.init).filter { ["north", "south", "east", "west"].contains($0) }
        closesAllLanes = CWWP2.text(closure?["typeOfClosure"])?.lowercased() == "full" && CWWP2.text(closure?["lanesClosed"])?.lowercased() == "all"
        func flag(_ code: String) -> Bool { CWWP2.text(closure?["code\(code)"]?["isCode\(code)"])?.lowercased() == "true" }
        code1097 = flag("1097")
        code1098 = flag("1098")
        code1022 = flag("1022")
        let times = closure?["closureTimestamp"]
        start = CWWP2.epoch(times?["closureStartEpoch"])
        self.end = CWWP2.epoch(times?["closureEndEpoch"])
        endIndefinite = CWWP2.text(times?["isClosureEndIndefinite"])?.lowercased() == "true"
        let words = [CWWP2.text(begin?["beginFreeFormDescription"]), CWWP2.text(end?["endFreeFormDescription"])].compactMap { $0 }
        description = words.joined(separator: " to ")
    }

    /// Whether the road is shut now: a full closure of all lanes, set up (10-97) and neither
    /// picked up (10-98) nor cancelled (10-22), `now` after its start and before its end (an
    /// indefinite end, or none given, never passes).
    func shuts(at now: Date) -> Bool {
        guard closesAllLanes, code1097, !code1098, !code1022 else { return false }
        if let start, now < start { return false }
        if endIndefinite { return true }
        if let end, now > end { return false }
        return true
    }

    /// Whether it covers `postmile` of `route` in `county` (postmiles count within a county).
    func covers(route: String, county: String, postmiles: ClosedRange<Double>) -> Bool {
        guard self.route == route, let begin = beginPostmile else { return false }
        let finish = endPostmile ?? begin
        let span = min(begin, finish)...max(begin, finish)
        guard beginCounty == county || endCounty == county else { return false }
        // A closure running into another county covers this county's part to its end.
        let covered = beginCounty == endCounty ? span : (beginCounty == county ? begin...Double.greatestFiniteMagnitude : 0...finish)
        return covered.overlaps(postmiles)
    }

    /// Whether it closes travel `direction` (`Eastbound`): every direction when it names none.
    func closes(_ direction: String) -> Bool {
        directions.isEmpty || directions.contains { direction.lowercased().hasPrefix($0) }
    }
}

/// One camera of a district's `cctv` file.
struct Camera: Sendable, Equatable {
    let id: String
    let name: String
    let inService: Bool
    /// The current still image, https only.
    let imageURL: URL?
    let location: GeoPoint?

    /// The camera of a `cctv` row; nil without an index.
    init?(_ row: JSONValue) {
        guard let id = CWWP2.text(row["index"]) else { return nil }
        self.id = id
        name = CWWP2.text(row["location"]?["locationName"]) ?? "Camera \(id)"
        inService = CWWP2.inService(row["inService"])
        let image = CWWP2.text(row["imageData"]?["static"]?["currentImageURL"]).flatMap { URL(string: $0) }
        imageURL = image?.scheme?.lowercased() == "https" ? image : nil
        if let latitude = CWWP2.number(row["location"]?["latitude"]), let longitude = CWWP2.number(row["location"]?["longitude"]),
           (-90...90).contains(latitude), (-180...180).contains(longitude) {
            location = GeoPoint(latitude: latitude, longitude: longitude)
        } else {
            location = nil
        }
    }

    /// The pass kind's camera entry.
    var json: JSONValue {
        ["id": .string(id), "title": .string(name), "imageURL": JSONValue(imageURL?.absoluteString)]
    }
}
