import ConditionsFigures
import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Logging
import Testing
@testable import WSDOT

/// `snowfall:` URNs: WSDOT's SnowFallData answers (derived from the real monthly figures in
/// Resources/real), read tolerantly; seasons on the Pacific calendar; the summary; the text,
/// `watch` key and card.
@Suite("Snowfall: SnowFallData, seasons, summary, presentation")
struct SnowfallTests {
    static let service = "https://wsdot.com/Travel/Real-time/Service/api/MountainPass/SnowFallData"
    static func url(_ id: Int, _ season: Int, base: String = service) -> String { "\(base)?MountainPassId=\(id)&Year=\(season)" }
    static let snoqualmie2023 = url(11, 2023)
    static let stevens2022 = url(10, 2022)
    /// 2025-11-21 06:00 PST: the 2025–26 season is under way.
    static let november2025 = Date(timeIntervalSince1970: 1_763_733_600)

    static func fixtures() throws -> RecordingHTTPClient {
        RecordingHTTPClient([snoqualmie2023: try .jsonFixture("real/DERIVED_wsdot_snowfall_snoqualmie_2023-24.json"),
                             stevens2022: try .jsonFixture("real/DERIVED_wsdot_snowfall_stevens_2022-23.json")])
    }

    static func body(_ text: String) -> RecordingHTTPClient.Reply { .body(Data(text.utf8), contentType: "application/json; charset=utf-8") }

    /// Resolves `urn` at `now` as the host would.
    static func resolve(_ urn: String, source: WSDOTPassSource? = nil, http: any HTTPClient, now: Date = november2025) async throws -> SourceResult {
        let source = try source ?? makeSource()
        return try await source.resolve(urn, context: SourceContextBuilder(now: now, logger: Logger(label: "test"), http: http).build())
    }

    static func error(_ urn: String, source: WSDOTPassSource? = nil, http: any HTTPClient, now: Date = november2025) async -> ConditionsError? {
        do {
            _ = try await resolve(urn, source: source, http: http, now: now)
            return nil
        } catch let error as ConditionsError {
            return error
        } catch {
            return ConditionsError(.internal, "\(error)")
        }
    }

    // MARK: Decoding the derived answers

    @Test("Snoqualmie 2023–24: every day in order, the summary counted back from the last one, one request")
    func snoqualmieSeason() async throws {
        let http = try Self.fixtures()
        let result = try await Self.resolve("snowfall:snoqualmie:2023", http: http)
        #expect(result.kind == .snowfall)
        let data = result.data
        #expect(data["id"] == "snoqualmie")
        #expect(data["name"] == "Snoqualmie Pass I-90")
        #expect(data["season"] == 2023)
        #expect(data["seasonName"] == "2023–24")
        #expect(data["note"] == .null)
        #expect(data["url"] == "https://wsdot.com/travel/real-time/mountainpasses/snoqualmie")
        let days = try #require(data["days"]?.arrayValue)
        // October 1 to May 31, every day: 31 + 30 + 31 + 31 + 29 + 31 + 30 + 31.
        #expect(days.count == 244)
        #expect(days.first == ["date": "2023-10-01", "newSnowIn": 0.1, "depthIn": 0, "seasonTotalIn": 0.1])
        #expect(days.last == ["date": "2024-05-31", "newSnowIn": 0, "depthIn": 4, "seasonTotalIn": 389.9])
        #expect(days.contains { $0["date"] == "2024-02-29" }, "a leap day")
        let dates = days.compactMap { $0["date"]?.stringValue }
        #expect(dates == dates.sorted())
        // May 25–31 report 0, 0, 0.1, 0, 0, 0.1, 0 in.
        #expect(data["summary"] == ["latestDay": "2024-05-31", "depthIn": 4, "seasonTotalIn": 389.9, "newSnow24hIn": 0,
                                    "newSnow7dIn": 0.2, "daysReported": 244])
        let months = try #require(data["months"]?.arrayValue)
        #expect(months.count == 8)
        #expect(months.first == ["month": "2023-10", "avgNewSnowIn": 0.087096, "avgDepthIn": 0])
        #expect(http.urls.map(\.absoluteString) == [Self.snoqualmie2023])
    }

    @Test("Stevens 2022–23: a sparse month, thousandths of an inch, a season total with decimals")
    func stevensSeason() async throws {
        let data = try await Self.resolve("snowfall:stevens:2022", http: try Self.fixtures()).data
        let days = try #require(data["days"]?.arrayValue)
        let december = days.filter { $0["date"]?.stringValue?.hasPrefix("2022-12-") == true }
        #expect(december.count == 26, "December 2022 reports 26 of its 31 days")
        let february = days.filter { $0["date"]?.stringValue?.hasPrefix("2023-02-") == true }
        #expect(february.count == 27)
        #expect(february.contains { $0["newSnowIn"] == 1.43 })
        #expect(data["summary"]?["seasonTotalIn"] == 477.767)
        #expect(data["summary"]?["latestDay"] == "2023-04-30")
        #expect(data["summary"]?["depthIn"] == 98)
        // April 24–30: 0, 0, 0, 7.2, 0, 0, 0 in.
        #expect(data["summary"]?["newSnow7dIn"] == 7.2)
        #expect(data["summary"]?["newSnow24hIn"] == 0)
    }

    /// The fixtures' claim (Resources/real/SOURCES.md): each month's fields are the real CSV's,
    /// and the days' means match them.
    @Test("each decoded month keeps the real monthly figures, and its days average to them")
    func monthsMatchTheRealFigures() throws {
        let csv = String(decoding: try fixture("real/wsdot_snowfall_monthly_snoqualmie-2023_stevens-2022.csv"), as: UTF8.self)
        let rows = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(rows.count == 15)
        for (name, season) in [("real/DERIVED_wsdot_snowfall_snoqualmie_2023-24.json", 2023), ("real/DERIVED_wsdot_snowfall_stevens_2022-23.json", 2022)] {
            let record = try SnowfallRecord(data: try fixture(name), season: SnowfallSeason(startYear: season), url: "test")
            let real = rows.filter { $0[1] == String(season) && ($0[0] == (season == 2023 ? "11" : "10")) }
            #expect(record.months.count == real.count)
            for row in real {
                let year = try #require(Int(row[4])), month = try #require(Int(row[2]))
                let decoded = try #require(record.months.first { $0.year == year && $0.month == month }, "\(name) \(row[6])")
                #expect(decoded.avgNewSnowIn == Double(row[7]))
                #expect(decoded.avgDepthIn == Double(row[8]))
                let days = record.days.filter { $0.date.year == year && $0.date.month == month }
                let new = days.compactMap(\.newSnowIn), depth = days.compactMap(\.depthIn)
                #expect(!days.isEmpty && new.count == days.count && depth.count == days.count)
                #expect(abs(new.reduce(0, +) / Double(new.count) - (decoded.avgNewSnowIn ?? -1)) < 0.002, "\(name) \(row[6])")
                #expect(depth.reduce(0, +) / Double(depth.count) == decoded.avgDepthIn, "\(name) \(row[6])")
            }
        }
    }

    // MARK: Tolerant reads

    @Test("unknown members are ignored; a month name stands in for monthNum and the season for year")
    func tolerantMonths() throws {
        let body = #"""
        [{"month": "January", "displayOrder": 4, "avgNewSnowfallInches": 2, "colour": "blue",
          "dailySnowFall": [{"day": 2, "newDailySnowFall": 2.5, "totalSnowFall": 40, "accumulatedSnowFall": 100.5, "station": "summit"}]},
         {"month": "Dec", "monthNum": 12, "dailySnowFall": [{"day": 31, "newDailySnowFall": "1.5", "totalSnowFall": "", "accumulatedSnowFall": 98}]},
         {"month": "Nov", "monthNum": 11, "year": 2025, "avgNewSnowfallInches": null, "dailySnowFall": null},
         {"month": "Oct", "monthNum": 10, "year": 2025}]
        """#
        let record = try SnowfallRecord(data: Data(body.utf8), season: SnowfallSeason(startYear: 2025), url: "test")
        #expect(record.days == [
            .init(date: try #require(CivilDate(year: 2025, month: 12, day: 31)), newSnowIn: 1.5, depthIn: nil, seasonTotalIn: 98),
            .init(date: try #require(CivilDate(year: 2026, month: 1, day: 2)), newSnowIn: 2.5, depthIn: 40, seasonTotalIn: 100.5),
        ])
        #expect(record.months.map { "\($0.year)-\($0.month)" } == ["2025-10", "2025-11", "2025-12", "2026-1"])
        #expect(record.months.last?.avgNewSnowIn == 2)
    }

    @Test("a date reported twice keeps its first report; null figures are not reported")
    func duplicatesAndNulls() throws {
        let body = #"""
        [{"monthNum": 1, "year": 2024, "dailySnowFall": [
           {"day": 5, "newDailySnowFall": null, "totalSnowFall": null, "accumulatedSnowFall": null},
           {"day": 5, "newDailySnowFall": 9, "totalSnowFall": 9, "accumulatedSnowFall": 9},
           {"day": 4, "newDailySnowFall": 1}]}]
        """#
        let record = try SnowfallRecord(data: Data(body.utf8), season: SnowfallSeason(startYear: 2023), url: "test")
        #expect(record.days.map(\.date.iso) == ["2024-01-04", "2024-01-05"])
        #expect(record.days[1] == .init(date: try #require(CivilDate(year: 2024, month: 1, day: 5))))
    }

    @Test("bodies that are not SnowFallData's shape are badResponse naming the URL and the member", arguments: [
        ("<!DOCTYPE html><html><body>Service unavailable</body></html>", "SnowFallData answer is not JSON"),
        ("", "SnowFallData answer is not JSON"),
        (#"[{"monthNum": 11, "dailySnowFall": [{"day": 1, "newDaily"#, "SnowFallData answer is not JSON"),
        (#"{"Message": "An error has occurred."}"#, #"expected an array of months, found object saying "An error has occurred.""#),
        ("42", "expected an array of months, found number"),
        ("[1]", "SnowFallData [0]: expected an object (a month), found number"),
        (#"[{"monthNum": 13}]"#, "SnowFallData [0].monthNum: expected a whole number from 1 to 12, found 13"),
        (#"[{"monthNum": 11.5}]"#, "SnowFallData [0].monthNum: expected a whole number from 1 to 12, found 11.5"),
        (#"[{"year": 2025}]"#, "SnowFallData [0].monthNum: missing, and no month name either"),
        (#"[{"month": "Brumaire"}]"#, #"SnowFallData [0].month: "Brumaire" is not a month name"#),
        (#"[{"monthNum": 2, "year": 2023, "dailySnowFall": [{"day": 29}]}]"#, "SnowFallData [0].dailySnowFall[0].day: 29 is not a day of Feb 2023"),
        (#"[{"monthNum": 2, "dailySnowFall": [{"newDailySnowFall": 1}]}]"#, "SnowFallData [0].dailySnowFall[0].day: missing"),
        (#"[{"monthNum": 2, "dailySnowFall": {"day": 1}}]"#, "SnowFallData [0].dailySnowFall: expected an array or null, found object"),
        (#"[{"monthNum": 2, "dailySnowFall": ["1"]}]"#, "SnowFallData [0].dailySnowFall[0]: expected an object (a day), found string"),
        (#"[{"monthNum": 2, "dailySnowFall": [{"day": 1, "newDailySnowFall": "lots"}]}]"#,
         #"SnowFallData [0].dailySnowFall[0].newDailySnowFall: expected a number or null, found string "lots""#),
        (#"[{"monthNum": 2, "dailySnowFall": [{"day": 1, "totalSnowFall": true}]}]"#,
         "SnowFallData [0].dailySnowFall[0].totalSnowFall: expected a number or null, found boolean"),
        (#"[{"monthNum": 2, "dailySnowFall": [{"day": 1, "accumulatedSnowFall": 1e300}]}]"#,
         "SnowFallData [0].dailySnowFall[0].accumulatedSnowFall: 1e+300 is out of range"),
    ])
    func badBodies(body: String, expected: String) async throws {
        let http = RecordingHTTPClient([Self.snoqualmie2023: Self.body(body)])
        let error = try #require(await Self.error("snowfall:snoqualmie:2023", http: http))
        #expect(error.kind == .badResponse)
        #expect(error.message.hasPrefix(Self.snoqualmie2023 + ": "), "\(error.message)")
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test("an HTTP failure is the HTTP error, not a decoding one")
    func httpFailure() async throws {
        let http = RecordingHTTPClient([Self.snoqualmie2023: .errorPage(503)])
        do {
            _ = try await Self.resolve("snowfall:snoqualmie:2023", http: http)
            Issue.record("resolved")
        } catch let error as HTTPError {
            #expect(error.kind == .http)
        }
    }

    // MARK: Empty seasons

    @Test("a season with no data yet is an empty result that says so, not an error")
    func emptyCurrentSeason() async throws {
        let http = RecordingHTTPClient([Self.url(11, 2025): Self.body("[]")])
        let result = try await Self.resolve("snowfall:snoqualmie", http: http)
        #expect(result.data["days"] == [])
        #expect(result.data["months"] == [])
        #expect(result.data["summary"] == ["latestDay": nil, "depthIn": nil, "seasonTotalIn": nil, "newSnow24hIn": nil, "newSnow7dIn": nil,
                                           "daysReported": 0])
        #expect(result.data["note"] == "No snowfall reported yet for the 2025–26 season at Snoqualmie Pass I-90.")
        let context = PresentationContext(urn: "snowfall:snoqualmie", style: .plain, placeName: nil) { _, _ in "" }
        #expect(SnowfallPresentation().render(result.data, context: context) == [
            "Snoqualmie Pass I-90  2025–26 season",
            "  No snowfall reported yet for the 2025–26 season at Snoqualmie Pass I-90.",
        ])
        let card = SnowfallPresentation().card(result.data, context: context)
        #expect(card.figure == nil)
        #expect(card.rows.isEmpty)
        #expect(card.lines == ["No snowfall reported yet for the 2025–26 season at Snoqualmie Pass I-90."])
        #expect(SnowfallPresentation().changeKey(result.data) == ChangeKey(status: "no snowfall reported"))
    }

    @Test("a past season without data, and months without daily figures, say so in their own words")
    func emptyPastSeason() async throws {
        let http = RecordingHTTPClient([Self.url(12, 2004): Self.body("[]"),
                             Self.url(12, 2005): Self.body(#"[{"month": "Dec", "monthNum": 12, "year": 2005, "avgNewSnowfallInches": 1.5, "avgTotalSnowfallInches": 20}]"#)])
        #expect(try await Self.resolve("snowfall:white:2004", http: http).data["note"] == "WSDOT reports no snowfall for the 2004–05 season at White Pass US 12.")
        let months = try await Self.resolve("snowfall:white:2005", http: http).data
        #expect(months["note"] == "WSDOT gives monthly averages but no daily figures for the 2005–06 season at White Pass US 12.")
        #expect(months["months"] == [["month": "2005-12", "avgNewSnowIn": 1.5, "avgDepthIn": 20]])
    }

    // MARK: Seasons

    @Test("this season turns over on August 1 in Pacific time, not UTC", arguments: [
        // 2025-07-31 23:59:59 PDT and 2025-08-01 00:00 PDT.
        (1_754_031_599.0, 2024), (1_754_031_600.0, 2025),
        // 2025-08-01 03:00 UTC is still July 31 in Seattle.
        (1_754_017_200.0, 2024),
        // New Year's Eve and Day 2025/26 in Seattle, and mid-July 2026.
        (1_767_254_399.0, 2025), (1_767_254_400.0, 2025), (1_784_160_000.0, 2025),
    ])
    func currentSeason(seconds: Double, season: Int) async throws {
        let now = Date(timeIntervalSince1970: seconds)
        #expect(SnowfallSeason.current(at: now).startYear == season)
        let http = RecordingHTTPClient([Self.url(11, season): Self.body("[]")])
        let result = try await Self.resolve("snowfall:snoqualmie", http: http, now: now)
        #expect(result.data["season"] == .int(season))
        #expect(http.urls.map(\.absoluteString) == [Self.url(11, season)])
    }

    @Test("season names, across a century too", arguments: [(2023, "2023–24"), (1999, "1999–00"), (2009, "2009–10"), (2000, "2000–01")])
    func seasonNames(year: Int, name: String) {
        #expect(SnowfallSeason(startYear: year).name == name)
    }

    @Test("a season argument that is no 4-digit year on record is invalidArguments, with no request", arguments: [
        ("23", "expected the 4-digit year the season starts in (2024 for 2024–25), from 1999"),
        ("2023-24", "expected the 4-digit year"),
        ("２０２３", "expected the 4-digit year"),
        ("+202", "expected the 4-digit year"),
        ("1998", "expected 1999 (WSDOT's first season on record) to 2025 (the season under way, 2025–26)"),
        ("0000", "expected 1999"),
        ("2026", "the 2026–27 season has not started yet; expected 1999 (WSDOT's first season on record) to 2025"),
        ("9999", "the 9999–00 season has not started yet"),
    ])
    func badSeasons(text: String, expected: String) async throws {
        let http = RecordingHTTPClient([:])
        let error = try #require(await Self.error("snowfall:snoqualmie:\(text)", http: http))
        #expect(error.kind == .invalidArguments)
        #expect(error.message.hasPrefix("invalid season \"\(text)\": "), "\(error.message)")
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(http.urls.isEmpty)
    }

    @Test("the first season on record and the one under way are accepted")
    func edgeSeasons() async throws {
        let http = RecordingHTTPClient([Self.url(11, 1999): Self.body("[]"), Self.url(11, 2025): Self.body("[]")])
        #expect(try await Self.resolve("snowfall:snoqualmie:1999", http: http).data["season"] == 1999)
        #expect(try await Self.resolve("snowfall:snoqualmie:2025", http: http).data["note"]?.stringValue?.contains("yet") == true)
    }

    // MARK: Passes

    @Test("a pass without a record is notFound naming the passes that have one, with no request")
    func passWithoutRecord() async throws {
        let http = RecordingHTTPClient([:])
        let error = try #require(await Self.error("snowfall:chinook", http: http))
        #expect(error.kind == .notFound)
        #expect(error.message == "WSDOT keeps no snowfall record for Chinook Pass SR 410; only blewett, sherman, stevens, snoqualmie, white have one")
        let typo = try #require(await Self.error("snowfall:snoqalmie:2023", http: http))
        #expect(typo.kind == .notFound)
        #expect(typo.message == "no pass named \"snoqalmie\"; WSDOT has snowfall records for blewett, sherman, stevens, snoqualmie, white")
        #expect(typo.suggestions == ["snowfall:snoqualmie"])
        #expect(http.urls.isEmpty)
    }

    @Test("a pass by id or in any spelling; every mode, whatever passes it serves", arguments: ["11", "Snoqualmie", "SNOQUALMIE"])
    func passSpellings(name: String) async throws {
        let api = try makeSource(.json(#"{"mode": "api", "accessCode": "s3cr3t", "passes": ["white"]}"#))
        let data = try await Self.resolve("snowfall:\(name):2023", source: api, http: try Self.fixtures()).data
        #expect(data["id"] == "snoqualmie")
        #expect(data["summary"]?["daysReported"] == 244)
    }

    // MARK: The request and the option

    @Test("snowfallURL: MountainPassId and Year join its own query")
    func customURL() async throws {
        let base = "http://127.0.0.1:8080/snow/SnowFallData?format=json"
        let source = try makeSource(.json(#"{"snowfallURL": " \#(base) "}"#))
        let http = RecordingHTTPClient([base + "&MountainPassId=1&Year=2021": Self.body("[]")])
        let data = try await Self.resolve("snowfall:blewett:2021", source: source, http: http).data
        #expect(data["id"] == "blewett")
        #expect(http.urls.map(\.absoluteString) == [base + "&MountainPassId=1&Year=2021"])
    }

    @Test("snowfallURL must be an absolute http(s) URL string; the error names its path", arguments: [
        (#""ftp://wsdot.com/SnowFallData""#, #"sources.wsdot.options.snowfallURL: "ftp://wsdot.com/SnowFallData" is not an absolute http or https URL"#),
        (#""/api/SnowFallData""#, "sources.wsdot.options.snowfallURL: \"/api/SnowFallData\" is not an absolute http or https URL"),
        ("42", "sources.wsdot.options.snowfallURL"),
    ])
    func badSnowfallURL(value: String, expected: String) throws {
        let error = try #require(configurationError(try .json(#"{"snowfallURL": \#(value)}"#)))
        #expect(error.kind == .configuration)
        #expect(error.message.contains(expected), "\(error.message)")
    }

    // MARK: Summary

    static func day(_ iso: String, new: Double? = nil, depth: Double? = nil, total: Double? = nil) throws -> SnowfallRecord.Day {
        SnowfallRecord.Day(date: try #require(CivilDate(iso: iso)), newSnowIn: new, depthIn: depth, seasonTotalIn: total)
    }

    static func summary(_ days: [SnowfallRecord.Day]) throws -> SnowfallReport.Summary {
        SnowfallReport(pass: try #require(PassCatalog.pass(named: "stevens")), season: SnowfallSeason(startYear: 2025), isCurrentSeason: true,
                       record: SnowfallRecord(months: [], days: days), url: URL(string: "https://wsdot.com/")!).summary
    }

    @Test("7 days means the latest day and the 6 before it; days not reported add nothing")
    func weekWindow() throws {
        let summary = try Self.summary([
            try Self.day("2025-12-01", new: 50, depth: 50, total: 50),   // 8 days before the latest: outside
            try Self.day("2025-12-02", new: 3, depth: 52, total: 53),    // the window's first day
            try Self.day("2025-12-05", new: 4.25),                       // no depth, no total
            try Self.day("2025-12-08", new: 1.5, depth: nil, total: nil),
        ])
        #expect(summary.latestDay?.iso == "2025-12-08")
        #expect(summary.newSnow24hIn == 1.5)
        #expect(summary.newSnow7dIn == 8.75)
        #expect(summary.depthIn == 52, "the most recent depth reported")
        #expect(summary.seasonTotalIn == 58.75, "the last total plus the new snow of days reporting none")
        #expect(summary.daysReported == 4)
    }

    @Test("a latest day without a new-snow figure; a season without totals sums its new snow")
    func missingFigures() throws {
        let summary = try Self.summary([try Self.day("2026-01-30", new: 2), try Self.day("2026-01-31", new: 1), try Self.day("2026-02-01", depth: 80)])
        #expect(summary.newSnow24hIn == nil)
        #expect(summary.newSnow7dIn == 3)
        #expect(summary.seasonTotalIn == 3)
        #expect(summary.depthIn == 80)
        let none = try Self.summary([try Self.day("2026-02-01", depth: 80)])
        #expect(none.newSnow7dIn == nil && none.seasonTotalIn == nil)
    }

    // MARK: Presentation

    static var plain: PresentationContext { PresentationContext(urn: "snowfall:snoqualmie:2023", style: .plain, placeName: "Seattle") { _, _ in "" } }

    @Test("sparkline: scaled to the most, any snow above the floor, a gap for a day not reported", arguments: [
        ([nil, 0, 1, 2, 8] as [Double?], "·▁▂▃█"),
        ([0, 0, 0], "▁▁▁"),
        ([5, 5], "██"),
        ([0.1, 7, 3.5, -1, nil, nil], "▂█▅▁··"),
        ([], ""),
    ])
    func sparkline(values: [Double?], expected: String) {
        #expect(SnowfallPresentation.sparkline(values) == expected)
    }

    @Test("text: the pass, the season, the summary and a 14-day sparkline ending on the latest day")
    func text() async throws {
        let data = try await Self.resolve("snowfall:snoqualmie:2023", http: try Self.fixtures()).data
        #expect(SnowfallPresentation().render(data, context: Self.plain) == [
            "Snoqualmie Pass I-90  2023–24 season",
            "  Depth         4 in",
            "  Season total  389.9 in",
            "  Last 24 h     0 in",
            "  Last 7 days   0.2 in",
            "  Last 14 days  ▁▁▁█▁█▁▁▁█▁▁█▁  May 18 – May 31, most 0.1 in",
            "                latest report Fri May 31 2024 · 244 days reported",
        ])
        let stevens = try await Self.resolve("snowfall:stevens:2022", http: try Self.fixtures()).data
        let lines = SnowfallPresentation().render(stevens, context: Self.plain)
        #expect(lines.contains("  Season total  477.8 in"))
        #expect(lines.contains { $0.hasPrefix("  Last 14 days  ") && $0.hasSuffix("Apr 17 – Apr 30, most 11.2 in") }, "\(lines)")
    }

    @Test("watch: a new season total changes the status, a newly reported day the detail")
    func changeKey() async throws {
        let data = try await Self.resolve("snowfall:snoqualmie:2023", http: try Self.fixtures()).data
        let key = SnowfallPresentation().changeKey(data)
        #expect(key == ChangeKey(status: "389.9 in this season", detail: "2024-05-31"))
        guard case .object(var object) = data, case .object(var summary)? = object["summary"] else { Issue.record("not an object"); return }
        summary["latestDay"] = "2024-06-01"
        object["summary"] = .object(summary)
        #expect(SnowfallPresentation().changeKey(.object(object)) == ChangeKey(status: "389.9 in this season", detail: "2024-06-01"))
        summary["seasonTotalIn"] = 392
        object["summary"] = .object(summary)
        #expect(SnowfallPresentation().changeKey(.object(object)).status == "392 in this season")
        // The depth settling is no news.
        summary["depthIn"] = 2
        object["summary"] = .object(summary)
        #expect(SnowfallPresentation().changeKey(.object(object)) == ChangeKey(status: "392 in this season", detail: "2024-06-01"))
    }

    @Test("card: the summary as rows, a 30-day bar chart with its words, WSDOT's page")
    func card() async throws {
        let data = try await Self.resolve("snowfall:stevens:2022", http: try Self.fixtures()).data
        let card = SnowfallPresentation().card(data, context: Self.plain)
        #expect(card.title == "Stevens Pass US 2")
        #expect(card.subtitle == "2022–23 season")
        #expect(card.rows.map { "\($0.label): \($0.value)" } == [
            "Depth: 98 in", "Season total: 477.8 in", "Last 24 h: 0 in", "Last 7 days: 7.2 in",
            "Latest report: Sun Apr 30 2023", "Days reported: 206",
        ])
        #expect(card.link?.url.absoluteString == "https://wsdot.com/travel/real-time/mountainpasses/stevens")
        guard let chart = card.figure else { Issue.record("no chart: \(String(describing: card.figure))"); return }
        #expect(chart.title == "New snow per day")
        #expect(chart.notes == ["New snow per day", "Apr 1 – Apr 30", "top 11.2 in"])
        // The bars are the days' own figures, one per reported day of the 30.
        let april = (data["days"]?.arrayValue ?? []).filter { $0["date"]?.stringValue?.hasPrefix("2023-04-") == true }
        #expect(april.count == 30)
        let reported = april.compactMap { day -> String? in
            guard let date = day["date"]?.stringValue, let inches = day["newSnowIn"]?.doubleValue else { return nil }
            return "Apr \(Int(date.suffix(2)) ?? 0): \(Drawing.text(inches, unit: "in"))"
        }
        #expect(chart.marks.compactMap(\.label) == reported)
        #expect(chart == Drawing.bars(title: "New snow per day", unit: "in", april.map { day in
            Drawing.Slot("Apr \(Int(day["date"]?.stringValue?.suffix(2) ?? "") ?? 0)", day["newSnowIn"]?.doubleValue)
        }, summary: chart.summary))
        #expect(chart.summary == "New snow per day at Stevens Pass US 2 from Apr 1 to Apr 30 2023: 53.6 in altogether, the most 11.2 in on Apr 18.")
    }

    @Test("card: days not reported are gaps in the chart, and its words count them")
    func chartGaps() throws {
        let data: JSONValue = [
            "id": "white", "name": "White Pass US 12", "season": 2025, "seasonName": "2025–26",
            "summary": ["latestDay": "2026-01-02", "depthIn": 30, "seasonTotalIn": 80, "newSnow24hIn": 4, "newSnow7dIn": 6, "daysReported": 2],
            "days": [["date": "2025-12-30", "newSnowIn": 2], ["date": "2026-01-02", "newSnowIn": 4], ["date": "junk", "newSnowIn": 99]],
            "url": "javascript:alert(1)",
        ]
        let card = SnowfallPresentation().card(data, context: Self.plain)
        guard let chart = card.figure else { Issue.record("no chart"); return }
        #expect(chart.marks.compactMap(\.label) == ["Dec 30: 2 in", "Jan 2: 4 in"], "two bars; the other 28 days are gaps")
        #expect(chart.notes == ["New snow per day", "Dec 4 – Jan 2", "top 4 in"])
        #expect(chart.summary == "New snow per day at White Pass US 12 from Dec 4 2025 to Jan 2 2026: 6 in altogether, the most 4 in on Jan 2; 28 days not reported.")
    }

    @Test("data that is not snowfall (a fixture under the wrong scheme) reads as generic lines, never traps", arguments: [
        ["status": "open"] as JSONValue,
        ["summary": [:], "days": [["date": "2024-13-01"], 5, ["date": "2024-01-01", "newSnowIn": "x"]]] as JSONValue,
        ["summary": ["latestDay": "9999-12-31", "seasonTotalIn": 1e300, "daysReported": 1e300], "days": [], "season": 9_223_372_036_854_775_807] as JSONValue,
    ])
    func foreignData(data: JSONValue) {
        let presentation = SnowfallPresentation()
        #expect(!presentation.render(data, context: Self.plain).isEmpty)
        _ = presentation.changeKey(data)
        _ = presentation.card(data, context: Self.plain)
    }
}
