/// One metric as Prometheus shows it: name, type, what it means, its labels and, for a histogram, its
/// buckets; and, for one another library records (Hummingbird, PostgresClient, APNsClient), what that
/// library calls it and its dimensions.
public struct MetricDefinition: Sendable {
    public enum Kind: String, Sendable {
        case counter
        case gauge
        case histogram
    }

    public let name: String
    public let kind: Kind
    public let help: String
    public let labels: [String]
    public let buckets: [Duration]
    /// The swift-metrics label it is recorded under: `name` for the gateway's own metrics.
    public let recordedAs: String
    /// The recording library's dimension names, and the label each becomes.
    let renamedDimensions: [String: String]

    init(
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
