import ConditionsKit

/// `pass:all` in HTML mode when some pages failed: one line naming each failed pass and why.
/// Its kind is the failures' common kind (`http`, `badResponse`, ...) or `upstream` when they differ.
struct PassesFailed: ReportableError {
    let total: Int
    let failures: [(slug: String, error: any Error)]

    var kind: String {
        let kinds = Set(failures.map { ConditionsError.report($0.error).kind })
        return kinds.count == 1 ? kinds.first ?? "upstream" : ConditionsError.Kind.upstream.rawValue
    }

    var message: String {
        let reasons = failures.map { "\($0.slug) (\(ConditionsError.report($0.error).message))" }
        return "\(failures.count) of \(total) passes failed: \(reasons.joined(separator: "; "))"
    }
}
