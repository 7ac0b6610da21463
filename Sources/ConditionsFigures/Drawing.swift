/// A figure made of marks over two axes, which the dashboard draws without knowing what it
/// shows (grammar-of-graphics style, as Vega-Lite's marks and Grafana's panels are): a module
/// composes a wind rose, a tide curve or a danger scale from this small closed set, and no
/// line of the host changes for it.
///
/// Positions are values on the axes: `x` runs from the left edge to the right, `y` from the
/// bottom edge to the top. Inks are words, not colours, so both colour schemes and forced
/// colours hold; `Ink.fill` is for colours the data itself gives (a danger level's).
///
/// ```swift
/// // Two bars and a rule across at 5, in a strip 72 px tall.
/// Drawing(title: "New snow", summary: "8 in on Mon, 3 in on Tue", frame: .strip(height: 72),
///         x: 0...2, y: 0...10, marks: [
///             .init(.rect(x: 0.1...0.9, y: 0...8), ink: .accent, label: "Mon: 8 in"),
///             .init(.rect(x: 1.1...1.9, y: 0...3), ink: .accent, label: "Tue: 3 in"),
///             .init(.rule(.init(x: 0, y: 5), .init(x: 2, y: 5)), ink: .muted),
///         ])
/// ```
public struct Drawing: Sendable, Equatable {
    /// What it shows, in a few words: its accessible name.
    public var title: String
    /// What a person who cannot see it needs to know, in a sentence.
    public var summary: String
    /// How it sits on the card.
    public var frame: Frame
    /// The values at the left and right edges.
    public var x: ClosedRange<Double>
    /// The values at the bottom and top edges.
    public var y: ClosedRange<Double>
    /// Drawn in order: a later mark covers an earlier one.
    public var marks: [Mark]
    /// Shown under the drawing, on a line of its own before the notes and the key, as its
    /// visible title (`Tonight, sunset to sunrise`); nil: the title is only its accessible name.
    public var caption: String?
    /// Words under the drawing, under a rule along its bottom edge (a chart's baseline), spread
    /// across its width and wrapping as they must: a visible title, the range shown, the scale
    /// (`New snow per day`, `Nov 14 – Dec 13`, `top 8 in`).
    public var notes: [String]
    /// The key under the drawing, in order: what an ink stands for.
    public var key: [Key]

    /// A drawing of `marks` over `x` and `y`.
    public init(title: String, summary: String, frame: Frame, x: ClosedRange<Double>, y: ClosedRange<Double>,
                marks: [Mark], caption: String? = nil, notes: [String] = [], key: [Key] = []) {
        self.title = title
        self.caption = caption
        self.summary = summary
        self.frame = frame
        self.x = x
        self.y = y
        self.marks = marks
        self.notes = notes
        self.key = key
    }

    /// How a drawing sits on the card.
    public enum Frame: Sendable, Equatable {
        /// A square `rem` wide (a card's moon: 9): circles stay round, text scales with it.
        case square(rem: Double)
        /// The card's width and `height` pixels: a chart over time. Text keeps its size and
        /// strokes their width; circles and arcs are stretched with the width.
        case strip(height: Double)
    }

    /// A position in the axes' values.
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double

        /// The point at `x`, `y`.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// One shape in one ink, with what it says when pointed at.
    public struct Mark: Sendable, Equatable {
        public var shape: Shape
        public var ink: Ink
        /// Said on hover and to screen readers (`Mon Nov 24: 8 in`); nil: nothing.
        public var label: String?

        /// `shape` in `ink`.
        public init(_ shape: Shape, ink: Ink, label: String? = nil) {
            self.shape = shape
            self.ink = ink
            self.label = label
        }
    }

    /// The marks a drawing is made of.
    public enum Shape: Sendable, Equatable {
        /// A rectangle or a bar, filled; `inset` pulls its left and right edges in by pixels
        /// once placed, and `corner` rounds it (pixels).
        case rect(x: ClosedRange<Double>, y: ClosedRange<Double>, inset: Inset = .zero, corner: Double = 0)
        /// A line through the points, stroked.
        case line([Point])
        /// The region between the line through the points and `base` on the y axis, filled.
        case area([Point], base: Double)
        /// A straight line from one point to another, stroked (an axis, a threshold).
        case rule(Point, Point)
        /// Words at a point, anchored there by their start, middle or end, in a role's type,
        /// moved `dx` pixels right once placed (left when negative).
        case text(String, at: Point, anchor: Anchor, role: TextRole = .label, dx: Double = 0)
        /// A disc; its radius is in the x axis' values.
        case circle(Point, radius: Double)
        /// A sector of a ring around `center`, between two radii (the inner one 0 for a slice of
        /// pie) and two angles, in degrees clockwise from straight up; radii in the x axis' values.
        case arc(center: Point, radii: ClosedRange<Double>, degrees: ClosedRange<Double>)
        /// SVG path data (`M`, `L`, `H`, `V`, `C`, `S`, `Q`, `T`, `A`, `Z`, absolute or relative)
        /// in a unit box: (0, 0) the frame's top left, (1, 1) its bottom right. Anything else in
        /// the string draws nothing.
        case path(String)
    }

    /// How far, in pixels, a rectangle's edges are pulled in from where its values place
    /// them, as a page pads a box: `leading` moves the left edge right, `trailing` the right
    /// edge left. Values are in pixels in a strip, in hundredths of the side in a square;
    /// below zero counts as zero. A box that starts where a column of 114-pixel labels ends
    /// and runs to the right edge: `.rect(x: 0...1, y: …, inset: .init(leading: 114))`.
    public struct Inset: Sendable, Equatable {
        public var leading: Double
        public var trailing: Double

        /// No inset: the edges where the values place them.
        public static let zero = Inset()

        /// Edges pulled in by `leading` and `trailing` pixels.
        public init(leading: Double = 0, trailing: Double = 0) {
            self.leading = leading
            self.trailing = trailing
        }
    }

    /// The type words are set in, as the card sets its own text, so words in a drawing read
    /// as the card's: sizes follow the reader's text size. In a square they scale with it.
    public enum TextRole: String, Sendable, Equatable {
        /// A chart's small words: ticks, times, a scale (12 px).
        case label
        /// The card's own text size: a row's label.
        case body
        /// A value that must stand out: bold, a little larger than the body.
        case value
        /// The drawing's visible title, above it.
        case heading
        /// A caption over part of the drawing (`Tomorrow`): smaller than the body.
        case note
    }

    /// Where text hangs from its point.
    public enum Anchor: String, Sendable, Equatable {
        case start, middle, end
    }

    /// What a mark is drawn in: a role the page colours for its scheme, or a colour the data
    /// itself gives.
    public enum Ink: Sendable, Equatable {
        /// The text's colour.
        case text
        /// Secondary: axes, ticks, labels.
        case muted
        /// The one colour data is drawn in (a bar, a curve).
        case accent
        /// A status' tones.
        case good, caution, bad, neutral
        /// A highlight laid over other marks (a window of time), translucent.
        case highlight
        /// The sky from light to dark: 0 day … 4 night.
        case sky(Int)
        /// The Moon's lit and dark parts, and its rim.
        case lit, dark, rim
        /// `#RRGGBB` from the data (anything else draws in grey), the same in both schemes.
        case fill(String)
        /// A value not known: hatched, never read as a value (an hour without a forecast).
        case unknown
    }

    /// A key entry: `label` beside a swatch of `ink`.
    public struct Key: Sendable, Equatable {
        public var ink: Ink
        public var label: String

        /// `label` for `ink`.
        public init(_ label: String, ink: Ink) {
            self.ink = ink
            self.label = label
        }
    }
}
