import Foundation
import LiveGateDomain
import NIOCore

/// The pages' lists of log entry types (the log page's type filter, the dispatch page's `<datalist>`),
/// written into each page from `ActivityLogType.all`, so the Swift list is the only list of type names:
/// the scripts read each type's short label and colour from its option's `data-label` and `data-style`
/// (markup, not inline code, so the strict policy still holds).
enum ActivityLogTypeOptions {
    /// Where a page wants the options: this comment, in `message-activity-log.html` and `dispatch.html`.
    static let placeholder = "<!-- ActivityLogType.all -->"

    /// What the dashboard shows for a type: a short label, and the CSS class that colours it.
    static func presentation(of type: ActivityLogType) -> (label: String, style: String) {
        switch type {
        case .noPushCredential: ("No push credential", "type-no-credential")
        case .invalidPushCredential: ("Invalid push credential", "type-invalid-credential")
        case .feedbackRemovedToken: ("Token removed", "type-removed-token")
        case .other: ("Other error", "type-other")
        case .contentStateMismatch: ("Payload mismatch", "type-payload-mismatch")
        case .priorityLowered: ("Priority lowered", "type-priority-lowered")
        case .webhookPaused: ("Webhook paused", "type-webhook-paused")
        case .webhookResumed: ("Webhook resumed", "type-webhook-resumed")
        default: (type.rawValue, "type-unknown")
        }
    }

    /// One `<option>` per type, in `ActivityLogType.all`'s order, each on its own line.
    static func html(indentation: String) -> String {
        ActivityLogType.all.map { type in
            let (label, style) = presentation(of: type)
            let name = HTMLText.escaped(type.rawValue)
            return #"<option value="\#(name)" data-label="\#(HTMLText.escaped(label))" data-style="\#(style)">\#(name)</option>"#
        }.joined(separator: "\n" + indentation)
    }

    /// `page` with the placeholder replaced by the options, indented as the placeholder was.
    static func filling(_ page: ByteBuffer) -> ByteBuffer {
        let text = String(buffer: page)
        guard let range = text.range(of: placeholder) else { return page }
        let lineStart = text[..<range.lowerBound].lastIndex(of: "\n").map(text.index(after:)) ?? text.startIndex
        let indentation = String(text[lineStart..<range.lowerBound].prefix { $0 == " " })
        return ByteBuffer(string: text.replacingCharacters(in: range, with: html(indentation: indentation)))
    }
}
