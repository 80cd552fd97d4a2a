import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one report and says what became of it: taken, refused for good, or worth another try (and
/// when). A 401 asks the JWT provider once more and sends again at once.
@available(iOS 16.0, macOS 13.0, *)
struct ReportSender: Sendable {
    enum Outcome: Sendable, Equatable {
        case sent
        case refused(LiveGateError)
        case retry(LiveGateError, after: Duration?)
    }

    let gatewayURL: URL
    let appID: String
    let deviceID: String
    let transport: any LiveGateTransport
    let tokens: SDKAuthenticationTokens

    func send(_ report: Report) async -> Outcome {
        let first = await attempt(report, freshToken: false)
        guard case .retry(let error, _) = first, error.code == .authenticationFailed, report.externalID != nil else { return first }
        return await attempt(report, freshToken: true)
    }

    private func attempt(_ report: Report, freshToken: Bool) async -> Outcome {
        var request = URLRequest(url: gatewayURL.appendingPathComponent(String(report.route.dropFirst())))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try report.body(appID: appID, deviceID: deviceID)
        } catch {
            return .refused(LiveGateError(code: .reportRefused, message: "the report could not be written as JSON", route: report.route))
        }
        if let externalID = report.externalID {
            do {
                if let jwt = try await tokens.token(for: externalID, fresh: freshToken) {
                    request.setValue("Bearer \(jwt)", forHTTPHeaderField: "Authorization")
                }
            } catch {
                return .retry(
                    LiveGateError(code: .tokenProviderFailed, message: "the SDK authentication token provider threw", route: report.route),
                    after: nil)
            }
        }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.perform(request)
        } catch {
            return .retry(
                LiveGateError(code: .gatewayUnavailable, message: "the gateway could not be reached", route: report.route), after: nil)
        }
        return Self.outcome(
            status: response.statusCode, retryAfter: response.value(forHTTPHeaderField: "Retry-After"), body: data,
            route: report.route)
    }

    static func outcome(status: Int, retryAfter: String?, body: Data, route: String) -> Outcome {
        switch status {
        case 200..<300:
            return .sent
        case 401:
            return .retry(
                LiveGateError(
                    code: .authenticationFailed, message: message(body) ?? "SDK authentication refused", status: status, route: route),
                after: nil)
        case 408, 429, 500...:
            let wait = retryAfter.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { Duration.seconds(max(0, $0)) }
            return .retry(
                LiveGateError(
                    code: .gatewayUnavailable, message: message(body) ?? "the gateway is busy or unavailable", status: status, route: route),
                after: wait)
        default:
            return .refused(
                LiveGateError(
                    code: .reportRefused, message: message(body) ?? "the gateway refused the report", status: status, route: route))
        }
    }

    /// The gateway's own words: its `message`, and the first of its `errors`.
    static func message(_ body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        let message = object["message"] as? String
        let first = (object["errors"] as? [Any])?.first as? String
        switch (message, first) {
        // The gateway's message often ends with its first error already: say it once.
        case (let message?, let first?): return message.contains(first) ? message : "\(message): \(first)"
        case (let message?, nil): return message
        case (nil, let first?): return first
        case (nil, nil): return nil
        }
    }
}
