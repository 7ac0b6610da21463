import ConditionsKitTesting
import Foundation

/// A realistic WSDOT pass page of about 150 KB, generated deterministically: the classic
/// `PassInfo…` spans inside the bulk a real page carries (head metadata, inline styles and
/// scripts, navigation, camera lists, a forecast table, alerts and a footer), plus the decoys
/// the extraction must ignore (spans in scripts, comments and `<noscript>`).
enum PassPage {
    /// The page for pass `name`, padded to at least `bytes`.
    static func html(name: String, slug: String, elevation: Int, bytes: Int = 150_000) -> String {
        var random = SplitMix(seed: UInt64(truncatingIfNeeded: slug.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        var page = """
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
        <head>
          <meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>WSDOT - \(name) - Mountain Pass Report</title>

        """
        for index in 0..<24 {
            page += "  <link rel=\"stylesheet\" type=\"text/css\" href=\"/css/bundle-\(index).css?v=2026\(random.next(1000))\" />\n"
        }
        page += "  <style type=\"text/css\">\n"
        for index in 0..<220 {
            page += "    .wsdot-\(random.word())-\(index) > .\(random.word()) { margin: \(random.next(24))px \(random.next(24))px; color: #\(String(random.next(0xFFFFFF), radix: 16)); font-weight: \(random.next(9) * 100); }\n"
        }
        page += "  </style>\n  <script type=\"text/javascript\">\n"
        page += "    var placeholder = '<span id=\"PassInfoConditions\">Loading conditions...</span>' + \"<span id='PassInfoLastUpdate'>Monday January 1, 2001 12:00 AM</span>\";\n"
        for index in 0..<160 {
            page += "    function \(random.word())\(index)(a, b) { var \(random.word()) = a * \(random.next(100)) + b; if (\(random.word()) > \(random.next(999))) { return '\(random.sentence(6))'; } return null; }\n"
        }
        page += """
          </script>
          <noscript><span id="PassInfoWeather">Enable JavaScript for the weather widget</span></noscript>
        </head>
        <body class="passes">
          <div id="skip"><a href="#content">Skip to main content</a></div>
          <div id="header">
            <a href="/" id="logo"><img src="/images/wsdot-logo.png" alt="Washington State Department of Transportation" /></a>
            <ul id="nav">

        """
        for section in 0..<12 {
            page += "      <li><a href=\"/\(random.word())/\">\(random.sentence(2))</a>\n        <ul>\n"
            for item in 0..<14 {
                page += "          <li><a href=\"/\(random.word())/\(section)/\(item)/\">\(random.sentence(3))</a></li>\n"
            }
            page += "        </ul>\n      </li>\n"
        }
        page += """
            </ul>
          </div>
          <!-- Old markup kept for reference: <span id="PassInfoConditions">Bare and dry (archived)</span> -->
          <div id="content">
            <h1>\(name)</h1>
            <div class="alert-banner">Winter driving: carry chains &amp; check conditions before you go.</div>
            <div id="PassPageCameraPanel">
              <h2>Cameras</h2>
              <ul class="cameras">

        """
        for camera in 0..<16 {
            page += "        <li><img src=\"/traffic/passes/\(slug)/cameras/\(camera).jpg\" alt=\"\(random.sentence(3))\" width=\"335\" height=\"249\" /><br />\(random.sentence(4)) (elev. \(elevation) ft)</li>\n"
        }
        page += """
              </ul>
            </div>
            <div id="PassPageBoxPanel">
              <h2>Pass Report</h2>
              <table class="passreport">
                <tr><td><span class="label">Conditions:</span></td>
                  <td><span id="PassInfoConditions">Snow and ice on the roadway.&nbsp; Compact snow in the <em>center</em> lanes &amp; slush on the shoulders.</span></td></tr>
                <tr><td><span class="label">Restrictions Eastbound:</span></td>
                  <td><span id="PassInfoRestrictionsOne">Traction Tires <strong>Required</strong>, Chains Required On Vehicles Over 10,000 GVW</span></td></tr>
                <tr><td><span class="label">Restrictions Westbound:</span></td>
                  <td><span id="PassInfoRestrictionsTwo">Traction tires advised, oversize vehicles prohibited.</span></td></tr>
                <tr><td><span class="label">Temperature:</span></td><td><span id="PassInfoTemperature">28&deg;F</span></td></tr>
                <tr><td><span class="label">Elevation:</span></td><td><span id="PassInfoElevationF">\(elevation) ft.</span></td></tr>
                <tr><td><span class="label">Weather:</span></td><td><span id="PassInfoWeather">Light snow,<br/>visibility &frac12; mile</span></td></tr>
                <tr><td><span class="label">Last Updated:</span></td><td><span id="PassInfoLastUpdate">Saturday January 10, 2026   5:42 AM</span></td></tr>
              </table>
            </div>
            <table class="forecast">

        """
        for day in 0..<14 {
            page += "        <tr><th>\(["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][day % 7])\(day % 2 == 0 ? "" : " Night")</th><td>\(random.sentence(18))</td></tr>\n"
        }
        page += "      </table>\n      <div id=\"alerts\">\n"
        // Alerts fill the page up to the size asked, before the footer.
        let footer = footerHTML(&random)
        var alert = 0
        while page.utf8.count + footer.utf8.count < bytes {
            page += "        <div class=\"alert\" data-id=\"\(alert)\"><h3>\(random.sentence(5))</h3><p>\(random.sentence(40))</p><p class=\"meta\">Posted \(random.next(12) + 1)/\(random.next(28) + 1)/2026</p></div>\n"
            alert += 1
        }
        return page + footer
    }

    private static func footerHTML(_ random: inout SplitMix) -> String {
        var footer = "      </div>\n    </div>\n    <div id=\"footer\">\n      <ul>\n"
        for _ in 0..<60 {
            footer += "        <li><a href=\"/\(random.word())/\(random.word())/\">\(random.sentence(2))</a></li>\n"
        }
        footer += """
              </ul>
              <p>&copy; 2026 Washington State Department of Transportation</p>
            </div>
            <script type="text/javascript">document.write("<span id=\\"PassInfoRestrictionsTwo\\">No restrictions<\\/span>");</script>
          </body>
        </html>

        """
        return footer
    }
}

/// A small deterministic generator (SplitMix64), so every run serves the same bytes.
struct SplitMix {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    private static let words = ["pass", "summit", "snow", "traffic", "chain", "closure", "avalanche", "control", "lane", "crew",
                                "plow", "highway", "weather", "travel", "alert", "camera", "report", "mountain", "road", "ice",
                                "delay", "route", "county", "bridge", "ferry", "permit", "freight", "tire", "visibility", "wind"]

    mutating func word() -> String { Self.words[next(Self.words.count)] }

    mutating func sentence(_ count: Int) -> String { (0..<count).map { _ in word() }.joined(separator: " ") }
}
