import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import SpaceWeather

/// `aurora:now` and `aurora:{place}` on the real bodies, at pinned instants: Kp observed, and
/// the highest Kp of the next 24 hours and 3 days, in both of SWPC's forms.
@Suite struct ReportTests {
    /// 2026-02-09 19:30 UTC, old form: Kp 2 observed at 15:00; the estimated 21:00 period's
    /// 3.67 is the highest of the next 24 hours and of the 3 days (to the forecast's end).
    @Test func februaryEveningOldForm() async throws {
        let result = try await makeSource().resolve("aurora:now", context: context(try swpc()))
        #expect(result.kind == .aurora)
        #expect(result.data["observed"] == ["kp": 2.0, "kpText": "2", "gScale": "G0", "time": "2026-02-09T15:00:00Z", "kind": nil])
        #expect(result.data["next24h"] == ["kp": 3.67, "kpText": "4-", "gScale": "G0", "time": "2026-02-09T21:00:00Z", "kind": "estimated"])
        #expect(result.data["next3d"] == ["kp": 3.67, "kpText": "4-", "gScale": "G0", "time": "2026-02-09T21:00:00Z", "kind": "estimated"])
        #expect(result.data["place"] == .null)
        #expect(result.data["ovation"] == .null)
        #expect(result.data["formats"] == ["kp": "old", "forecast": "old"])
        #expect(result.data["notes"] == [])
    }

    /// Two hours before the G1 period: now is Kp 4+ (G0), the next 24 hours reach 5+ at 03:00,
    /// G1 as SWPC's `noaa_scale` says.
    @Test func stormEveOldForm() async throws {
        let result = try await makeSource().resolve("aurora:now", context: context(try swpc(), now: stormEve))
        #expect(result.data["observed"]?["kpText"] == "4+")
        #expect(result.data["observed"]?["time"] == "2026-02-05T00:00:00Z")
        #expect(result.data["observed"]?["gScale"] == "G0")
        #expect(result.data["next24h"] == ["kp": 5.33, "kpText": "5+", "gScale": "G1", "time": "2026-02-05T03:00:00Z", "kind": "observed"])
        #expect(result.data["next3d"]?["time"] == "2026-02-05T03:00:00Z")
    }

    /// The windows: the period under way counts (it began under 3 hours ago); one beginning
    /// 24 hours on does not; the 3 days reach further.
    @Test func windowsAreRelativeToNow() async throws {
        let source = try makeSource()
        // 2026-02-05 05:59: the 03:00 period (5.33) is still on.
        var result = try await source.resolve("aurora:now", context: context(try swpc(), now: Timestamp.parse("2026-02-05T05:59:00Z")!))
        #expect(result.data["next24h"]?["time"] == "2026-02-05T03:00:00Z")
        // 06:00: it is over; 06:00's 4.67 (5-, G1) is the peak.
        result = try await source.resolve("aurora:now", context: context(try swpc(), now: Timestamp.parse("2026-02-05T06:00:00Z")!))
        #expect(result.data["next24h"] == ["kp": 4.67, "kpText": "5-", "gScale": "G1", "time": "2026-02-05T06:00:00Z", "kind": "observed"])
        // 2026-02-04 03:00: the 24 hours end before 03:00 the next day (00:00's 4.33 is the
        // highest); the 3 days hold the 5.33.
        result = try await source.resolve("aurora:now", context: context(try swpc(), now: Timestamp.parse("2026-02-04T03:00:00Z")!))
        #expect(result.data["next24h"]?["kp"] == 4.33)
        #expect(result.data["next24h"]?["time"] == "2026-02-05T00:00:00Z")
        #expect(result.data["next3d"]?["kp"] == 5.33)
        #expect(result.data["observed"]?["time"] == "2026-02-04T03:00:00Z", "the period beginning at now is observed")
    }

    /// The new form (the real K-index of 2026-08-31, the derived forecast beside it) reads as
    /// the old one does.
    @Test func augustMorningNewForm() async throws {
        let result = try await makeSource().resolve("aurora:now", context: context(try swpcNew(), now: augustMorning))
        #expect(result.data["observed"] == ["kp": 3.33, "kpText": "3+", "gScale": "G0", "time": "2026-08-31T09:00:00Z", "kind": nil])
        #expect(result.data["next24h"] == ["kp": 3.67, "kpText": "4-", "gScale": "G0", "time": "2026-08-31T21:00:00Z", "kind": "estimated"])
        #expect(result.data["formats"] == ["kp": "new", "forecast": "new"])
    }

    /// Old K-index with the reshaped new-form forecast: the result is the all-old one.
    @Test func formsMixedReadAlike() async throws {
        let old = try await makeSource().resolve("aurora:now", context: context(try swpc()))
        let mixed = try await makeSource().resolve("aurora:now", context: context(try swpc(forecast: Body.forecastReshaped)))
        #expect(mixed.data["formats"] == ["kp": "old", "forecast": "new"])
        for key in ["observed", "next24h", "next3d"] { #expect(mixed.data[key] == old.data[key]) }
    }

    /// After the forecast's end there is no next 24 hours: null and said, never Kp 0.
    @Test func aForecastInThePast() async throws {
        let result = try await makeSource().resolve("aurora:now", context: context(try swpc(), now: Timestamp.parse("2026-02-20T00:00:00Z")!))
        #expect(result.data["next24h"] == .null)
        #expect(result.data["next3d"] == .null)
        #expect(result.data["observed"]?["time"] == "2026-02-09T15:00:00Z")
        #expect(result.data["notes"] == ["the Kp forecast ends at 2026-02-12T03:00:00Z, before the report's time"])
    }

    /// A place adds itself and OVATION, with a note when the grid is far from the report's time.
    @Test func aPlace() async throws {
        let result = try await makeSource().resolve("aurora:stevens", context: context(try swpc()))
        #expect(result.data["place"] == ["id": "stevens", "name": "Stevens Pass", "latitude": .double(Place.stevens.latitude), "longitude": .double(Place.stevens.longitude)])
        #expect(result.data["ovation"] == ["probability": 0, "latitude": 48, "longitude": 239,
                                           "observationTime": "2025-01-12T21:42:00Z", "forecastTime": "2025-01-12T22:51:00Z"])
        #expect(result.data["notes"] == ["the OVATION forecast is for 2025-01-12T22:51:00Z, 9429 h before the report's time"])
        #expect(result.data["next24h"]?["kpText"] == "4-")
        let here = try await makeSource().resolve("aurora:47.6097,-122.3331", context: context(try swpc()))
        #expect(here.data["ovation"]?["longitude"] == 238)
        #expect(here.data["place"]?["name"] == .null)
    }

    /// Skipped rows are said in the notes with their count.
    @Test func skippedRowsAreNoted() async throws {
        let body = #"[["time_tag","Kp","a_running","station_count"],["2026-02-09 12:00:00.000","1.67","6","8"],["2026-02-09 15:00:00.000","?","7","8"]]"#
        let result = try await makeSource().resolve("aurora:now", context: context(try swpc([Path.kp: .json(body)])))
        #expect(result.data["observed"]?["time"] == "2026-02-09T12:00:00Z", "the unreadable later row is not read as Kp 0")
        #expect(result.data["notes"] == ["skipped 1 unreadable row of the planetary K-index"])
    }
}
