import LiveGateAPI
import LiveGateDomain
import LiveGateStore
/// A setting the environment gives that cannot be used: which one, and what it takes.
package struct SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
