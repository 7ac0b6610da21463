import Foundation
import Prometheus
import Synchronization

/// The server's Prometheus metrics. Every label value comes from a fixed set (endpoint names,
/// status codes) or from the config's instance ids, never from a request, so a client can
/// neither grow the registry nor make it repeat a secret.
package final class ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    package let registry = PrometheusCollectorRegistry()
    let cacheHits: Prometheus.Counter
    let cacheMisses: Prometheus.Counter
    let staleAnswers: Prometheus.Counter
    let coalesced: Prometheus.Counter
    let inFlight: Prometheus.Gauge
    let sseClients: Prometheus.Gauge
    let memoryCacheEntries: Prometheus.Gauge
    let memoryCacheBytes: Prometheus.Gauge
    let memoryCacheEvictions: Prometheus.Counter
    let answeredOnEventLoop: Prometheus.Counter
    /// GETs waiting for an upstream document now (`UpstreamDocuments`).
    let documentWaits: Prometheus.Gauge
    /// GETs answered by a document kept, by joining a fetch in flight, or by fetching it.
    let documentsKept: Prometheus.Counter
    let documentsJoined: Prometheus.Counter
    let documentsFetched: Prometheus.Counter
    private let latency: DurationHistogram
    /// The request counters already made, by endpoint and status: the registry validates the
    /// name and labels and searches its families on every `makeCounter`, too much per request.
    private let requestCounters = Mutex<[RequestKey: Prometheus.Counter]>([:])

    private struct RequestKey: Hashable {
        let endpoint: String
        let status: Int
    }

    /// Fresh metrics in a registry of their own.
    package init() {
        cacheHits = registry.makeCounter(descriptor: Self.named("conditions_cache_hits_total", help: "Answers served from the server's memory while fresh."))
        cacheMisses = registry.makeCounter(descriptor: Self.named("conditions_cache_misses_total", help: "Resolutions started because no fresh answer was in memory."))
        staleAnswers = registry.makeCounter(descriptor: Self.named("conditions_stale_answers_total", help: "Cached results served because the upstream failed."))
        coalesced = registry.makeCounter(descriptor: Self.named("conditions_coalesced_requests_total", help: "Requests that joined a resolution already in flight."))
        inFlight = registry.makeGauge(descriptor: Self.named("conditions_inflight_resolutions", help: "Resolutions in flight."))
        sseClients = registry.makeGauge(descriptor: Self.named("conditions_sse_clients", help: "Connected Server-Sent Events clients."))
        memoryCacheEntries = registry.makeGauge(descriptor: Self.named("conditions_memory_cache_entries", help: "Fresh results held in the server's memory."))
        memoryCacheBytes = registry.makeGauge(descriptor: Self.named("conditions_memory_cache_bytes", help: "Estimated bytes of the results held in memory."))
        memoryCacheEvictions = registry.makeCounter(descriptor: Self.named("conditions_memory_cache_evictions_total",
                                                    help: "Results dropped from memory: expired, or least recently used beyond the limits."))
        answeredOnEventLoop = registry.makeCounter(descriptor: Self.named("conditions_http_event_loop_answers_total",
                                                   help: "Requests for a fresh result in memory answered on the event loop, before the router."))
        documentWaits = registry.makeGauge(descriptor: Self.named("conditions_upstream_document_waits",
                                           help: "Upstream GET requests waiting for their document: fetching it, or joined to its fetch."))
        let registry = registry
        let documents = { (answer: String) in
            registry.makeCounter(descriptor: Self.named("conditions_upstream_documents_total",
                                                        help: "Upstream GET requests of sources, by how they were answered: kept, joined or fetched."),
                                 labels: [("answer", answer)])
        }
        documentsKept = documents("kept")
        documentsJoined = documents("joined")
        documentsFetched = documents("fetched")
        latency = registry.makeDurationHistogram(descriptor: Self.named("conditions_http_request_duration_seconds", help: "HTTP request latency."),
                                                 buckets: [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
                                                           .milliseconds(500), .seconds(1), .seconds(5), .seconds(30)])
    }

    /// Counts one answered request.
    func request(endpoint: String, status: Int, duration: Duration) {
        let key = RequestKey(endpoint: endpoint, status: status)
        let counter = requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = registry.makeCounter(descriptor: Self.named("conditions_http_requests_total", help: "HTTP requests by endpoint and status."),
                                               labels: [("endpoint", endpoint), ("status", String(status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
        latency.record(duration)
    }

    /// Counts a result fetched from its upstream by the instance `source`.
    func upstreamFetch(source: String) {
        registry.makeCounter(descriptor: Self.named("conditions_upstream_fetches_total", help: "Results fetched from upstream, by source instance."),
                             labels: [("source", source)]).increment()
    }

    /// Counts one notice delivery's outcome (`sent`, `failed`, `retried`, `dropped`) for `target`.
    package func notice(target: String, outcome: String) {
        registry.makeCounter(descriptor: Self.named("conditions_notices_total", help: "Notice deliveries by target and outcome (sent, failed, retried, dropped)."),
                             labels: [("target", target), ("outcome", outcome)]).increment()
    }

    /// The descriptor of the metric called `name`, whole (no namespace or unit added), with
    /// its `# HELP` text.
    private static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// The Prometheus text exposition.
    package func render() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
