import ConditionsJSON
import Foundation

/// A change worth telling a person, pushed to a phone (ntfy), a webhook or any Apprise service:
/// what a kind's presentation makes of the previous result and the new one
/// (`ResultPresentation.notice(from:to:context:)`).
public struct Notice: Sendable, Equatable {
    /// How urgent, as ntfy's priorities are: 1 (min) … 5 (urgent).
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        case min = 1, low, normal, high, urgent

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// One line: `Stevens Pass US 2 closed`.
    public var title: String
    /// The result as the module's text presentation reads it, plain (the host keeps at most
    /// 4,096 bytes).
    public var body: String
    /// How urgent.
    public var priority: Priority
    /// Words a receiver may filter on; ntfy shows emoji short codes (`rotating_light`) as emoji.
    public var tags: [String]
    /// A page to open (the pass's page).
    public var link: URL?
    /// An image to show (the pass's first camera).
    public var image: URL?

    /// A notice.
    public init(title: String, body: String, priority: Priority, tags: [String] = [], link: URL? = nil, image: URL? = nil) {
        self.title = title
        self.body = body
        self.priority = priority
        self.tags = tags
        self.link = link
        self.image = image
    }
}
