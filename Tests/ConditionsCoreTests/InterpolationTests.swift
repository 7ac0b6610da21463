import ConditionsJSON
@testable import ConditionsCore
import Testing

/// `${NAME}` substitution in config strings, byte by byte (`Interpolation.expand`).
@Suite struct InterpolationTests {
    let interpolation = Interpolation(environment: ["HOST": "example.org", "TOKEN": "s3cr3t", "EMPTY": "", "ÜBER": "ü"])

    func expanded(_ text: String) -> Interpolation.Outcome {
        interpolation.apply(.string(text), path: "sources.x.options.url")
    }

    @Test(arguments: [
        ("plain text", "plain text"),
        ("", ""),
        ("$", "$"),
        ("costs $5", "costs $5"),
        ("${HOST}", "example.org"),
        ("https://${HOST}/a?b=${HOST}", "https://example.org/a?b=example.org"),
        ("$${HOST}", "${HOST}"),
        ("a$${HOST}b${HOST}", "a${HOST}bexample.org"),
        ("$$${HOST}", "$${HOST}"),
        ("x${EMPTY}y", "xy"),
        ("ä ${ÜBER} ö", "ä ü ö"),
        ("${HOST", "${HOST"),
        ("${HOST}${", "example.org${"),
        ("${}", "${}"),
    ])
    func substitutes(_ text: String, _ expected: String) {
        #expect(expanded(text).value == .string(expected), "\(text)")
    }

    @Test func aMissingVariableStaysAndIsNamedWithItsPath() {
        let outcome = expanded("a ${NOT_SET} b ${HOST} c ${ALSO_NOT}")
        #expect(outcome.value == .string("a ${NOT_SET} b example.org c ${ALSO_NOT}"))
        #expect(outcome.missing.map(\.variable) == ["NOT_SET", "ALSO_NOT"])
        #expect(outcome.missing.allSatisfy { $0.path == "sources.x.options.url" })
    }

    @Test func secretsAreCollectedByVariableOrKeyName() {
        #expect(expanded("Bearer ${TOKEN}").secrets == ["s3cr3t"])
        #expect(expanded("${HOST}").secrets.isEmpty)
        let keyed = interpolation.apply(.object(["password": .string("${HOST}")]), path: "mqtt")
        #expect(keyed.secrets == ["example.org"])
        #expect(keyed.value == .object(["password": .string("example.org")]))
    }

    @Test func referencesAreFoundAsBytes() {
        for (text, holds) in [("${A}", true), ("a$${b", true), ("$", false), ("{$", false), ("", false), ("ä${", true), ("$ {", false)] {
            #expect(Interpolation.containsReference(text) == holds, "\(text)")
        }
    }
}
