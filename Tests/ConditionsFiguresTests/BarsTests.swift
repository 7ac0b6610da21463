import ConditionsFigures
import Testing

/// `Drawing.bars`: days as bars to scale from zero, gaps for days not reported, the notes
/// under them.
@Suite("Drawing.bars: a bar per slot")
struct BarsTests {
    @Test("a value that is not finite is a slot not reported, never a bar")
    func nonFiniteValues() {
        #expect(Drawing.Slot("a", .nan).value == nil)
        #expect(Drawing.Slot("a", .infinity).value == nil)
        #expect(Drawing.Slot("a", -.infinity).value == nil)
        #expect(Drawing.Slot("a", 2.5).value == 2.5)
        #expect(Drawing.Slot("a", nil).value == nil)
    }

    @Test("bars to scale from zero; a gap for a slot not reported; zero and below get no height")
    func geometry() {
        let chart = Drawing.bars(title: "New snow per day", unit: "in",
                                 [.init("Jan 1", 2), .init("Jan 2", nil), .init("Jan 3", 8), .init("Jan 4", 0), .init("Jan 5", -3)],
                                 summary: "words")
        #expect(chart.frame == .strip(height: 72) && chart.x == 0...50 && chart.y == 0...100)
        #expect(chart.title == "New snow per day" && chart.summary == "words")
        #expect(chart.notes == ["New snow per day", "Jan 1 – Jan 5", "top 8 in"])
        #expect(chart.marks.map(\.shape) == [
            .rect(x: 1...9, y: 0...25), .rect(x: 21...29, y: 0...100), .rect(x: 31...39, y: 0...0), .rect(x: 41...49, y: 0...0),
        ])
        #expect(chart.marks.map(\.label) == ["Jan 1: 2 in", "Jan 3: 8 in", "Jan 4: 0 in", "Jan 5: -3 in"])
        #expect(chart.marks.allSatisfy { $0.ink == .accent })
    }

    @Test("nothing above zero: every bar flat, none divided by zero; no slots: no bars")
    func flat() {
        let flat = Drawing.bars(title: "t", unit: "in", [.init("a", 0), .init("b", -1)], summary: "s")
        #expect(flat.marks.map(\.shape) == [.rect(x: 1...9, y: 0...0), .rect(x: 11...19, y: 0...0)])
        #expect(flat.notes.last == "top 0 in")
        let empty = Drawing.bars(title: "t", unit: "", [], summary: "s")
        #expect(empty.marks.isEmpty && empty.x == 0...10 && empty.notes == ["t", " – ", "top 0"])
    }

    @Test("values as labels and the scale say them: two decimals at most")
    func text() {
        #expect(Drawing.text(0.333333, unit: "in") == "0.33 in")
        #expect(Drawing.text(2.5, unit: "in") == "2.5 in")
        #expect(Drawing.text(2.0, unit: "") == "2")
        #expect(Drawing.text(1e300, unit: "in") == "1e+300 in")
        #expect(Drawing.text(.nan, unit: "in") == "0 in")
        #expect(Drawing.text(-3.456, unit: "°F") == "-3.46 °F")
    }
}
