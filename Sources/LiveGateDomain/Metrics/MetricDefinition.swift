/// One metric as Prometheus shows it: name, type, what it means, its labels and, for a histogram, its
/// buckets; and, for one another library records (Hummingbird, PostgresClient, APNsClient), what that
/// library calls it and its dimensions.
package struct MetricDefinition: Sendable {
    package enum Kind: String, Sendable {
        case counter
        case gauge
        case histogram
    }

    package let name: String
    package let kind: Kind
    package let help: String
    package let labels: [String]
    package let buckets: [Duration]
    /// The swift-metrics label it is recorded under: `name` for the gateway's own metrics.
    package let recordedAs: String
    /// The recording library's dimension names, and the label each becomes.
    package let renamedDimensions: [String: String]

    package init(
        _ name: String, _ kind: Kind, labels: [String] = [], buckets: [Duration] = [], recordedAs: String? = nil,
        renamedDimensions: [String: String] = [:], help: String
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.labels = labels
        self.buckets = buckets
        self.recordedAs = recordedAs ?? name
        self.renamedDimensions = renamedDimensions
    }
}
