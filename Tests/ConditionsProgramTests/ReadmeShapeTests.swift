import Foundation
import Testing

/// The README is the map (issue 41): at most 350 lines, none longer than 120 characters; the
/// detail lives in docs/ and each plugin's README.
@Suite struct ReadmeShapeTests {
    @Test func theMapIsShortAndNarrow() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        #expect(lines.count <= 350, "README.md has \(lines.count) lines")
        for (number, line) in zip(1..., lines) where line.count > 120 {
            Issue.record("README.md:\(number) has \(line.count) characters: \(line.prefix(60))…")
        }
    }
}
