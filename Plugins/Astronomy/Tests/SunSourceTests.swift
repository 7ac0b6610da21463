@testable import Astronomy
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing

/// `sun:now` and `sun:{date}` as the host drives them: result data, which local day an
/// argument names, time zones and daylight-saving days.
@Suite struct SunSourceTests {
    /// The local wall-clock hour and UTC offset (hours) of `date` in `place`'s zone.
    func local(_ date: Date?, _ place: Place) throws -> (hour: Int, offset: Int) {
        let date = try #require(date)
        let zone = try #require(place.timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return (calendar.component(.hour, from: date), zone.secondsFromGMT(for: date) / 3600)
    }

    func date(_ value: JSONValue?) throws -> Date {
        try instant(try #require(value?.stringValue))
    }

    @Test func sunNowHasTheDocumentedKeysInOrder() async throws {
        let data = try await resolve("sun:now", now: "2026-11-21T14:05:00Z", place: Places.seattle)
        #expect(data.objectValue?.keys == ["date", "sunrise", "sunset", "solarNoon", "dayLengthSeconds", "polar",
                                           "twilight", "goldenHour", "blueHour", "location"])
        #expect(data["date"] == "2026-11-21")
        #expect(data["polar"] == .null)
        #expect(data["twilight"]?.objectValue?.keys == ["civil", "nautical", "astronomical"])
        #expect(data["twilight"]?["civil"]?.objectValue?.keys == ["dawn", "dusk"])
        #expect(data["goldenHour"]?.objectValue?.keys == ["morning", "evening"])
        #expect(data["blueHour"]?["evening"]?.objectValue?.keys == ["start", "end"])
        #expect(data["location"] == Places.seattle.json)
        // Times to the second, in UTC; the day length is what they span.
        let rise = try date(data["sunrise"]), set = try date(data["sunset"])
        #expect(data["sunrise"]?.stringValue?.hasSuffix("Z") == true)
        #expect(data["dayLengthSeconds"] == .int(Int(set.timeIntervalSince(rise))))
        #expect(try local(rise, Places.seattle) == (7, -8) && (try local(set, Places.seattle)) == (16, -8))
    }

    @Test func nowStandsForTheLocalDayItFallsIn() async throws {
        // 23:30 PST on the 21st is still the 21st in Seattle, though it is the 22nd in UTC.
        let late = try await resolve("sun:now", now: "2026-11-22T07:30:00Z")
        #expect(late["date"] == "2026-11-21")
        #expect(late == (try await resolve("sun:now", now: "2026-11-21T08:00:00Z")))  // 00:00 PST
        let next = try await resolve("sun:now", now: "2026-11-22T08:00:00Z")  // 00:00 PST on the 22nd
        #expect(next["date"] == "2026-11-22")
        #expect(try date(next["sunrise"]).timeIntervalSince(try date(late["sunrise"])) > 86000)
    }

    @Test func everyInstantOfADayNamesTheSameDay() async throws {
        let byDate = try await resolve("sun:2026-12-04")
        #expect(byDate["date"] == "2026-12-04")
        for text in ["2026-12-04T0000", "2026-12-04T23%3A59%3A59", "2026-12-05T0759Z", "2026-12-04T12%3A00%3A00-08%3A00"] {
            #expect(try await resolve("sun:\(text)") == byDate, "\(text)")
        }
        #expect(try await resolve("sun:2026-12-05T0800Z")["date"] == "2026-12-05")
        #expect(try await resolve("sun:NOW") == (try await resolve("sun:now")))
        // The moon keeps its own data under the same argument.
        #expect(try await resolve("moon:2026-12-04")["phase"] != nil)
    }

    @Test(arguments: ["2026-13-01", "2023-02-29", "2100-02-29", "tomorrow", "2026-12-04T25%3A00", "12/04/2026",
                      "1899-12-31", "2101-01-01", "2026-12-4"])
    func invalidDates(_ text: String) async {
        let error = await conditionsError { _ = try await resolve("sun:\(text)") }
        #expect(error?.kind == .invalidArguments, "\(text)")
        #expect(error?.message.contains("invalid date") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "1900-01-01", "2100-12-31"])
    func validDatesIncludingLeapDaysAndTheEndsOfTheRange(_ text: String) async throws {
        let data = try await resolve("sun:\(text)")
        #expect(data["date"]?.stringValue == text)
        #expect(data["sunrise"]?.stringValue != nil && data["sunset"]?.stringValue != nil)
    }

    @Test func aClockOutsideTheRangeIsRefused() async {
        let error = await conditionsError { _ = try await resolve("sun:now", now: "2101-06-01T00:00:00Z") }
        #expect(error?.kind == .invalidArguments)
        #expect(error?.message.contains("1900–2100") == true)
    }

    /// Seattle springs forward at 02:00 on 2026-03-08 (a 23-hour day) and falls back on
    /// 2026-11-01 (25 hours): the day's events stay that day's, on the new clock.
    @Test func daylightSavingDays() async throws {
        let before = try await resolve("sun:2026-03-07"), spring = try await resolve("sun:2026-03-08")
        #expect(spring["date"] == "2026-03-08")
        #expect(try local(try date(before["sunrise"]), Places.seattle) == (6, -8))
        #expect(try local(try date(spring["sunrise"]), Places.seattle) == (7, -7))
        #expect(try local(try date(spring["solarNoon"]), Places.seattle) == (13, -7))
        #expect(try local(try date(spring["twilight"]?["astronomical"]?["dawn"]), Places.seattle).offset == -7)
        // On the Sun's own clock nothing jumps: sunrise comes 1–3 minutes earlier than the day before.
        let shift = try date(spring["sunrise"]).timeIntervalSince(try date(before["sunrise"])) - 86400
        #expect(shift < -60 && shift > -180, "\(shift)")

        let fall = try await resolve("sun:2026-11-01")
        #expect(fall["date"] == "2026-11-01")
        #expect(try local(try date(fall["sunrise"]), Places.seattle) == (6, -8))
        #expect(try local(try date(fall["twilight"]?["astronomical"]?["dawn"]), Places.seattle).offset == -8)
        let fallDay = try await resolve("sun:2026-11-01T01%3A30%3A00-07%3A00")  // the first 01:30, still PDT
        #expect(fallDay == fall)
    }

    @Test func aPlaceWithoutAZoneUsesTheUTCDay() async throws {
        let utc = Place(latitude: Places.seattle.latitude, longitude: Places.seattle.longitude)
        let data = try await resolve("sun:2026-12-04", place: utc)
        #expect(data["date"] == "2026-12-04")
        #expect(data["location"]?["timeZone"] == nil)
        // Seattle's solar noon is about 20:00 UTC: the UTC day 2026-12-04 holds it.
        #expect(try date(data["solarNoon"]).timeIntervalSince(try instant("2026-12-04T20:00:00Z")) < 900)
        // 2026-12-05T02:00Z is 18:00 on the 4th in Seattle but the 5th in UTC.
        #expect(try await resolve("sun:2026-12-05T0200Z", place: utc)["date"] == "2026-12-05")
        #expect(try await resolve("sun:2026-12-05T0200Z", place: Places.seattle)["date"] == "2026-12-04")
    }

    /// Kiritimati keeps UTC+14 at 157° W: its local day is 10 hours ahead of the Sun's, and
    /// still holds that day's solar noon.
    @Test func aZoneFarFromTheSunsTime() async throws {
        let kiritimati = Place(name: "Kiritimati", latitude: 1.87, longitude: -157.43,
                               timeZone: TimeZone(identifier: "Pacific/Kiritimati"))
        let data = try await resolve("sun:2026-06-21", place: kiritimati)
        #expect(data["date"] == "2026-06-21")
        let noon = try local(try date(data["solarNoon"]), kiritimati)
        #expect(noon.offset == 14 && (12...13).contains(noon.hour))
        #expect(try local(try date(data["sunrise"]), kiritimati).hour == 6)
    }

    @Test func polarDayAndNightSaySo() async throws {
        let summer = try await resolve("sun:2026-06-21", place: Places.tromso)
        #expect(summer["polar"] == "day")
        #expect(summer["sunrise"] == .null && summer["sunset"] == .null)
        #expect(summer["twilight"]?["civil"] == ["dawn": nil, "dusk": nil])
        #expect(summer["blueHour"] == ["morning": nil, "evening": nil])
        let winter = try await resolve("sun:2026-12-21", place: Places.tromso)
        #expect(winter["polar"] == "night")
        #expect(winter["sunrise"] == .null && winter["dayLengthSeconds"] == .int(0))
        #expect(winter["twilight"]?["civil"]?["dawn"]?.stringValue != nil)
        #expect(winter["twilight"]?["astronomical"]?["dusk"]?.stringValue != nil)
        #expect(winter["goldenHour"]?["morning"]?["end"] == .null)
    }

    @Test func aLocationOptionReplacesTheConfiguredPlace() async throws {
        let options = JSONObject([("location", ["name": "Tromsø", "latitude": 69.6492, "longitude": 18.9553,
                                                "timeZone": "Europe/Oslo"])])
        let data = try await resolve("sun:2026-06-21", place: Places.seattle, source: try makeSource(options: options))
        #expect(data["polar"] == "day")
        #expect(data == (try await resolve("sun:2026-06-21", place: Places.tromso)))
    }

    @Test func aDayIsQuickToCompute() throws {
        let start = threadCPUTime()
        for day in 0..<50 {
            _ = SunReport(at: try instant("2026-01-01T12:00:00Z").addingTimeInterval(Double(day) * 86400), place: Places.tromso)
        }
        // 50 days, debug build: well under a second (about 15 ms on the development machine).
        // This thread's CPU time, not the wall clock, which on a loaded machine also counts the
        // time the thread waits for a core.
        #expect(threadCPUTime() - start < .seconds(1))  // wall-clock-ok: this thread's CPU time, which waiting for a core does not add to; about 15 ms against 1 s
    }
}
