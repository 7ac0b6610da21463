import ConditionsKit
import Testing

@Suite("BarChart: the card's bar chart")
struct BarChartTests {
    @Test("a value that is not finite is a slot not reported, never a bar")
    func nonFiniteValues() {
        #expect(BarChart.Bar("a", .nan).value == nil)
        #expect(BarChart.Bar("a", .infinity).value == nil)
        #expect(BarChart.Bar("a", -.infinity).value == nil)
        #expect(BarChart.Bar("a", 2.5).value == 2.5)
        #expect(BarChart.Bar("a", nil).value == nil)
    }

    @Test("the scale tops out at the largest value, and at 0 when nothing is above zero")
    func scale() {
        func chart(_ values: [Double?]) -> BarChart {
            BarChart(title: "t", unit: "in", bars: values.map { BarChart.Bar("x", $0) }, summary: "s")
        }
        #expect(chart([1, 8.5, nil, 3]).scaleMaximum == 8.5)
        #expect(chart([-2, nil, 0]).scaleMaximum == 0)
        #expect(chart([]).scaleMaximum == 0)
    }
}
