import APNsCore

extension JSONValue {
    /// The number as an `Int` when it has no fractional part: `7`, `7.0` and `7e0` alike, as JSON Schema's
    /// `integer` reads them (and client libraries that keep every number a double send them).
    var wholeNumber: Int? {
        guard let lexeme = numberLexeme else { return nil }
        if let exact = Int(lexeme) { return exact }
        // Beyond 2^53 a double no longer tells whole numbers apart; no field here needs that range.
        guard let double = Double(lexeme), double.rounded() == double, abs(double) <= 9_007_199_254_740_992 else {
            return nil
        }
        return Int(double)
    }
}
