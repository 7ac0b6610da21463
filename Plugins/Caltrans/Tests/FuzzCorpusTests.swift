import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsPass
import Foundation
import Testing
@testable import Caltrans

/// The `caltrans` fuzz target's seeds (`Plugins/Caltrans/Fuzz/corpus/caltrans`) replayed as the
/// target reads them: the first byte the status, the second the file that gets the body, the
/// others valid. Each must resolve or fail with an error, and its text, change key and card be
/// made, never trap.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus/caltrans")

    @Test func everySeedResolvesOrFailsCleanly() async throws {
        let seeds = try FileManager.default.contentsOfDirectory(at: Self.corpus, includingPropertiesForKeys: nil).sorted { $0.path < $1.path }
        #expect(seeds.count >= 3)
        let statuses = [200, 200, 200, 200, 200, 200, 404, 500, 503]
        var answered = 0
        for seed in seeds {
            let bytes = [UInt8](try Data(contentsOf: seed))
            try #require(bytes.count > 1)
            let status = statuses[Int(bytes[0]) % statuses.count]
            let fuzzed = ["cc", "lcs", "cctv"][Int(bytes[1]) % 3]
            let body = Data(bytes.dropFirst(2))
            let valid = [Path.cc(10): try fixture(Body.chainControls10), Path.lcs(10): try fixture(Body.laneClosures10), Path.cctv(10): try fixture(Body.cameras10)]
            let http = RecordingHTTPClient { request in
                let file = request.url.pathComponents.dropLast().last ?? ""
                if file == fuzzed { return HTTPResponse(status: status, headers: ["content-type": "application/json"], body: body, url: request.url) }
                return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: valid[request.url.path] ?? Data(), url: request.url)
            }
            let source = try makeSource(#"{"baseURL": "https://cwwp2.example", "districts": [10]}"#)
            for urn in ["pass:ebbetts", "pass:sonora", "pass:all"] {
                guard let result = try? await source.resolve(urn, context: context(http)) else { continue }
                answered += 1
                let presentation = PassPresentation(publisher: "Caltrans", map: nil)
                let presented = PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in "\(date)" }
                #expect(!presentation.render(result.data, context: presented).isEmpty)
                _ = presentation.changeKey(result.data)
                _ = presentation.card(result.data, context: presented)
            }
        }
        #expect(answered > 0, "the seeds are real files: some answer")
    }
}
