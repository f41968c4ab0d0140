import ParlanceContext

/// The exact sum of finite doubles, read as the nearest double (ties to even).
///
/// Floating-point addition depends on its order: the credits of a report added record by
/// record in corpus order, and the same credits added per partition of a cluster and then
/// partition by partition, can differ in the last bit. An exact sum does not: every finite
/// double is an integer number of 2⁻¹⁰⁷⁴ (the smallest subnormal), so the sum is kept as
/// such an integer (a sign and 64-bit limbs) and rounded once when read. `parlance eval`
/// and the sum of `batch --outcomes` records therefore give the same report, bit for bit,
/// whatever the order of the additions.
public struct ExactSum: Sendable, Hashable {
    /// The magnitude in units of 2⁻¹⁰⁷⁴, least significant limb first, no trailing zero
    /// limbs (so equal sums are equal values).
    private var limbs: [UInt64] = []
    private var negative = false

    /// An empty sum: zero.
    public init() {}

    /// The sum of one value, which must be finite (a NaN or an infinity stops the program).
    public init(_ value: Double) { add(value) }

    /// Adds a finite value.
    public mutating func add(_ value: Double) {
        precondition(value.isFinite, "ExactSum adds finite values, not \(value)")
        guard value != 0 else { return }
        let exponent = Int(value.exponentBitPattern)
        // A subnormal is its significand bits × 2⁻¹⁰⁷⁴; a normal value has the hidden bit
        // and is shifted by its biased exponent less one.
        let significand = exponent == 0 ? value.significandBitPattern : value.significandBitPattern | (1 << 52)
        let shift = exponent == 0 ? 0 : exponent - 1
        var magnitude = [UInt64](repeating: 0, count: shift / 64 + 2)
        magnitude[shift / 64] = significand << UInt64(shift % 64)
        magnitude[shift / 64 + 1] = shift % 64 > 11 ? significand >> UInt64(64 - shift % 64) : 0
        add(magnitude: Self.trimmed(magnitude), negative: value < 0)
    }

    /// Adds another exact sum.
    public mutating func add(_ other: ExactSum) { add(magnitude: other.limbs, negative: other.negative) }

    /// The exact sum of two exact sums.
    public static func + (a: ExactSum, b: ExactSum) -> ExactSum {
        var sum = a
        sum.add(b)
        return sum
    }

    private mutating func add(magnitude other: [UInt64], negative otherNegative: Bool) {
        guard !other.isEmpty else { return }
        if limbs.isEmpty || negative == otherNegative {
            limbs = Self.sum(limbs, other)
            negative = otherNegative
        } else if Self.compare(limbs, other) >= 0 {
            limbs = Self.difference(limbs, other)
        } else {
            limbs = Self.difference(other, limbs)
            negative = otherNegative
        }
        if limbs.isEmpty { negative = false }
    }

    private static func trimmed(_ limbs: [UInt64]) -> [UInt64] {
        var result = limbs
        while result.last == 0 { result.removeLast() }
        return result
    }

    private static func sum(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: max(a.count, b.count) + 1)
        var carry: UInt64 = 0
        for i in 0..<result.count - 1 {
            let (s1, o1) = (i < a.count ? a[i] : 0).addingReportingOverflow(i < b.count ? b[i] : 0)
            let (s2, o2) = s1.addingReportingOverflow(carry)
            result[i] = s2
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        result[result.count - 1] = carry
        return trimmed(result)
    }

    /// a − b for a ≥ b.
    private static func difference(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = a
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let (d1, o1) = a[i].subtractingReportingOverflow(i < b.count ? b[i] : 0)
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            result[i] = d2
            borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        return trimmed(result)
    }

    private static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for i in stride(from: a.count - 1, through: 0, by: -1) where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
        return 0
    }

    /// Bit `n` of the magnitude (0 is the least significant).
    private func bit(_ n: Int) -> UInt64 { n < 0 || n / 64 >= limbs.count ? 0 : (limbs[n / 64] >> UInt64(n % 64)) & 1 }

    /// Whether any bit of the magnitude below `n` is set.
    private func anyBit(below n: Int) -> Bool {
        guard n > 0 else { return false }
        let whole = min(n / 64, limbs.count)
        if limbs[..<whole].contains(where: { $0 != 0 }) { return true }
        guard whole < limbs.count, n % 64 != 0 else { return false }
        return limbs[whole] & ((1 << UInt64(n % 64)) - 1) != 0
    }

    /// The nearest double to the exact sum, ties to even (±infinity past the largest double).
    public var value: Double {
        guard let top = limbs.indices.last else { return 0 }
        let sign: FloatingPointSign = negative ? .minus : .plus
        let highest = top * 64 + 63 - limbs[top].leadingZeroBitCount  // the leading 1
        // Up to 53 significant bits the integer is exact as a double.
        guard highest >= 53 else { return Double(sign: sign, exponent: -1074, significand: Double(limbs[0])) }
        // The 53 bits from the leading one down, then the rounding bit and the rest.
        var significand: UInt64 = 0
        for n in stride(from: highest, through: highest - 52, by: -1) { significand = significand << 1 | bit(n) }
        let lowest = highest - 52
        if bit(lowest - 1) == 1, anyBit(below: lowest - 1) || significand & 1 == 1 { significand += 1 }
        return Double(sign: sign, exponent: lowest - 1074, significand: Double(significand))
    }
}
