/// Edit distance with adjacent transpositions (optimal string alignment) between two
/// sequences, giving up above `limit` (then returns limit + 1). Scratch rows live on the
/// stack. Used on UTF-8 bytes by the resolver and on scalars by the shortcut matcher.
@inlinable
public func boundedDistance<E: Equatable>(_ a: UnsafeBufferPointer<E>, _ b: UnsafeBufferPointer<E>, limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: width * 3) { rows in
        var previous2 = 0
        var previous = width
        var current = 2 * width
        for j in 0...b.count { rows[previous + j] = j }
        for i in 1...a.count {
            rows[current] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, rows[previous2 + j - 2] + 1)
                }
                rows[current + j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return rows[previous + b.count]
    }
}
