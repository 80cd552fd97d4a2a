extension BinaryInteger {
    /// Division rounding toward minus infinity: what splitting a time before 1970 into days and seconds
    /// needs (Swift's `/` rounds toward zero).
    func floorDivided(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
