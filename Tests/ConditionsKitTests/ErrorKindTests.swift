import ConditionsKit
import Foundation
import Testing

/// One error vocabulary: `ErrorKind`'s raw values are the output contract's kinds, and no code
/// of the project spells one as a string literal outside the enum's file.
@Suite struct ErrorKindTests {
    @Test func theWireFormatIsTheseStrings() {
        #expect(ErrorKind.allCases.map(\.rawValue) == ["invalidURN", "notFound", "invalidArguments", "configuration", "upstream", "badResponse",
                                                       "network", "timeout", "http", "tooLarge", "cancelled", "internal"])
    }

    @Test func anUpstreamFailureFallsBackAndIsKeptTheAskersMistakeNeither() {
        #expect(ErrorKind.allCases.filter(\.fallsBack) == [.upstream, .badResponse, .network, .timeout, .http, .tooLarge])
        #expect(ErrorKind.allCases.filter { !$0.isObservation } == [.invalidURN, .notFound, .invalidArguments, .configuration])
        let url = "https://x.example/"
        let transport: [HTTPError] = [.dns(host: "x"), .refused(host: "x"), .timeout(seconds: 1, url: url), .status(500, url: url),
                                      .bodyTooLarge(limit: 1, url: url), .tooManyRedirects(url: url), .tls(url: url, detail: "d"),
                                      .transport(url: url, detail: "d"), .proxy(proxy: "p:1", variable: "http_proxy", problem: .refused, url: url)]
        #expect(transport.allSatisfy { $0.kind.fallsBack })
        #expect(ConditionsError.report(CancellationError()).kind == .cancelled)
        struct Unexpected: Error {}
        #expect(ConditionsError.report(Unexpected()).kind == .internal)
    }

    /// A kind's name in a string literal anywhere in `Sources/` or `Plugins/*/Sources` but
    /// `ConditionsError.swift` fails (`spelledKinds`).
    @Test func noKindIsSpelledOutsideTheEnum() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let (spelled, scanned) = try Self.spelledKinds(under: root)
        #expect(scanned > 100, "the scan found the sources")
        #expect(spelled.isEmpty, "spell a kind ErrorKind.<kind> (its rawValue for the wire):\n\(spelled.joined(separator: "\n"))")
    }

    @Test func theScanFindsTheListsThatWereHere() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("error-kinds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Plugins/Some/Sources")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"""
        // "badResponse" in a comment is documentation.
        let recorded = !["invalidURN", "notFound"].contains(kind)
        var kind: String {
            switch self {
            case .dns: return "network"
            case .slow: return "timeout"
            }
        }
        func status(_ text: String) -> Int {
            switch text {
            case "timeout": return 504
            default: return 500
            }
        }
        let limit = try options.double("timeout", in: 0.1...600)
        let secure = scheme == "http" || scheme == "https"
        let reason = "cancelled"
        """#.write(to: folder.appendingPathComponent("Old.swift"), atomically: true, encoding: .utf8)
        let (spelled, scanned) = try Self.spelledKinds(under: root)
        #expect(scanned == 1)
        #expect(spelled == ["Plugins/Some/Sources/Old.swift:2: \"invalidURN\"", "Plugins/Some/Sources/Old.swift:2: \"notFound\"",
                            "Plugins/Some/Sources/Old.swift:5: \"network\"", "Plugins/Some/Sources/Old.swift:6: \"timeout\""])
    }

    @Test func theScanReadsLiteralsNotComments() {
        let source = #"""
        // "notFound" in a comment
        let a = "upstream" /* "timeout" */ + "\(x ? "http" : "b")"
        let raw = #"network"#
        let block = """
            "tooLarge"
            """
        """#
        #expect(Self.stringLiterals(in: source).map { $0.text } == ["upstream", "http", "b", "", "network"])
        #expect(Self.stringLiterals(in: source).map { $0.line } == [2, 2, 2, 2, 3])
    }

    /// Each kind spelled as a string literal in the Swift files of `root`'s `Sources/` and
    /// `Plugins/*/Sources` (`path:line: "kind"`, sorted), and how many files were read. The
    /// words that are also option names, URL schemes and arguments (`timeout`, `http`,
    /// `network`, `cancelled`, `internal`) count only where the code is about a kind: the line,
    /// or the `switch` its `case` is in, says `kind`, or another kind's name stands beside it.
    static func spelledKinds(under root: URL) throws -> (spelled: [String], scanned: Int) {
        let names = Set(ErrorKind.allCases.map(\.rawValue))
        let ambiguous: Set<String> = ["timeout", "http", "network", "cancelled", "internal"]
        var folders = [root.appendingPathComponent("Sources")]
        let plugins = root.appendingPathComponent("Plugins")
        for plugin in (try? FileManager.default.contentsOfDirectory(atPath: plugins.path)) ?? [] {
            folders.append(plugins.appendingPathComponent(plugin).appendingPathComponent("Sources"))
        }
        var spelled: [String] = []
        var scanned = 0
        for folder in folders {
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let path as String in files where path.hasSuffix(".swift") {
                let file = folder.appendingPathComponent(path)
                let shown = String(file.path.dropFirst(root.path.count + 1))
                guard shown != "Sources/ConditionsKit/ConditionsError.swift" else { continue }
                let source = try String(contentsOf: file, encoding: .utf8)
                scanned += 1
                let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                for (line, literals) in Dictionary(grouping: stringLiterals(in: source), by: { $0.line }) {
                    let kinds = Set(literals.map { $0.text }.filter(names.contains))
                    for kind in kinds {
                        var context = lines[line - 1]
                        let code = context.trimmingCharacters(in: .whitespaces)
                        if code.hasPrefix("case ") || code.hasPrefix("default") {
                            // The switch this arm is in, and the line above it (`var kind: … {`).
                            if let start = (max(0, line - 30)..<(line - 1)).last(where: { lines[$0].contains("switch") }) {
                                context += " " + lines[start] + " " + (start > 0 ? lines[start - 1] : "")
                            }
                        }
                        if !ambiguous.contains(kind) || kinds.count > 1 || context.lowercased().contains("kind") {
                            spelled.append("\(shown):\(line): \"\(kind)\"")
                        }
                    }
                }
            }
        }
        return (spelled.sorted(), scanned)
    }

    /// The single-line string literals of Swift `source` with the line each starts on and the
    /// text between the quotes (escaped characters and interpolations left out, the literals
    /// inside an interpolation listed too); comments and multi-line literals skipped.
    static func stringLiterals(in source: String) -> [(line: Int, text: String)] {
        let bytes = Array(source.utf8)
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        let newline = UInt8(ascii: "\n"), backslash = UInt8(ascii: "\\")
        var found: [(line: Int, text: String)] = []
        var line = 1, index = 0
        // Open string literals, innermost last: the line each starts on, where its text
        // starts, its text so far, and the depth of parentheses in the interpolation it is in
        // (0: in the literal itself).
        var strings: [(line: Int, text: [UInt8], depth: Int)] = []
        func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func at(_ wanted: [UInt8]) -> Bool {
            index + wanted.count <= bytes.count && wanted.indices.allSatisfy { bytes[index + $0] == wanted[$0] }
        }
        func skip(past end: [UInt8]) {
            while index < bytes.count, !at(end) {
                if bytes[index] == newline { line += 1 }
                index += 1
            }
            index += end.count
        }
        while index < bytes.count {
            let current = bytes[index]
            if let open = strings.last, open.depth == 0 {
                if current == backslash {
                    if byte(1) == UInt8(ascii: "(") { strings[strings.count - 1].depth = 1 }
                    index += 2
                } else if current == quote || current == newline {
                    strings.removeLast()
                    found.append((open.line, String(decoding: open.text, as: UTF8.self)))
                    if current == newline { line += 1 }
                    index += 1
                } else {
                    strings[strings.count - 1].text.append(current)
                    index += 1
                }
            } else if current == slash, byte(1) == slash {
                while index < bytes.count, bytes[index] != newline { index += 1 }
            } else if current == slash, byte(1) == star {
                skip(past: [star, slash])
            } else if at([quote, quote, quote]) {
                index += 3
                skip(past: [quote, quote, quote])
            } else if current == hash {
                var hashes = 0
                while byte(hashes) == hash { hashes += 1 }
                index += hashes
                guard byte(0) == quote else { continue }
                let close = [quote] + Array(repeating: hash, count: hashes)
                if at([quote, quote, quote]) {
                    index += 3
                    skip(past: [quote, quote, quote] + Array(repeating: hash, count: hashes))
                } else {
                    index += 1
                    let start = index, startLine = line
                    skip(past: close)
                    found.append((startLine, String(decoding: bytes[start..<max(start, index - close.count)], as: UTF8.self)))
                }
            } else {
                if current == quote {
                    strings.append((line, [], 0))
                } else if !strings.isEmpty, current == UInt8(ascii: "(") {
                    strings[strings.count - 1].depth += 1
                } else if !strings.isEmpty, current == UInt8(ascii: ")") {
                    strings[strings.count - 1].depth -= 1
                } else if current == newline {
                    line += 1
                }
                index += 1
            }
        }
        return found
    }
}
