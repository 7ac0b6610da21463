import Foundation
import LoopbackServer

/// What the benchmark's loopback servers answer: WSDOT pages and feed, Aeris moon data.
enum Upstreams {
    struct Pass {
        let slug: String
        let id: Int
        let name: String
        let elevation: Int
        let northSouth: Bool
    }

    /// The fifteen passes WSDOT reports, as the WSDOT module's catalog knows them.
    static let passes: [Pass] = [
        Pass(slug: "blewett", id: 1, name: "Blewett Pass US 97", elevation: 4102, northSouth: true),
        Pass(slug: "cayuse", id: 2, name: "Cayuse Pass SR 123", elevation: 4675, northSouth: true),
        Pass(slug: "chinook", id: 3, name: "Chinook Pass SR 410", elevation: 5430, northSouth: false),
        Pass(slug: "crystal-greenwater", id: 5, name: "Crystal to Greenwater SR 410", elevation: 2600, northSouth: false),
        Pass(slug: "mt-baker", id: 6, name: "Mt. Baker Hwy SR 542", elevation: 4250, northSouth: false),
        Pass(slug: "north-cascade", id: 7, name: "North Cascade Hwy SR 20", elevation: 5477, northSouth: false),
        Pass(slug: "satus", id: 8, name: "Satus Pass US 97", elevation: 3107, northSouth: true),
        Pass(slug: "sherman", id: 9, name: "Sherman Pass SR 20", elevation: 5575, northSouth: false),
        Pass(slug: "stevens", id: 10, name: "Stevens Pass US 2", elevation: 4061, northSouth: false),
        Pass(slug: "snoqualmie", id: 11, name: "Snoqualmie Pass I-90", elevation: 3022, northSouth: false),
        Pass(slug: "white", id: 12, name: "White Pass US 12", elevation: 4500, northSouth: false),
        Pass(slug: "manastash", id: 13, name: "Manastash Ridge I-82", elevation: 2672, northSouth: false),
        Pass(slug: "loup-loup", id: 14, name: "Loup Loup Pass SR 20", elevation: 4020, northSouth: false),
        Pass(slug: "disautel", id: 15, name: "Disautel Pass SR 155", elevation: 3252, northSouth: true),
        Pass(slug: "wauconda", id: 16, name: "Wauconda Pass SR 20", elevation: 4310, northSouth: false),
    ]

    /// wsdot.com's page slug where it differs from ours (the WSDOT module's catalog knows these).
    static let siteSlugs = ["crystal-greenwater": "crystal-to-greenwater", "mt-baker": "mt.-baker", "north-cascade": "north-cascade-hwy"]

    /// The page path segment of `pass`.
    static func siteSlug(_ pass: Pass) -> String { siteSlugs[pass.slug] ?? pass.slug }

    /// `"passes": [...]`: the fifteen passes measured. The module's catalog has a sixteenth
    /// (Tiger Mountain, id 17, since 2025); the figures stay comparable with earlier runs.
    static let passesOption = #""passes": ["# + passes.map { "\"\($0.slug)\"" }.joined(separator: ", ") + "]"

    /// Serves every pass's ~150 KB page under `/passes/{site slug}`, each answered after `delay` seconds.
    static func servePages(on server: LoopbackServer, delay: Double) {
        for pass in passes {
            let page = PassPage.html(name: pass.name, slug: pass.slug, elevation: pass.elevation)
            server.route("/passes/\(siteSlug(pass))", LoopbackServer.Response.text(page, contentType: "text/html; charset=utf-8").delayed(delay))
        }
    }

    /// Serves the Traveler Information API feed under `/api/GetMountainPassConditionsAsJson`.
    static func serveFeed(on server: LoopbackServer, delay: Double) {
        server.route("/api/GetMountainPassConditionsAsJson", LoopbackServer.Response.json(feed()).delayed(delay))
    }

    /// Serves Aeris `sunmoon` and `sunmoon/moonphases` for any place.
    static func serveAeris(on server: LoopbackServer, delay: Double) {
        server.fallback { request in
            (request.path.contains("/moonphases/") ? LoopbackServer.Response.json(aerisPhases) : LoopbackServer.Response.json(aerisMoon)).delayed(delay)
        }
    }

    /// A WSDOT feed in the API's shape (PascalCase keys, `/Date(ms-0800)/` times) for all passes.
    static func feed() -> String {
        "[" + feedEntries(mobile: false).joined(separator: ",") + "]"
    }

    /// WSDOT's mobile feed for all passes: the API's entries under its wrapper, `DateUpdated`
    /// as Pacific local time parts, with a camera, two forecast periods and an alert each.
    static func mobileFeed() -> String {
        #"{"GetMountainPassConditionsResult":{"PassCondition":["# + feedEntries(mobile: true).joined(separator: ",") + "]}}"
    }

    /// Serves the mobile feed under `/mobile/MountainPassConditions.json`.
    static func serveMobileFeed(on server: LoopbackServer, delay: Double) {
        server.route("/mobile/MountainPassConditions.json", LoopbackServer.Response.json(mobileFeed()).delayed(delay))
    }

    private static func feedEntries(mobile: Bool) -> [String] {
        passes.enumerated().map { index, pass in
            let (one, two) = pass.northSouth ? ("Northbound", "Southbound") : ("Eastbound", "Westbound")
            let restriction = index % 3 == 0 ? "No restrictions" : "Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW"
            // 2025-12-15 07:41 PST plus a minute per pass, in each form.
            let updated = mobile ? "[2025,12,14,23,\(41 + index),3,873,0,0]" : "\"/Date(\(1_765_784_463_873 + index * 60_000)-0800)/\""
            let extras = mobile ? """
                ,"Cameras":[{"id":\(9000 + index),"title":"\(pass.name) summit","url":"https://images.wsdot.wa.gov/sc/\(pass.slug).jpg",\
                "lat":47.\(428_135 + index),"lon":-121.\(419_055 + index)}],\
                "Forecast":[{"Day":"Tonight","ForecastText":"Snow. Snow level 2500 feet. Low around 25. Chance of precipitation is 90%."},\
                {"Day":"Tuesday","ForecastText":"Snow showers likely. Cloudy, with a high near 31."}],\
                "Alerts":[{"PassId":\(pass.id),"EventId":\(550_000 + index),"MountainPass":"\(pass.name)","TravelCenterPriorityId":2,\
                "EventCategoryTypeDescription":"Maintenance","HeadlineMessage":"Crews working on the shoulder.","RoadName":"090",\
                "RoadDirection":"\(one)","DisplayLatitude":47.43,"DisplayLongitude":-121.45,"CreatedDate":"/Date(1765780000000-0800)/"}]
                """ : ""
            return """
            {"DateUpdated":\(updated),"ElevationInFeet":\(pass.elevation),\
            "Latitude":47.\(428_135 + index),"Longitude":-121.\(419_055 + index),"MountainPassId":\(pass.id),\
            "MountainPassName":"\(pass.name)",\
            "RestrictionOne":{"RestrictionText":"\(restriction)","TravelDirection":"\(one)"},\
            "RestrictionTwo":{"RestrictionText":"Traction tires advised, oversize vehicles prohibited.","TravelDirection":"\(two)"},\
            "RoadCondition":"Compact snow and ice on the roadway. Use caution and watch for crews.",\
            "TemperatureInFahrenheit":\(20 + index),"TravelAdvisoryActive":true,"WeatherCondition":"Snowing"\(extras)}
            """
        }
    }

    static let aerisMoon = """
    {"error":null,"success":true,"response":[{"dateTimeISO":"2026-11-21T06:00:13-08:00","loc":{"lat":47.6097,"long":-122.3331},\
    "moon":{"phase":{"age":12.02,"angle":0.54,"illum":87,"name":"waxing gibbous","phase":0.4134},\
    "rise":1795816800,"riseISO":"2026-11-21T14:00:00-08:00","set":1795790000,"setISO":"2026-11-21T06:33:20-08:00"},\
    "timestamp":1795786813}]}
    """

    static let aerisPhases = """
    {"error":null,"success":true,"response":[\
    {"code":2,"dateTimeISO":"2026-11-24T06:53:19-08:00","name":"full moon","timestamp":1795963999},\
    {"code":3,"dateTimeISO":"2026-11-30T22:08:49-08:00","name":"last quarter","timestamp":1796537329},\
    {"code":0,"dateTimeISO":"2026-12-08T16:51:47-08:00","name":"new moon","timestamp":1797209507},\
    {"code":1,"dateTimeISO":"2026-12-16T21:42:53-08:00","name":"first quarter","timestamp":1797918173},\
    {"code":2,"dateTimeISO":"2026-12-23T17:28:07-08:00","name":"full moon","timestamp":1798507687}]}
    """
}
