import ConditionsCore

/// The examples `--help` shows, made of the registered modules' own example URNs
/// (`exampleURNs`, one per scheme first), so the help names only what this build answers.
enum HelpExamples {
    static let urns = GlobalOptions.registered.exampleURNs

    /// The example at `index` (a placeholder past the end).
    static func urn(_ index: Int) -> String { ExampleURNs.pick(urns, index) }

    /// The first `count` examples, space-separated.
    static func list(_ count: Int) -> String { (0..<count).map(urn).joined(separator: " ") }

    /// `Examples:` and one indented line per command, comments aligned after the longest.
    static func block(_ lines: [(command: String, comment: String?)]) -> String {
        let width = lines.filter { $0.comment != nil }.map(\.command.count).max() ?? 0
        return "Examples:\n" + lines.map { line in
            guard let comment = line.comment else { return "  " + line.command }
            return "  " + line.command + String(repeating: " ", count: width - line.command.count + 1) + "# " + comment
        }.joined(separator: "\n")
    }
}
