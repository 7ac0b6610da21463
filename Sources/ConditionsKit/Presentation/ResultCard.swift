import ConditionsFigures
import ConditionsGeo
import ConditionsJSON
import Foundation

/// A result as a card on a page (the dashboard of `conditions serve`): what a presentation
/// says about its data in parts a page can lay out, so the page never guesses at the keys of
/// data it does not own.
///
/// Every string is plain text as the upstream gave it; the page escapes it. A presentation
/// without a card of its own gets `ResultCard.text`: its text lines, shown as they are.
///
/// ```swift
/// ResultCard(title: "Stevens Pass US 2", status: .init("restricted", tone: .caution),
///            rows: [.init("Eastbound", "Traction tires required", tone: .caution)],
///            link: .init(url: url, label: "WSDOT's page"),
///            coordinate: .init(latitude: 47.745, longitude: -121.093333))
/// ```
public struct ResultCard: Sendable, Equatable {
    /// The card's heading: a pass's name, "Moon".
    public var title: String
    /// A line under the heading (a place's name), if any.
    public var subtitle: String?
    /// The one-word state a person looks for first, if the result has one.
    public var status: Status?
    /// A drawing for the card, composed of marks by the module (the moon as it looks, a chart,
    /// coloured bands); the page draws any composition.
    public var figure: Drawing?
    /// A picture from the upstream (a pass's camera), shown once it scrolls into view.
    public var image: Image?
    /// Labelled facts in reading order.
    public var rows: [Row]
    /// Lines of free text, shown as written (whitespace kept): a kind's text presentation.
    public var lines: [String]
    /// When the upstream wrote the report (a pass's "last updated"), for "updated … ago".
    public var updated: Date?
    /// Set when the report itself is old news (an off-season pass's months-old report): what
    /// to say about it, e.g. `report from Sat Nov 2 2026, 3 weeks old`.
    public var staleNote: String?
    /// Where the upstream shows the same thing to people.
    public var link: Link?
    /// Where the result is, for the presentation's map (`ResultPresentation.map`).
    public var coordinate: GeoPoint?
    /// The marker's label on the map ("Stevens" for "Stevens Pass US 2"); nil: the title.
    public var mapLabel: String?
    /// Cards inside this one (`pass:all`: one per pass).
    public var parts: [ResultCard]

    /// A card; every part but the title is optional.
    public init(title: String, subtitle: String? = nil, status: Status? = nil, figure: Drawing? = nil, image: Image? = nil,
                rows: [Row] = [], lines: [String] = [], updated: Date? = nil, staleNote: String? = nil, link: Link? = nil,
                coordinate: GeoPoint? = nil, parts: [ResultCard] = []) {
        self.title = title
        self.subtitle = subtitle
        self.status = status
        self.figure = figure
        self.image = image
        self.rows = rows
        self.lines = lines
        self.updated = updated
        self.staleNote = staleNote
        self.link = link
        self.coordinate = coordinate
        self.parts = parts
    }

    /// The card of a kind without a card of its own: the URN as title and the text lines of
    /// `presentation` (without styling) as they are.
    public static func text(of presentation: some ResultPresentation, data: JSONValue, context: PresentationContext) -> ResultCard {
        var lines = presentation.render(data, context: context.plain)
        // Most presentations start with the URN, which is already the title.
        if lines.first == context.urn { lines.removeFirst() }
        return ResultCard(title: context.urn, lines: lines)
    }

    /// How good a status is; a page shows it with a word and an icon as well as a colour.
    public enum Tone: String, Sendable, CaseIterable {
        /// Open, fine.
        case good
        /// Restricted, take care.
        case caution
        /// Closed, failed.
        case bad
        /// Nothing to judge (unknown).
        case neutral
    }

    /// A status word and how good it is: `restricted` / `.caution`.
    public struct Status: Sendable, Equatable {
        /// The word, lower case as the data says it: `open`, `restricted`, `closed`.
        public var word: String
        /// How good it is.
        public var tone: Tone

        /// A status `word` of `tone`.
        public init(_ word: String, tone: Tone) {
            self.word = word
            self.tone = tone
        }
    }

    /// One labelled fact: `Eastbound` / `Traction tires advised`.
    public struct Row: Sendable, Equatable {
        /// The label (may be empty).
        public var label: String
        /// The value.
        public var value: String
        /// How good the value is, when it is a state of its own (a direction's restriction).
        public var tone: Tone?
        /// A small drawing beside the value (a phase's moon).
        public var figure: Drawing?

        /// A row `label`: `value`.
        public init(_ label: String, _ value: String, tone: Tone? = nil, figure: Drawing? = nil) {
            self.label = label
            self.value = value
            self.tone = tone
            self.figure = figure
        }
    }

    /// A picture the upstream publishes: an https URL a page loads lazily, and what it shows.
    public struct Image: Sendable, Equatable {
        /// The image (pages show only https images).
        public var url: URL
        /// What the picture shows, for people who cannot see it: a camera's title.
        public var alt: String

        /// The picture at `url`, described by `alt`.
        public init(url: URL, alt: String) {
            self.url = url
            self.alt = alt
        }
    }

    /// A link out: the upstream's own page.
    public struct Link: Sendable, Equatable {
        /// Where it points.
        public var url: URL
        /// What the link text says.
        public var label: String

        /// A link to `url` reading `label`.
        public init(url: URL, label: String) {
            self.url = url
            self.label = label
        }
    }
}

extension PresentationContext {
    /// The same context without terminal styling (for text shown on a page).
    public var plain: PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: placeName, place: place) { self.localTime($0, $1) }
    }
}
