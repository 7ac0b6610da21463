import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// One request to Aeris: build the URL, send it, check status and envelope.
struct AerisClient {
    let settings: AerisSettings
    let http: any HTTPClient
    let logger: Logger

    /// The `response` elements for `endpoint` at `place`; at least one.
    func fetch(_ endpoint: AerisEndpoint, at place: Place) async throws -> [AerisField] {
        let url = try endpoint.url(settings: settings, place: place)
        // The query carries both credentials: only ever log the redacted form.
        logger.debug("Aeris \(endpoint.name) request", metadata: ["url": "\(Redaction.redact(url))"])
        let response = try await http.get(url, headers: ["Accept": "application/json"])
        logger.debug("Aeris \(endpoint.name) answered", metadata: ["status": "\(response.status)", "bytes": "\(response.body.count)"])
        guard (200..<300).contains(response.status) else {
            throw AerisEnvelope.statusError(response, optionsPath: settings.optionsPath, secrets: settings.secrets)
        }
        return try AerisEnvelope.elements(of: response.body, optionsPath: settings.optionsPath, secrets: settings.secrets)
    }
}
