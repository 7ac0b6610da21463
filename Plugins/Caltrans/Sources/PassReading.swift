import ConditionsJSON
import ConditionsKit
import ConditionsPass
import ConditionsText
import Foundation

/// One California pass read from its district's files: the `pass` kind's data.
///
/// Safety first, in this order, per direction of travel (a checkpoint's `direction`):
/// 1. A full closure of all lanes in effect now (`LaneClosure.shuts(at:)`) over the pass's
///    postmiles, in that direction, closes it: seasonal and storm closures have no R level.
/// 2. A checkpoint whose status description says the road is closed (the pass kind's
///    `RoadClosure`) closes the directions it names (its own when it names none).
/// 3. A checkpoint whose status is no level this module knows makes the direction unknown,
///    the raw value shown: never read as `R-0`.
/// 4. Otherwise the strictest checkpoint's level: `R-0` open, `R-1`…`R-3` restricted, with
///    Caltrans's wording. A checkpoint out of service is shown and still counts.
/// The pass is closed when a direction is; else unknown when one is; else restricted when one
/// is; else open. A pass that would read open reads unknown when the district's lane closures
/// could not be read (a closure would not have been seen), and a pass none of whose
/// checkpoints is in the file reads unknown; `unknownBecause` says why.
struct PassReading {
    let pass: CaliforniaPass
    /// The pass's checkpoints in the district's file, in file order.
    let checkpoints: [Checkpoint]
    /// The district's lane closures, or why they could not be read.
    let closures: Result<[LaneClosure], ConditionsError>
    /// The district's cameras (nil when the file could not be read).
    let cameras: [Camera]?
    /// When the chain-control file was written.
    let recorded: Date?
    let now: Date

    /// Postmiles beyond a pass's outermost checkpoints still counted as the pass: a checkpoint
    /// stands below the summit, and a lone checkpoint (Luther, Monitor) marks one side of it.
    static let postmileMargin = 3.0
    /// How far from the summit a camera is the pass's.
    static let cameraKm = 30.0
    /// A file older than this is stale: the portal rewrites them every minute, and keeps
    /// serving one it stopped rewriting.
    static let staleAfter = 3_600.0

    /// One direction's reading.
    struct Direction {
        let name: String
        let status: PassStatus
        let text: String
        let level: ChainControl?
        /// The words that closed it, if any, and which kind of field said them.
        let closedBy: [(field: String, words: String)]
    }

    /// The directions in the order their first checkpoint appears.
    var directions: [Direction] {
        var names: [String] = []
        for checkpoint in checkpoints where !names.contains(checkpoint.travel) { names.append(checkpoint.travel) }
        let shutting = shuttingClosures
        let statusClosures = checkpoints.compactMap { checkpoint in
            checkpoint.statusDescription.flatMap { RoadClosure(in: $0, isRestriction: true) }.map { ($0, checkpoint.travel) }
        }
        return names.map { name in
            var closedBy: [(field: String, words: String)] = []
            for closure in shutting where closure.closes(name) {
                closedBy.append(("laneClosures", Self.words(of: closure)))
            }
            for (closure, row) in statusClosures where closure.covers(name, inRestrictionOf: row, of: names) {
                for sentence in closure.sentences { closedBy.append(("checkpoints", sentence)) }
            }
            let own = checkpoints.filter { $0.travel == name }
            if !closedBy.isEmpty {
                return Direction(name: name, status: .closed, text: "Closed: " + closedBy.map(\.words).joined(separator: " "), level: nil, closedBy: closedBy)
            }
            if let unread = own.first(where: { $0.level == nil }) {
                return Direction(name: name, status: .unknown, text: "Status not readable at \(unread.name): \"\(unread.status)\"", level: nil, closedBy: [])
            }
            let strictest = own.max { (a: Checkpoint, b: Checkpoint) in (a.level ?? ChainControl.r0) < (b.level ?? ChainControl.r0) }
            let level = strictest?.level ?? ChainControl.r0
            let text = level == .r0 ? (strictest?.statusDescription ?? level.wording)
                : "\(level.rawValue): " + (strictest?.statusDescription ?? level.wording)
            return Direction(name: name, status: level.status, text: text, level: level, closedBy: [])
        }
    }

    /// The district's full closures in effect now over this pass's postmiles.
    var shuttingClosures: [LaneClosure] {
        guard case .success(let closures) = closures else { return [] }
        let spans = postmileSpans
        return closures.filter { closure in
            closure.shuts(at: now) && spans.contains { county, span in closure.covers(route: pass.route, county: county, postmiles: span) }
        }
    }

    /// Per county, the postmiles from the pass's first checkpoint to its last, widened by
    /// `postmileMargin`.
    var postmileSpans: [(county: String, span: ClosedRange<Double>)] {
        var spans: [(county: String, span: ClosedRange<Double>)] = []
        for checkpoint in checkpoints {
            guard let postmile = checkpoint.postmile else { continue }
            if let index = spans.firstIndex(where: { $0.county == checkpoint.county }) {
                let span = spans[index].span
                spans[index].span = min(span.lowerBound, postmile)...max(span.upperBound, postmile)
            } else {
                spans.append((checkpoint.county, postmile...postmile))
            }
        }
        return spans.map { ($0.county, max(0, $0.span.lowerBound - Self.postmileMargin)...($0.span.upperBound + Self.postmileMargin)) }
    }

    /// `Full closure of all lanes, SR-4 Alpine postmiles 17.25–19, eastbound and westbound: 400' east of …`.
    static func words(of closure: LaneClosure) -> String {
        var text = "Full closure of all lanes, \(closure.route) \(closure.beginCounty)"
        if let begin = closure.beginPostmile {
            text += " postmile \(number(begin))" + (closure.endPostmile.map { $0 == begin ? "" : "–\(number($0))" } ?? "")
        }
        if !closure.directions.isEmpty { text += ", " + closure.directions.map { $0 + "bound" }.joined(separator: " and ") }
        return text + (closure.description.isEmpty ? "." : ": \(closure.description).")
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    /// The pass's status from its `directions` and, when unknown, why.
    func status(of directions: [Direction]) -> (status: PassStatus, unknownBecause: String?) {
        guard !checkpoints.isEmpty else {
            return (.unknown, "none of the pass's checkpoints is in District \(pass.district)'s chain-control file")
        }
        let statuses = directions.map(\.status)
        if statuses.contains(.closed) { return (.closed, nil) }
        if statuses.contains(.unknown) { return (.unknown, "a checkpoint's status could not be read") }
        if statuses.contains(.restricted) { return (.restricted, nil) }
        if case .failure(let error) = closures {
            return (.unknown, "District \(pass.district)'s lane closures could not be read (\(error.description)), so a closure of the road would not be seen")
        }
        return (.open, nil)
    }

    /// The pass kind's data, keys in the contract's order.
    var json: JSONValue {
        let directions = self.directions
        let (status, unknownBecause) = status(of: directions)
        var object = JSONObject()
        object["id"] = .string(pass.id)
        object["name"] = .string(pass.title)
        object["status"] = .string(status.rawValue)
        let closedBy = directions.flatMap(\.closedBy)
        if status == .closed {
            var fields: [String] = [], words: [String] = []
            for (field, said) in closedBy {
                if !fields.contains(field) { fields.append(field) }
                if !words.contains(said) { words.append(said) }
            }
            object["closedBy"] = .array(fields.map(JSONValue.string))
            object["closedByText"] = .array(words.map(JSONValue.string))
        }
        object["conditions"] = .null
        object["weather"] = .null
        object["temperatureF"] = .null
        object["elevationFt"] = .int(pass.elevationFt)
        object["restrictions"] = .array(directions.map { direction in
            var entry = JSONObject([("direction", .string(direction.name)), ("text", .string(direction.text)), ("status", .string(direction.status.rawValue))])
            if let level = direction.level { entry["level"] = .string(level.rawValue) }
            return .object(entry)
        })
        object["updated"] = JSONValue(recorded)
        object["reportAge"] = JSONValue(recorded.map { Int(now.timeIntervalSince($0).rounded()) })
        object["url"] = .string(Self.page(for: pass).absoluteString)
        object["travelAdvisory"] = .null
        if let cameras { object["cameras"] = .array(nearestCameras(cameras).map(\.json)) }
        object["source"] = "Caltrans"
        object["latitude"] = .double(pass.summit.latitude)
        object["longitude"] = .double(pass.summit.longitude)
        object["staleAfter"] = .int(Int(Self.staleAfter))
        object["checkpoints"] = .array(checkpoints.map { checkpoint in
            var entry = JSONObject([("name", .string(checkpoint.name)), ("direction", .string(checkpoint.travel)),
                                    ("level", .string(checkpoint.status))])
            entry["status"] = .string(checkpoint.level.map(\.status.rawValue) ?? PassStatus.unknown.rawValue)
            entry["text"] = JSONValue(checkpoint.statusDescription)
            entry["since"] = JSONValue(checkpoint.since)
            entry["inService"] = .bool(checkpoint.inService)
            return .object(entry)
        })
        if let unknownBecause { object["unknownBecause"] = .string(unknownBecause) }
        object["verified"] = .bool(pass.verified)
        return .object(object)
    }

    /// In-service cameras with a still image within `cameraKm` of the summit, nearest first, three at most.
    func nearestCameras(_ cameras: [Camera]) -> [Camera] {
        let near = cameras.compactMap { camera -> (Camera, Double)? in
            guard camera.inService, camera.imageURL != nil, let location = camera.location else { return nil }
            let distance = location.kilometres(to: pass.summit)
            return distance <= Self.cameraKm ? (camera, distance) : nil
        }
        return near.sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
    }

    /// Caltrans's highway conditions for the pass's route: `https://roads.dot.ca.gov/roadscell.php?roadnumber=4`.
    static func page(for pass: CaliforniaPass) -> URL {
        let number = pass.route.split(separator: "-").last.map(String.init) ?? pass.route
        return URL(string: "https://roads.dot.ca.gov/roadscell.php?roadnumber=\(number)") ?? URL(string: "https://roads.dot.ca.gov")!
    }
}
