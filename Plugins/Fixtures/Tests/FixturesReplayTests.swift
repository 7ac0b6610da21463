import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Fixtures
import Foundation
import Testing

/// Replaying recorded results: data, timestamps, recorded failures and broken files.
@Suite struct FixturesReplayTests {
    private typealias Support = FixturesTestSupport

    private let snoqualmie = #"{"urn":"pass:snoqualmie","route":"pass:{name}","source":"wsdot","fetchedAt":"2026-11-21T13:59:30Z","data":{"id":"snoqualmie","status":"restricted","temperatureF":29,"restrictions":[{"direction":"Eastbound","text":"Traction tires advised.","status":"restricted"}],"travelAdvisory":null}}"#

    @Test func replaysDataAndFetchedAt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("pass/snoqualmie.json", snoqualmie + "\n")

        let result = try await Support.resolve("pass:snoqualmie", in: folder.url)
        #expect(result.data.serialized() == #"{"id":"snoqualmie","status":"restricted","temperatureF":29,"restrictions":[{"direction":"Eastbound","text":"Traction tires advised.","status":"restricted"}],"travelAdvisory":null}"#)
        #expect(result.fetchedAt == Date(timeIntervalSince1970: 1_795_269_570))
    }

    @Test func schemeIsCaseInsensitiveAndNameIsDecoded() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("pass/white pass.json", #"{"data":{"id":"white"}}"#)
        let result = try await Support.resolve("PASS:white%20pass", in: folder.url)
        #expect(result.data == ["id": "white"])
    }

    @Test func missingFetchedAtMeansNow() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("moon/now.json", #"{"data":{"phase":"full moon"}}"#)
        let result = try await Support.resolve("moon:now", in: folder.url)
        #expect(result.fetchedAt == nil)
        #expect(result.data == ["phase": "full moon"])
    }

    @Test func nonObjectDataIsReplayedAsIs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("list/three.json", #"{"data":[1,2.5,"x",null]}"#)
        #expect(try await Support.resolve("list:three", in: folder.url).data == [1, 2.5, "x", nil])
    }

    @Test(arguments: ErrorKind.allCases)
    func recordedErrorReplaysAsItsKind(kind: ErrorKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("pass/broken.json", #"{"urn":"pass:broken","error":{"kind":"\#(kind.rawValue)","message":"recorded: WSDOT said no"}}"#)
        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("pass:broken", in: folder.url) }
        #expect(error?.kind == kind)
        #expect(error?.message == "recorded: WSDOT said no")
    }

    @Test(arguments: ["timeout", "network", "http", "tooLarge", "cancelled"])
    func recordedNetworkFailureKeepsItsKind(kind: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("pass/down.json", #"{"urn":"pass:down","error":{"kind":"\#(kind)","message":"timed out after 30 s: https://wsdot.wa.gov/x?AccessCode=REDACTED"}}"#)
        do {
            _ = try await Support.resolve("pass:down", in: folder.url)
            Issue.record("a recorded failure must be thrown")
        } catch {
            let report = ConditionsError.report(error)
            #expect(report.kind.rawValue == kind)
            #expect(report.message == "timed out after 30 s: https://wsdot.wa.gov/x?AccessCode=REDACTED")
        }
    }

    @Test(arguments: ["", "two words", "line\nbreak", "kind\u{202E}"])
    func recordedKindThatIsNotAnIdentifierBecomesUpstream(kind: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let record: JSONValue = ["error": ["kind": .string(kind), "message": "failed"]]
        try folder.write("pass/odd.json", record.serialized())
        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("pass:odd", in: folder.url) }
        #expect(error?.kind == .upstream)
        #expect(error?.message == "failed")
    }

    @Test func recordedErrorWithoutDetailsIsAnUpstreamFailure() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("pass/vague.json", #"{"error":{}}"#)
        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("pass:vague", in: folder.url) }
        #expect(error?.kind == .upstream)
        #expect(error?.message == "recorded failure for pass:vague")
    }

    @Test func missingFixtureSuggestsCloseNames() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["snoqualmie", "stevens", "white"] { try folder.write("pass/\(name).json", #"{"data":{}}"#) }
        try folder.write("pass/.snoqualmie-draft.json", #"{"data":{}}"#)
        try folder.write("pass/snoqualmie.txt", "notes")

        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("pass:snoqalmie", in: folder.url) }
        #expect(error?.kind == .notFound)
        #expect(error?.suggestions == ["pass:snoqualmie"])
        #expect(error?.message.contains("pass:snoqalmie") == true)
        #expect(error?.message.contains("snoqalmie.json") == true)
    }

    @Test func unknownSchemeIsNotFoundWithoutSuggestions() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("pass/white.json", #"{"data":{}}"#)
        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("tide:white", in: folder.url) }
        #expect(error?.kind == .notFound)
        #expect(error?.suggestions == [])
    }

    @Test func invalidJSONIsABadResponseWithFileLineAndColumn() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Line 3 is four spaces then ']': the trailing comma leaves ']' where a value belongs.
        try folder.write("pass/bad.json", "{\n  \"data\": [1,\n    ]\n}\n")
        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("pass:bad", in: folder.url) }
        #expect(error?.kind == .badResponse)
        #expect(error?.message.hasSuffix("/pass/bad.json:3:5: unexpected ']', expected a value") == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        (#"{"urn":"pass:nodata","fetchedAt":"2026-11-21T14:05:00Z"}"#, #"has no "data" member"#),
        (#"[{"data":1}]"#, "expected a result object, found array"),
        (#""data""#, "expected a result object, found string"),
        (#"{"data":{},"fetchedAt":"yesterday"}"#, #"fetchedAt "yesterday" is not an ISO 8601 date-time"#),
        ("", "the document is empty"),
    ] as [(String, String)])
    func unusableFilesAreBadResponses(content: String, problem: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("pass/nodata.json", content)
        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("pass:nodata", in: folder.url) }
        #expect(error?.kind == .badResponse)
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("nodata.json") == true)
    }

    @Test func oversizedFileIsRefusedUnread() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("pass/huge.json", "{")
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(16 << 20) + 1)  // sparse: no real disk use
        try handle.close()
        let error = await #expect(throws: ConditionsError.self) { try await Support.resolve("pass:huge", in: folder.url) }
        #expect(error?.kind == .badResponse)
        #expect(error?.message.contains("16777217 bytes") == true)
    }

    @Test func examplesListEveryRecordedURN() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for path in ["pass/white.json", "pass/all.json", "moon/now.json", "phases/5.json", "pass/.hidden.json", "pass/notes.md", "README.md"] {
            try folder.write(path, #"{"data":{}}"#)
        }
        #expect(try Support.source(directory: folder.url).examples == ["moon:now", "pass:all", "pass:white", "phases:5"])
    }

    @Test func routesAndIdentity() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try Support.source(directory: folder.url)
        #expect(source.routes == ["{scheme}:{name}"])
        #expect(FixturesSource.moduleName == "Fixtures")
        #expect(!FixturesSource.summary.isEmpty)
    }
}

/// The module's options: a `directory` that must be a folder, and nothing else.
@Suite struct FixturesOptionsTests {
    private typealias Support = FixturesTestSupport

    @Test func missingDirectoryIsAConfigurationError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.url.appendingPathComponent("nope")
        let error = #expect(throws: ConditionsError.self) { try Support.source(directory: missing) }
        #expect(error?.kind == .configuration)
        #expect(error?.message == "sources.fixtures.options.directory: \(missing.path) is not a folder")
    }

    @Test func aFileIsNotAFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("file.json", "{}")
        let error = #expect(throws: ConditionsError.self) { try Support.source(directory: file) }
        #expect(error?.kind == .configuration)
    }

    @Test func unknownOptionIsAConfigurationError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = JSONObject([("directory", .string(folder.url.path)), ("directroy", "x")])
        let error = #expect(throws: ConditionsError.self) { try FixturesSource(configuration: .testing(instance: "fixtures", options: options, configDirectory: folder.url)) }
        #expect(error?.kind == .configuration)
        #expect(error?.message.contains(#"sources.fixtures.options.directroy (did you mean "directory"?)"#) == true)
    }

    @Test func directoryOfTheWrongTypeIsAConfigurationError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error = #expect(throws: ConditionsError.self) {
            try FixturesSource(configuration: .testing(instance: "fixtures", options: JSONObject([("directory", 3)]), configDirectory: folder.url))
        }
        #expect(error?.message == "sources.fixtures.options.directory: expected a string, found number")
    }

    @Test func relativeDirectoryResolvesAgainstTheConfigFolder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("recorded/pass/white.json", #"{"data":{"id":"white"}}"#)
        let source = try FixturesSource(configuration: .testing(instance: "fixtures", options: JSONObject([("directory", "recorded")]), configDirectory: folder.url))
        #expect(try await source.resolve("pass:white", context: SourceContextBuilder().build()).data == ["id": "white"])
    }

    @Test func defaultDirectoryIsFixturesNextToTheConfig() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("Fixtures/moon/now.json", #"{"data":{"phase":"new moon"}}"#)
        let source = try FixturesSource(configuration: .testing(instance: "fixtures", options: JSONObject(), configDirectory: folder.url))
        #expect(try await source.resolve("moon:now", context: SourceContextBuilder().build()).data == ["phase": "new moon"])
    }
}
