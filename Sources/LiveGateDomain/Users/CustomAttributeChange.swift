import Foundation

/// What one attribute of a `/users/track` object asks for, as Braze reads it.
package enum CustomAttributeChange: Sendable, Equatable {
    case string(String)
    case number(Double)
    case boolean(Bool)
    /// An ISO 8601 date-time (a string that reads as one, or Braze's `{"$time": …}`), with its text.
    case time(Date, text: String)
    case array([String])
    /// Braze's `{"add": […], "remove": […]}`: values added to (once) and removed from the array.
    case arrayChange(add: [String], remove: [String])
    /// `null`: the attribute is removed.
    case remove

    /// The largest magnitude a number attribute (or a number an audience compares with) may have.
    package static let maximumNumber = 1e300
}
