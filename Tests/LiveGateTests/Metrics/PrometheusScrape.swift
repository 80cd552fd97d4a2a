import Foundation
import TestSupport
import Testing

/// One scrape of `GET /metrics`, read as Prometheus's text format: each sample by name and label set,
/// each family's `# TYPE` and `# HELP`. A sample not shown reads as 0, as Prometheus treats a
/// series that has not started yet.
struct PrometheusScrape {
    struct Series: Hashable {
        let name: String
        let labels: [String: String]
    }

    let text: String
    private(set) var samples: [Series: Double] = [:]
    private(set) var types: [String: String] = [:]
    private(set) var helps: [String: String] = [:]

    init(_ text: String) throws {
        self.text = text
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                types[String(parts[0])] = String(parts[1])
            } else if line.hasPrefix("# HELP ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1)
                helps[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            } else if !line.hasPrefix("#") {
                let (series, value) = try Self.sample(line)
                samples[series] = value
            }
        }
    }

    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples[Series(name: name, labels: labels)] ?? 0
    }

    /// How far a series moved since `earlier`.
    func delta(_ name: String, _ labels: [String: String] = [:], since earlier: PrometheusScrape) -> Double {
        value(name, labels) - earlier.value(name, labels)
    }

    /// Every series of `name`.
    func series(_ name: String) -> [Series: Double] {
        samples.filter { $0.key.name == name }
    }

    /// `name{a="b",c="d"} 12.5`; label values may hold `\"`, `\\` and `\n`.
    private static func sample(_ line: Substring) throws -> (Series, Double) {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
            throw CurlHTTPClient.Failure(description: "not a sample line: \(line)")
        }
        let head = line[..<space]
        guard let brace = head.firstIndex(of: "{") else { return (Series(name: String(head), labels: [:]), value) }
        var labels: [String: String] = [:]
        var rest = head[head.index(after: brace)...].dropLast()  // the closing brace
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = String(rest[..<equals]).trimmingCharacters(in: CharacterSet(charactersIn: ", "))
            var cursor = rest.index(equals, offsetBy: 2)  // past `="`
            var labelValue = ""
            while rest[cursor] != "\"" {
                if rest[cursor] == "\\" {
                    cursor = rest.index(after: cursor)
                    labelValue.append(rest[cursor] == "n" ? "\n" : rest[cursor])
                } else {
                    labelValue.append(rest[cursor])
                }
                cursor = rest.index(after: cursor)
            }
            labels[key] = labelValue
            rest = rest[rest.index(after: cursor)...]
        }
        return (Series(name: String(head[..<brace]), labels: labels), value)
    }

    /// Scrapes `url` (expects 200 and Prometheus's text content type).
    static func scrape(_ url: String) async throws -> PrometheusScrape {
        let response = try await CurlHTTPClient.request("GET", url)
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        return try PrometheusScrape(response.text)
    }
}
