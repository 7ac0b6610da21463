import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import Foundation

/// A pass as Home Assistant entities: its status (an enum sensor), closed and traction (binary
/// sensors), the temperature, each direction's restriction text, and the report's time. Every
/// member is read defensively: one missing or of another type gives that entity no state
/// (`.null`, "unknown" in HA), never a trap, and the fixed keys are always there, so HA's
/// entities do not come and go with the data.
///
/// `pass:all` is one device, so it gets one pass's entities: the most urgent pass's (closed,
/// then restricted, then unknown, then open; the first of equals), named in the status's `pass`
/// attribute. Closed thus reads on whenever any pass is closed, and what a driver sees is one
/// pass's whole story rather than a mix of several passes' values.
extension PassPresentation {
    /// The `status` entity's states, in the data contract's words.
    static let statusOptions = PassStatus.allCases.map(\.rawValue)
    /// The keys the presentation always gives; a direction whose key would be one of them is
    /// suffixed so no key is given twice.
    static let fixedKeys: Set<String> = ["status", "closed", "traction", "temperature", "report_age"]
    /// A pass has two directions (four at most, a checkpoint's in each); a corrupt cache with
    /// thousands of rows would otherwise flood HA with entities.
    static let maxDirections = 8
    /// HA keeps at most 255 characters of a state (Python's, so Unicode scalars).
    static let maxState = 255

    public func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        guard let passes = data["passes"]?.arrayValue else { return Self.passEntities(data) }
        let ranked = passes.map { Self.urgency(Self.status(of: $0)) }
        guard let top = ranked.indices.max(by: { ranked[$0] < ranked[$1] || (ranked[$0] == ranked[$1] && $0 > $1) }) else {
            return Self.passEntities(.null, among: true)
        }
        return Self.passEntities(passes[top], among: true)
    }

    /// One pass's entities; `among` a `pass:all` answer, the status names the pass.
    static func passEntities(_ pass: JSONValue, among: Bool = false) -> [Entity] {
        let closure = closure(of: pass)
        let status = closure.closed ? PassStatus.closed.rawValue : statusWord(of: pass)
        var shared: [String: JSONValue] = [:]
        if let camera = camera(of: pass) { shared["camera"] = .string(camera) }
        var statusAttributes = shared
        if among { statusAttributes["pass"] = JSONValue(pass["name"]?.stringValue ?? pass["id"]?.stringValue) }
        if let reason = pass["unknownBecause"]?.stringValue { statusAttributes["unknownBecause"] = .string(reason) }
        var closedAttributes = shared
        closedAttributes["closedBy"] = JSONValue(closure.words)
        // Closed on when any direction is; unknown when the status is (a closure may not have
        // been seen); off otherwise.
        let closed: Bool? = closure.closed ? true : (status == nil || status == PassStatus.unknown.rawValue) ? nil : false
        let traction = traction(of: pass, status: status)
        var tractionAttributes: [String: JSONValue] = [:]
        if let level = traction.level { tractionAttributes["level"] = .string(level.rawValue) }

        var entities: [Entity] = [
            .choice("status", name: "Status", status, options: statusOptions, attributes: statusAttributes),
            .binary("closed", name: "Closed", on: closed, attributes: closedAttributes),
            .binary("traction", name: "Traction tires or chains required", on: traction.on, icon: "mdi:car-traction-control",
                    attributes: tractionAttributes),
            .measurement("temperature", name: "Temperature", pass["temperatureF"]?.doubleValue, unit: "°F", deviceClass: "temperature"),
        ]
        var keys = fixedKeys
        for restriction in (pass["restrictions"]?.arrayValue ?? []).prefix(maxDirections) {
            let direction = restriction["direction"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let key = uniqueKey(directionKey(direction), taken: &keys)
            var attributes: [String: JSONValue] = ["status": JSONValue(restriction["status"]?.stringValue), "current": .bool(isCurrent(restriction))]
            if let level = restriction["level"]?.stringValue { attributes["level"] = .string(level) }
            entities.append(.sensor(key, name: direction.isEmpty ? "Direction" : direction,
                                    state: JSONValue(restriction["text"]?.stringValue.map(clipped)), icon: "mdi:sign-direction",
                                    attributes: attributes))
        }
        entities.append(.time("report_age", name: "Report time", pass["updated"]?.dateValue, category: "diagnostic"))
        return entities
    }

    /// One of `statusOptions`: closed whenever the closure reading says so, whatever the status
    /// word; else the data's word.
    static func status(of pass: JSONValue) -> String? {
        closure(of: pass).closed ? PassStatus.closed.rawValue : statusWord(of: pass)
    }

    /// The data's status word as one of `statusOptions` (any other word is unknown: a word this
    /// presentation does not know never reads open); nil without one.
    static func statusWord(of pass: JSONValue) -> String? {
        guard let word = pass["status"]?.stringValue else { return nil }
        return (PassStatus(rawValue: word.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()) ?? .unknown).rawValue
    }

    /// How urgent a pass's status is, for choosing `pass:all`'s pass.
    static func urgency(_ status: String?) -> Int {
        switch status.flatMap(PassStatus.init(rawValue:)) {
        case .closed: 4
        case .restricted: 3
        case .unknown: 2
        case .open: 1
        case nil: 0
        }
    }

    /// Whether the pass is closed and the words that closed it. Closed when the data says so
    /// (its status, `closedBy`, a direction's status) or when the closure reader, run again
    /// over the restriction texts and the road condition, reads a closure: data written before
    /// a rule was added (a cache, an old recording) is not trusted to read open. The words: the
    /// data's `closedBy` as the text shows them, else the reader's sentences, else the closed
    /// directions' texts; nil when open or when nothing says which words.
    static func closure(of pass: JSONValue) -> (closed: Bool, words: String?) {
        let restrictions = pass["restrictions"]?.arrayValue ?? []
        var fields: [JSONValue] = [], sentences: [JSONValue] = []
        func read(_ closure: RoadClosure?, field: String) {
            guard let closure else { return }
            if !fields.contains(.string(field)) { fields.append(.string(field)) }
            for sentence in closure.sentences where !sentences.contains(.string(sentence)) { sentences.append(.string(sentence)) }
        }
        for restriction in restrictions {
            read(restriction["text"]?.stringValue.flatMap { RoadClosure(in: $0, isRestriction: true) }, field: "restrictions")
        }
        read(pass["conditions"]?.stringValue.flatMap { RoadClosure(in: $0, isRestriction: false) }, field: "conditions")
        let saysClosed = pass["status"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == PassStatus.closed.rawValue
            || !(pass["closedBy"]?.arrayValue ?? []).isEmpty
            || restrictions.contains { $0["status"]?.stringValue == PassStatus.closed.rawValue }
        guard saysClosed || !fields.isEmpty else { return (false, nil) }
        let rows = restrictions.filter { $0["status"]?.stringValue == PassStatus.closed.rawValue }.compactMap { row in
            row["text"]?.stringValue.map { "\(row["direction"]?.stringValue ?? "—"): \($0)" }
        }
        let words = closedBy(pass) ?? closedBy(["closedBy": .array(fields), "closedByText": .array(sentences)])
            ?? (rows.isEmpty ? nil : rows.joined(separator: " · "))
        return (true, words)
    }

    /// Whether traction tires or chains are required in any direction: a restriction's words
    /// (`Requirements`, as notices read them) or a chain-control level above R-0, a direction's
    /// or any checkpoint's. Unknown when nothing requires them but the pass's status is unknown
    /// (an unread checkpoint may be at R-2) or there are no restrictions to read.
    static func traction(of pass: JSONValue, status: String?) -> (on: Bool?, level: ChainControl?) {
        let requirements = Requirements(pass)
        var level = requirements.level
        for checkpoint in pass["checkpoints"]?.arrayValue ?? [] {
            if let found = checkpoint["level"]?.stringValue.flatMap(ChainControl.init(level:)) { level = max(level ?? found, found) }
        }
        if requirements.tires || requirements.chains || (level ?? .r0) > .r0 { return (true, level) }
        guard pass["restrictions"]?.arrayValue != nil, let status, status != PassStatus.unknown.rawValue else { return (nil, level) }
        return (false, level)
    }

    /// The first camera's still image with an https URL (as the card and the notice show it:
    /// HA's frontend over https would not load another).
    static func camera(of pass: JSONValue) -> String? {
        (pass["cameras"]?.arrayValue ?? []).lazy.compactMap { $0["imageURL"]?.stringValue }
            .first { URL(string: $0)?.scheme?.lowercased() == "https" }
    }

    /// `Eastbound` → `eastbound`, `North-bound` → `north_bound`: lowercased, anything but ASCII
    /// letters and digits an underscore; `direction` when nothing is left.
    static func directionKey(_ direction: String) -> String {
        let key = String(direction.lowercased().unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        })
        return key.contains { $0 != "_" } ? key : "direction"
    }

    /// `key`, or `key_2`, `key_3`, … when a fixed key or an earlier direction has it.
    static func uniqueKey(_ key: String, taken: inout Set<String>) -> String {
        var candidate = key, number = 1
        while taken.contains(candidate) {
            number += 1
            candidate = "\(key)_\(number)"
        }
        taken.insert(candidate)
        return candidate
    }

    /// `text` cut to what HA keeps of a state.
    static func clipped(_ text: String) -> String {
        text.unicodeScalars.count <= maxState ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(maxState)))
    }
}
