/// Malformed and hostile URNs fed to the binary by HostileInputTests: empty and huge input,
/// control and invisible characters, path traversal in every encoding, shell metacharacters,
/// format strings, confusables and option look-alikes.
enum HostileURNs {
    /// Traversal attempts: every one must fail without reading outside the fixtures folder.
    static let traversal: [String] = [
        "pass:..", "pass:.", "pass:...", "pass:../..", "pass:..:..", "pass:../../../../etc/passwd",
        "pass:..%2f..%2fetc%2fpasswd", "pass:..%2F..%2Fetc%2Fpasswd", "pass:%2e%2e", "pass:%2E%2E", "pass:%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "pass:%252e%252e", "pass:%252e%252e%252fetc%252fpasswd", "pass:%25252e%25252e",
        "pass:%c0%ae%c0%ae", "pass:%c0%ae%c0%ae%c0%af", "pass:%e0%80%ae%e0%80%ae", "pass:%c0%af", "pass:%c1%9c",
        "pass:..%5c..%5cwindows", "pass:..\\..\\windows\\win.ini", "pass:%2fetc%2fpasswd", "pass:%2Fetc%2Fshadow", "pass:/etc/passwd",
        "pass:....//....//etc", "pass:.%2e", "pass:%2e.", "pass:.hidden", "pass:%2ehidden", "pass:~root", "pass:%7e",
        "pass:file%3a%2f%2f%2fetc%2fpasswd", "pass:snoqualmie%2f..%2f..%2f..%2fetc%2fpasswd", "pass:snoqualmie%00.json",
        "..:snoqualmie", "%2e%2e:snoqualmie", "pass:%u002e%u002e", "pass:\u{FF0E}\u{FF0E}", "pass:\u{2024}\u{2024}",
        "phases:..%2f..%2f5", "moon:..%2f..%2fnow", "fixtures:..%2fsources",
    ]

    /// Syntax, injection and oddities: each must fail (or resolve) as one result.
    static let malformed: [String] = [
        "", ":", "::", ":::", "pass:", ":pass", "pass::x", "pass:a::b", "pass:a:", "a", "pass",
        "pass:a b", " pass:white", "pass:white ", "pass:\tx", "pass:a\nb", "pass:a\rb", "pass:a\u{0B}b", "pass:a\u{0C}b",
        "pass:\u{1B}[31mred", "pass:\u{1B}]0;pwned\u{07}", "pass:\u{1B}[2J\u{1B}[H", "pass:\u{08}\u{08}\u{08}x", "pass:\u{7F}",
        "pass:\u{85}", "pass:\u{9B}31m", "pass:\u{A0}x", "pass:\u{2028}x", "pass:\u{3000}x",
        "pass:\u{202E}evil", "pass:\u{202D}x", "pass:\u{2066}x\u{2069}", "pass:\u{200B}white", "pass:white\u{FEFF}", "pass:\u{200F}x",
        "pass:%e2%80%ae", "pass:%E2%80%8B", "pass:%0a", "pass:%0d%0aSet-Cookie:x", "pass:%1b%5b31m", "pass:%7f", "pass:%c2%85",
        "pass:%", "pass:%2", "pass:%zz", "pass:%g0", "pass:%%", "pass:%ff%fe", "pass:%80", "pass:%ed%a0%80",
        "pass:%s%n%x", "pass:%s%s%s%s%s%s%s%s", "pass:%n%n%n%n", "pass:%x%x%x%x", "pass:%99999999999d", "pass:{0}{1}", "pass:${HOME}",
        "pass:$(rm -rf /)", "pass:`id`", "pass:;id", "pass:|id", "pass:&&id", "pass:a;b|c&d", "pass:$(touch /tmp/conditions-pwned)",
        "pass:'\"'", "pass:<script>alert(1)</script>", "pass:' OR '1'='1", "pass:\"; DROP TABLE passes; --",
        "pass:\u{0441}noqualmie", "pass:snoq\u{0075}\u{0308}almie", "pass:SNOQUALMIE", "PASS:snoqualmie", "pass:ｓｎｏｑｕａｌｍｉｅ",
        "pass:\u{1F600}", "pass:\u{10FFFF}", "pass:\u{E000}", "pass:\u{FFFD}", "moon:\u{0661}\u{0662}",
        "phases:-1", "phases:0", "phases:101", "phases:99999999999999999999999", "phases:1e9", "phases:0x10", "phases:5.5", "phases:NaN",
        "moon:2026-13-45", "moon:9999999-01-01", "moon:-0001-01-01", "moon:2026-12-04T25%3A00Z", "moon:now:now",
        "-", "--", "-v", "--help", "--version", "--config=/etc/passwd", "--format=csv", "-rf",
        "http://evil.example/x", "file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "urn:ietf:rfc:2141",
        "pass:" + String(repeating: "a", count: 1019), "pass:" + String(repeating: "a", count: 1020),
        "pass:" + String(repeating: "%41", count: 400), String(repeating: "a:", count: 300) + "a",
        "pass:" + String(repeating: "é", count: 600), "pass:" + String(repeating: "x", count: 10_000),
    ]

    static var all: [String] { traversal + malformed }
}
