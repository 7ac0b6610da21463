import ConditionsJSON
import ConditionsKit

/// `pass:all` in HTML mode when some pages failed: one line naming each failed pass and why.
/// Its kind is the failures' common kind (`http`, `badResponse`, ...) or `upstream` when they differ.
struct PassesFailed: ReportableError {
    let total: Int
    let failures: [(slug: String, error: any Error)]

    var kind: ErrorKind {
        let kinds = Set(failures.map { ConditionsError.report($0.error).kind })
        return (kinds.count == 1 ? kinds.first : nil) ?? .upstream
    }

    /// Passes that failed for the same reason share it (`blewett, cayuse (no Chromium found …)`),
    /// so sixteen passes without a browser make one reason, not sixteen copies of it.
    var message: String {
        var reasons: [(message: String, slugs: [String])] = []
        for failure in failures {
            let message = ConditionsError.report(failure.error).message
            if let index = reasons.firstIndex(where: { $0.message == message }) {
                reasons[index].slugs.append(failure.slug)
            } else {
                reasons.append((message, [failure.slug]))
            }
        }
        let shown = reasons.map { "\($0.slugs.joined(separator: ", ")) (\($0.message))" }
        let count = failures.count == total ? "all \(total)" : "\(failures.count) of \(total)"
        return "\(count) passes failed: \(shown.joined(separator: "; "))"
    }
}
