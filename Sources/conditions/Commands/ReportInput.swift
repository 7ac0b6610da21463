import Foundation
import ConditionsCore

/// Where a report's URNs come from: arguments, `-` for standard input, or the config's list.
enum ReportInput {
    /// Expands `-` into the URNs read from stdin: one per line, blank lines and `#` comments
    /// ignored, surrounding whitespace trimmed.
    /// A closed stdin reads as empty; one that cannot be read is a usage error.
    static func urns(arguments: [String], configured: [String]) throws(Failure) -> [String] {
        try urns(arguments: arguments, configured: configured) { () throws(Failure) -> String in
            switch StandardStreams.readInput() {
            case .success(let text): return text
            case .failure(let error): throw Failure.usage(error.description)
            }
        }
    }

    static func urns(arguments: [String], configured: [String], readStandardInput: () throws(Failure) -> String) throws(Failure) -> [String] {
        guard !arguments.isEmpty else { return configured }
        var result: [String] = []
        var stdinRead = false
        for argument in arguments {
            guard argument == "-" else { result.append(argument); continue }
            guard !stdinRead else { continue }
            stdinRead = true
            result += parseList(try readStandardInput())
        }
        return result
    }

    static func parseList(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
    }
}
