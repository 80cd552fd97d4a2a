import Foundation

/// Braze's connected audience object, read: custom-attribute filters joined by nested `AND` and `OR`.
/// Evaluated in SQL (`AudienceSQL`) when a start to it is delivered, never loaded user by user.
package indirect enum Audience: Sendable, Equatable {
    /// Every part matches.
    case all([Audience])
    /// At least one part matches.
    case any([Audience])
    case attribute(AttributeFilter)

    /// Both audiences: a segment narrowed by a `custom_audience`.
    package func and(_ other: Audience) -> Audience { .all([self, other]) }
}

/// One `custom_attribute` filter: an attribute, by name, compared as the comparison's type says.
package struct AttributeFilter: Sendable, Equatable {
    package var name: String
    package var comparison: AttributeComparison

    package init(name: String, comparison: AttributeComparison) {
        self.name = name
        self.comparison = comparison
    }
}

/// A comparison Braze allows, with its value read as the type it compares. A user without the
/// attribute, or holding it as another type, never matches a positive comparison and always matches
/// its negation (`not_equal`, `does_not_match_regex`, `does_not_include_value`, `does_not_exist`).
package enum AttributeComparison: Sendable, Equatable {
    case equals(AttributeScalar)
    case notEqual(AttributeScalar)
    /// PostgreSQL's regular expressions, matched regardless of case as Braze's are.
    case matchesRegex(String)
    case doesNotMatchRegex(String)
    case greaterThan(Double)
    case greaterThanOrEqual(Double)
    case lessThan(Double)
    case lessThanOrEqual(Double)
    /// A time between `days` ago and now.
    case lessThanDaysAgo(Double)
    /// A time more than `days` ago.
    case greaterThanDaysAgo(Double)
    /// A time between now and `days` from now.
    case lessThanDaysInTheFuture(Double)
    /// A time more than `days` from now.
    case greaterThanDaysInTheFuture(Double)
    case after(Date)
    case before(Date)
    /// An array attribute holding the value.
    case includesValue(String)
    case doesNotIncludeValue(String)
    case exists
    case doesNotExist
}

/// The value of an `equals` or `not_equal`: its JSON type says which attributes it compares with.
package enum AttributeScalar: Sendable, Equatable {
    case string(String)
    case number(Double)
    case boolean(Bool)
}
