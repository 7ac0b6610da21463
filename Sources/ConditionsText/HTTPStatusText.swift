/// The reason phrases error messages give after an HTTP status (`HTTP 503 Service Unavailable`),
/// for the statuses upstreams answer most; others are said by number alone.
public enum HTTPStatusText {
    /// `code`'s reason phrase, or "" for one not listed.
    public static func reasonPhrase(_ code: Int) -> String {
        switch code {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
