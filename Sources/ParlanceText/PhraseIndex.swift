/// Phrases as sequences of token keys, matched longest-first against a token stream.
/// A phrase key may be `PhraseIndex.numberSlot`, which matches any number.
struct PhraseIndex<Value: Sendable>: Sendable {
    static var numberSlot: String { "#" }

    private final class Node: @unchecked Sendable {
        var children: [String: Node] = [:]
        var value: Value?
    }

    private let root = Node()
    private(set) var count = 0

    /// Adds a phrase; an existing value for the same keys is replaced only when `replace`.
    mutating func insert(_ keys: [String], _ value: Value, replace: Bool = false) {
        guard !keys.isEmpty else { return }
        var node = root
        for key in keys {
            if let next = node.children[key] {
                node = next
            } else {
                let next = Node()
                node.children[key] = next
                node = next
            }
        }
        if node.value == nil { count += 1 }
        if node.value == nil || replace { node.value = value }
    }

    /// Every phrase and its value, depth first, each node's words in sorted order.
    var entries: [(keys: [String], value: Value)] {
        var result: [(keys: [String], value: Value)] = []
        func walk(_ node: Node, _ path: [String]) {
            if let value = node.value { result.append((path, value)) }
            for key in node.children.keys.sorted() { walk(node.children[key]!, path + [key]) }
        }
        walk(root, [])
        return result
    }

    func value(for keys: [String]) -> Value? {
        var node = root
        for key in keys {
            guard let next = node.children[key] else { return nil }
            node = next
        }
        return node.value
    }

    /// The longest phrase starting at `start` in `units`. `numberAt(i)` tells whether a
    /// number starts at unit i and how many units it covers (for number slots).
    /// Returns the value, the end (exclusive) and the numbers that filled slots.
    func longestMatch(
        in units: [String], from start: Int, numberAt: (Int) -> (length: Int, value: Double)? = { _ in nil }
    ) -> (value: Value, end: Int, slots: [Double])? {
        var best: (Value, Int, [Double])?
        func walk(_ node: Node, _ i: Int, _ slots: [Double]) {
            if let value = node.value, best == nil || i > best!.1 { best = (value, i, slots) }
            guard i < units.count else { return }
            if let next = node.children[units[i]] { walk(next, i + 1, slots) }
            if let slot = node.children[Self.numberSlot], let number = numberAt(i) {
                walk(slot, i + number.length, slots + [number.value])
            }
        }
        walk(root, start, [])
        return best
    }
}
