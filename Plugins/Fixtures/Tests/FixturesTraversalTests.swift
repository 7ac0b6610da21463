import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Fixtures
import Foundation
import Testing

/// The module must never read outside its folder, whatever the URN says.
@Suite struct FixturesTraversalTests {
    private typealias Support = FixturesTestSupport

    /// A fixture folder plus, beside it, a valid fixture that must stay unreachable: if a check
    /// let a name through, resolving would succeed and the test would fail.
    private struct Layout {
        let fixtures: TemporaryFolder
        let outside: TemporaryFolder
        let secret: URL

        init() throws {
            fixtures = try TemporaryFolder()
            outside = try TemporaryFolder()
            secret = try outside.write("secret.json", #"{"data":{"leaked":true}}"#)
            try outside.write("pass/secret.json", #"{"data":{"leaked":true}}"#)
            try fixtures.write("pass/white.json", #"{"data":{"id":"white"}}"#)
        }

        func remove() {
            fixtures.remove()
            outside.remove()
        }
    }

    /// Routed as the host routes it (the source's `{scheme}:{name}` bound to the URN's scheme),
    /// `urn` is refused by the source.
    private func expectRefused(_ urn: String, in directory: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await expectRefused(Support.source(directory: directory).location(for: urn), in: directory, sourceLocation: sourceLocation)
    }

    private func expectRefused(_ location: Location, in directory: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let source = try Support.source(directory: directory)
        let error = await #expect(throws: ConditionsError.self, sourceLocation: sourceLocation) {
            try await source.resolve(location, context: SourceContextBuilder().build())
        }
        guard let error else { return }
        #expect(error.kind == .invalidArguments, "\(error.message)", sourceLocation: sourceLocation)
        #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 }, "message must be one printable line", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["..", "../x", "../../secret", "a/b", "/etc/passwd", ".hidden", ".", "a\\b", "..\\secret", "a\u{0}b", "white\u{0}", "a\nb", "a\u{7F}b", ""])
    func hostileNamesAreInvalidArguments(name: String) async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try await expectRefused(Support.location(name: name), in: layout.fixtures.url)
    }

    @Test func relativeNameReachingTheSecretIsRefused() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        // From <fixtures>/pass/, this name would reach <outside>/secret.json.
        let name = "../../" + layout.outside.url.lastPathComponent + "/secret"
        try await expectRefused(Support.location(name: name), in: layout.fixtures.url)
    }

    @Test(arguments: ["pass:..%2F..%2Fetc%2Fpasswd", "pass:%2E%2E", "pass:%2e%2e%2fx", "pass:a%5Cb", "pass:%2Fetc%2Fpasswd", "pass:.hidden"])
    func percentEncodedTraversalIsRefused(urn: String) async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try await expectRefused(urn, in: layout.fixtures.url)
    }

    @Test(arguments: ["..:white", ".pass:white", ".:white"])
    func hostileSchemesAreRefused(urn: String) async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try await expectRefused(urn, in: layout.fixtures.url)
    }

    @Test func symlinkedFilePointingOutsideIsRefused() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try FileManager.default.createSymbolicLink(at: layout.fixtures.url.appendingPathComponent("pass/leak.json"), withDestinationURL: layout.secret)
        try await expectRefused("pass:leak", in: layout.fixtures.url)
    }

    @Test func relativeSymlinkEscapingTheFolderIsRefused() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        let target = "../../" + layout.outside.url.lastPathComponent + "/secret.json"
        try FileManager.default.createSymbolicLink(atPath: layout.fixtures.url.appendingPathComponent("pass/leak.json").path, withDestinationPath: target)
        try await expectRefused("pass:leak", in: layout.fixtures.url)
    }

    @Test func symlinkedSchemeFolderPointingOutsideIsRefused() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        try FileManager.default.createSymbolicLink(at: layout.fixtures.url.appendingPathComponent("evil"), withDestinationURL: layout.outside.url.appendingPathComponent("pass"))
        try await expectRefused("evil:secret", in: layout.fixtures.url)
    }

    @Test func symlinkInsideTheFolderIsAllowed() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        let pass = layout.fixtures.url.appendingPathComponent("pass")
        try FileManager.default.createSymbolicLink(at: pass.appendingPathComponent("alias.json"), withDestinationURL: pass.appendingPathComponent("white.json"))
        try FileManager.default.createSymbolicLink(atPath: layout.fixtures.url.appendingPathComponent("pass2").path, withDestinationPath: "pass")
        #expect(try await Support.resolve("pass:alias", in: layout.fixtures.url).data == ["id": "white"])
        #expect(try await Support.resolve("pass2:white", in: layout.fixtures.url).data == ["id": "white"])
    }

    @Test func fixtureFolderReachedThroughASymlinkStillWorks() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        let link = layout.outside.url.appendingPathComponent("linked-fixtures")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: layout.fixtures.url)
        #expect(try await Support.resolve("pass:white", in: link).data == ["id": "white"])
    }

    @Test func siblingFolderSharingThePrefixIsOutside() async throws {
        // <fixtures>-evil starts with the same characters as <fixtures> but is not inside it.
        let layout = try Layout()
        defer { layout.remove() }
        let sibling = URL(fileURLWithPath: layout.fixtures.url.path + "-evil")
        try FileManager.default.createDirectory(at: sibling, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: sibling) }
        try Data(#"{"data":{"leaked":true}}"#.utf8).write(to: sibling.appendingPathComponent("secret.json"))
        try FileManager.default.createSymbolicLink(at: layout.fixtures.url.appendingPathComponent("pass/leak.json"), withDestinationURL: sibling.appendingPathComponent("secret.json"))
        try await expectRefused("pass:leak", in: layout.fixtures.url)
    }
}
