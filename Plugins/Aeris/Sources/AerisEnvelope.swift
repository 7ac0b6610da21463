import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// Aeris wraps every answer in `{"success", "error", "response"}`; the seed read `response`
/// and ignored the rest, so a bad key or an exhausted quota looked like "no data". This checks
/// the envelope and the HTTP status first, and turns failures into errors that say what Aeris said.
enum AerisEnvelope {
    /// The `response` elements of a 2xx body whose envelope reports success.
    ///
    /// Real servers reject a key with HTTP 200 and `"success": false` as often as with 401, so
    /// a credentials code gets the same hint either way. A `warn_…` code with `"success": true`
    /// is Aeris saying "valid request, nothing to report": with data it is ignored, without data
    /// it fails the URN as `upstream` with Aeris' description (never as a malformed answer).
    static func elements(of body: Data, optionsPath: String = "options", secrets: [String]) throws(ConditionsError) -> [AerisField] {
        let root: JSONValue
        do {
            root = try JSONValue.parse(body)
        } catch {
            throw ConditionsError.badResponse(scrub("Aeris response is not JSON: \(error)", secrets: secrets))
        }
        let document = AerisField(root)
        let error = try document.member("error")
        if !error.isAbsent {
            // An error with a missing or odd `success` is still Aeris' error, not a malformed answer.
            let success = (try? document.member("success").bool()) == true
            let errorValue = error.value ?? .null
            let code = errorValue["code"]?.stringValue ?? ""
            if success, code.hasPrefix("warn_") {
                let elements = (try? document.member("response").array()) ?? []
                if !elements.isEmpty { return elements }
                throw ConditionsError.upstream(scrub(describe(errorValue), secrets: secrets))
            }
            if credentialCodes.contains(code) {
                throw ConditionsError.upstream(scrub("Aeris rejected the credentials (HTTP 200, success: false): \(describe(errorValue)); \(credentialsAdvice(optionsPath))", secrets: secrets))
            }
            throw ConditionsError.upstream(scrub(describe(errorValue), secrets: secrets))
        }
        guard try document.member("success").bool() else {
            throw ConditionsError.upstream("Aeris reported a failure without saying why (success: false, error: null)")
        }
        let elements = try document.member("response").array()
        guard !elements.isEmpty else {
            throw ConditionsError.badResponse("Aeris response: response is empty (no data for this place and time)")
        }
        return elements
    }

    /// Codes Aeris uses for a client ID or secret it does not accept.
    static let credentialCodes: Set<String> = ["invalid_client", "unauthorized_client", "invalid_credentials"]

    /// The hint shared by every credentials rejection, whatever the HTTP status.
    static func credentialsAdvice(_ optionsPath: String) -> String {
        "check \(optionsPath).clientId and \(optionsPath).clientSecret"
    }

    /// The error for a non-2xx answer: one message per kind of failure, with Aeris' own code
    /// and description appended when the body carries them.
    static func statusError(_ response: HTTPResponse, optionsPath: String, secrets: [String]) -> ConditionsError {
        let status = response.status
        var headline: String
        var advice: String?
        switch status {
        case 401:
            headline = "Aeris rejected the credentials (HTTP 401)"
            advice = credentialsAdvice(optionsPath)
        case 403:
            headline = "Aeris refused access (HTTP 403)"
            advice = "the Aeris account may not include this endpoint, or the app's registered domain does not match"
        case 429:
            headline = "Aeris rate limit reached (HTTP 429)"
            if let retryAfter = response.headers["retry-after"]?.trimmingCharacters(in: .whitespaces), !retryAfter.isEmpty {
                advice = "retry after " + (retryAfter.allSatisfy(\.isNumber) ? "\(retryAfter) s" : retryAfter)
            } else {
                advice = "wait before trying again"
            }
        case 500...599:
            headline = "Aeris is unavailable (HTTP \(status))"
            advice = "try again later"
        default:
            headline = "Aeris answered HTTP \(status)"
        }
        if let root = try? JSONValue.parse(response.body), let error = root["error"], !error.isNull {
            headline += ": " + describe(error)
        }
        return ConditionsError.upstream(scrub(headline + (advice.map { "; \($0)" } ?? ""), secrets: secrets))
    }

    /// `Aeris error invalid_client: The client provided is invalid`, from an `error` member.
    static func describe(_ error: JSONValue) -> String {
        let code = error["code"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
        let description = error["description"]?.stringValue ?? error.stringValue
        switch (code, description) {
        case let (code?, description?): return "Aeris error \(code): \(description)"
        case let (code?, nil): return "Aeris error \(code)"
        case let (nil, description?): return "Aeris error: \(description)"
        case (nil, nil): return "Aeris reported an error without a code or description"
        }
    }

    /// `text` with every credential replaced: Aeris descriptions may echo the client ID back.
    static func scrub(_ text: String, secrets: [String]) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { $0.replacingOccurrences(of: $1, with: Redaction.mask) }
    }
}
