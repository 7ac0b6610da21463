import ConditionsEntities
import ConditionsJSON
import Foundation

/// What a result is (`pass`, `moon`, `phases`, …): the name under which a module's
/// `ResultPresentation` reads it. A source sets it on its `SourceResult`; the host looks the
/// presentation up by it, so text output and `watch` never depend on the shape of `data`.
public struct ResultKind: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The kind's name: `pass`, `moon`, `tide`.
    public let rawValue: String
    /// A kind named `rawValue`; by convention the URN scheme of the routes that produce it.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A kind written as a literal: `"tide"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The kind's name.
    public var description: String { rawValue }
}

/// What `watch` compares between two polls of one URN: a short status a person cares about
/// and details that also count as a change. Fields a presentation leaves out (an "updated"
/// time, say) never make a change on their own.
public struct ChangeKey: Equatable, Sendable {
    /// One word or phrase, printed on change lines and given to hooks: `restricted`, `full moon`.
    public var status: String
    /// Anything else whose change is news (restriction texts, phase dates); never printed.
    public var detail: String

    /// A key of `status` and `detail`.
    public init(status: String, detail: String = "") {
        self.status = status
        self.detail = detail
    }
}

/// How one kind of result reads: its text lines, what of it `watch` compares, and its card on
/// the dashboard page.
///
/// A module lists its presentations in `ConditionsSource.presentations`; the host renders a
/// result through the presentation of its `kind`, whichever source produced it (a replay from
/// the Fixtures module reads exactly like the live answer), and through `GenericPresentation`
/// when no module presents that kind.
///
/// ```swift
/// struct TidePresentation: ResultPresentation {
///     let kind: ResultKind = "tide"
///     func render(_ data: JSONValue, context: PresentationContext) -> [String] {
///         ["\(context.style.bold(context.urn))  \(data["height"]?.doubleValue ?? 0) ft"]
///     }
///     func changeKey(_ data: JSONValue) -> ChangeKey {
///         ChangeKey(status: data["stage"]?.stringValue ?? "unknown")
///     }
/// }
/// ```
public protocol ResultPresentation: Sendable {
    /// The kind of result this presents.
    var kind: ResultKind { get }
    /// The text lines for `data` (no trailing newlines). `data` comes from outside the module
    /// as often as not (a hand-edited fixture, an old cache entry), so a missing or ill-typed
    /// member must degrade the text, never trap.
    func render(_ data: JSONValue, context: PresentationContext) -> [String]
    /// What `watch` compares for `data`.
    func changeKey(_ data: JSONValue) -> ChangeKey
    /// `data` as a card on a page: title, status, drawing, labelled rows, link, map position.
    /// Like `render`, it must degrade (to `ResultCard.text`, say) on data it does not
    /// recognise, never trap. Default: `ResultCard.text`, the text lines as they are.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard
    /// The map this module adds for the kind (each module's its own: WSDOT Washington's, Caltrans
    /// California's); a card goes on the first whose frame holds its `coordinate`. Nil: none.
    var map: MapLayer? { get }
    /// Whether the dashboard draws the last 48 hours of this kind's statuses under its card,
    /// from the history store: right for a status that changes at any hour (a road's), not
    /// for one that changes on a timetable (the moon's phase). Default: false.
    var showsHistory: Bool { get }
    /// What is worth telling a person of the change from `previous` to `current` (both this
    /// kind's data), or nil when it is not news. Default: a notice of priority 3 whenever the
    /// change key changes (`Notice`).
    func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice?
    /// `data` as Home Assistant entities (`serve` publishes them over MQTT); like `render`, it
    /// degrades (a state `.null`), never traps. Default: a sensor of the first text line.
    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity]
}

extension ResultPresentation {
    /// The text lines as a card (`ResultCard.text`).
    public func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        ResultCard.text(of: self, data: data, context: context)
    }

    /// No map.
    public var map: MapLayer? { nil }
    /// No history under the card.
    public var showsHistory: Bool { false }

    /// When the change key changes: a notice of priority 3 titled with the URN and its new
    /// status, the text as its body. Modules say better what is news (a pass closing).
    public func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
        let after = changeKey(current)
        guard changeKey(previous) != after else { return nil }
        return Notice(title: "\(context.urn): \(after.status)", body: render(current, context: context).joined(separator: "\n"), priority: .normal)
    }

    /// One sensor, `state`: the first plain text line (HA keeps 255 characters of a state), the
    /// data's members its attributes.
    public func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let line = render(data, context: context).first.map { String($0.prefix(255)) }
        let attributes = data.objectValue.map { Dictionary($0.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) } ?? [:]
        return [.sensor("state", name: "State", state: line.map(JSONValue.string) ?? .null, attributes: attributes)]
    }
}

/// The host's services a presentation renders with: terminal styling, local time formatting
/// in the config location's zone, the URN asked and the place's name.
public struct PresentationContext {
    /// The URN as asked; most presentations print it first, in bold.
    public let urn: String
    /// Colour and weight, off when output is not a terminal.
    public let style: TextStyle
    /// The config location's name, when it has one.
    public let placeName: String?
    /// The config location, when the host gives it (the moon's card mirrors its drawing south
    /// of the equator).
    public let place: Place?
    private let formatTime: (Date, LocalTimeStyle) -> String

    /// A context; the host makes these, tests may too (`localTime` formats in the place's zone).
    public init(urn: String, style: TextStyle, placeName: String?, localTime: @escaping (Date, LocalTimeStyle) -> String) {
        self.init(urn: urn, style: style, placeName: placeName, place: nil, localTime: localTime)
    }

    /// A context that also knows the config's `place`.
    public init(urn: String, style: TextStyle, placeName: String?, place: Place?, localTime: @escaping (Date, LocalTimeStyle) -> String) {
        self.urn = urn
        self.style = style
        self.placeName = placeName
        self.place = place
        formatTime = localTime
    }

    /// `date` in the location's zone, formatted as `style` says.
    public func localTime(_ date: Date, _ style: LocalTimeStyle) -> String {
        formatTime(date, style)
    }
}

/// The ways the host formats a local time; every presentation uses the same few, so all
/// output agrees.
public enum LocalTimeStyle: Sendable {
    /// `06:30 PST`
    case time
    /// `Sat Nov 21 06:30 PST`, with the year (`Sat Nov 21 2025 06:30 PST`) when not the current one.
    case dateTime
    /// `Sat Nov 21 2026`: a day, year always shown.
    case date
}

/// ANSI styling. The host decides whether it is on (a terminal, no `NO_COLOR`, not `TERM=dumb`);
/// presentations only choose which words to emphasise.
public struct TextStyle: Sendable {
    /// Whether escape sequences are written at all.
    public let enabled: Bool

    /// A style writing escapes when `enabled`.
    public init(enabled: Bool) { self.enabled = enabled }
    /// No escapes: plain text.
    public static let plain = TextStyle(enabled: false)
    /// Bold.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dim (labels, secondary text).
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Red (closed, failed).
    public func red(_ text: String) -> String { wrap(text, "31") }
    /// Green (open, fine).
    public func green(_ text: String) -> String { wrap(text, "32") }
    /// Yellow (restricted, stale, warnings).
    public func yellow(_ text: String) -> String { wrap(text, "33") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
