import ConditionsJSON
import ConditionsKit
import Foundation

/// What is news of a pass (issue 43): closed → 5; reopened → 4; traction tires or chains
/// required or lifted, or a chain-control level up or down → 4; any other change of its
/// restrictions or status → 3; the temperature, the forecast or the report's time changing
/// is not. The image is the pass's first camera, the link its page. For `pass:all` the most
/// urgent pass's notice, its title counting the others that changed.
extension PassPresentation {
    public func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
        if let passes = current["passes"]?.arrayValue {
            var before: [String: JSONValue] = [:]
            for pass in previous["passes"]?.arrayValue ?? [] { if let id = pass["id"]?.stringValue { before[id] = pass } }
            let notices = passes.compactMap { pass -> Notice? in
                guard let id = pass["id"]?.stringValue, let old = before[id] else { return nil }
                return passNotice(from: old, to: pass, context: context)
            }
            // The first of the most urgent: `max` would keep the last.
            guard let top = notices.first(where: { $0.priority == notices.map(\.priority).max() }) else { return nil }
            var notice = top
            if notices.count > 1 { notice.title += " (and \(notices.count - 1) more \(notices.count == 2 ? "pass" : "passes"))" }
            notice.body = notices.map(\.title).joined(separator: "\n")
            return notice
        }
        guard Self.isPass(current), Self.isPass(previous) else { return nil }
        return passNotice(from: previous, to: current, context: context)
    }

    private func passNotice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
        let name = current["name"]?.stringValue ?? context.urn
        let before = PassStatus(rawValue: previous["status"]?.stringValue ?? "") ?? .unknown
        let after = PassStatus(rawValue: current["status"]?.stringValue ?? "") ?? .unknown
        let was = Requirements(previous), now = Requirements(current)
        let title: String, priority: Notice.Priority, tags: [String]
        if after == .closed, before != .closed {
            let words = Self.closedBy(current).map { ": \($0)" } ?? ""
            (title, priority, tags) = ("\(name) closed\(words)", .urgent, ["rotating_light", "closed"])
        } else if before == .closed, after != .closed {
            (title, priority, tags) = ("\(name) reopened: \(after.rawValue)", .high, ["white_check_mark", "reopened"])
        } else if was != now {
            (title, priority, tags) = ("\(name): \(now.change(from: was))", .high, ["snowflake", "chains"])
        } else if changeKey(previous) != changeKey(current) {
            (title, priority, tags) = ("\(name): \(after.rawValue), restrictions changed", .normal, ["warning", after.rawValue])
        } else {
            return nil
        }
        let camera = (current["cameras"]?.arrayValue ?? []).lazy.compactMap { $0["imageURL"]?.stringValue.flatMap(URL.init(string:)) }
            .first { $0.scheme?.lowercased() == "https" }
        let page = current["url"]?.stringValue.flatMap(URL.init(string:)).flatMap { ["https", "http"].contains($0.scheme?.lowercased() ?? "") ? $0 : nil }
        return Notice(title: title, body: render(current, context: context).joined(separator: "\n"), priority: priority, tags: tags,
                      link: page, image: camera)
    }
}

/// What a pass asks of a driver, read from every direction: traction tires required, chains
/// required (WSDOT's words), and the strictest chain-control level (Caltrans's). "Advised" is
/// not required.
struct Requirements: Equatable {
    var tires = false
    var chains = false
    var level: ChainControl?

    init(_ pass: JSONValue) {
        for restriction in pass["restrictions"]?.arrayValue ?? [] {
            let text = (restriction["text"]?.stringValue ?? "").lowercased()
            if text.contains("traction tires required") || text.contains("traction tire required") { tires = true }
            if text.contains("chains required") || text.contains("chains are required") { chains = true }
            if let level = restriction["level"]?.stringValue.flatMap(ChainControl.init(level:)) { self.level = max(self.level ?? level, level) }
        }
        // A level names chains itself; R-0 none.
        if let level, level > .r0 { chains = true }
    }

    /// What changed from `before`, in a driver's words: "chains required", "R-1 → R-2",
    /// "traction tires no longer required".
    func change(from before: Requirements) -> String {
        if let level, let old = before.level, level != old { return "\(old.rawValue) → \(level.rawValue)" }
        var said: [String] = []
        if chains != before.chains { said.append(chains ? "chains required" : "chains no longer required") }
        if tires != before.tires { said.append(tires ? "traction tires required" : "traction tires no longer required") }
        if said.isEmpty, let level { said.append(level.rawValue) }
        return said.joined(separator: ", ")
    }
}
