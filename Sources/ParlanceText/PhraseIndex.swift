/// Phrases as sequences of token keys, matched longest-first against a token stream.
/// A phrase key may be `PhraseIndex.numberSlot`, which matches any number.
struct PhraseIndex<Value: Sendable>: Sendable {
    static var numberSlot: String { "#" }

    private final class Node: @unchecked Sendable {
        // (Written while the index is built, then only read: no dynamic exclusivity checks.)
        @exclusivity(unchecked) var children: [String: Node] = [:]
        /// The child for `numberSlot`, apart from the words: no word lookup asks for it.
        @exclusivity(unchecked) var slot: Node?
        @exclusivity(unchecked) var value: Value?

        func child(_ key: String) -> Node? { key == PhraseIndex.numberSlot ? slot : children[key] }
    }

    private let root = Node()
    private(set) var count = 0
    /// The sketch of the phrases' first words (`Bits256.sketch(_:)`): a unit whose bit is clear
    /// starts no phrase, found without hashing it.
    private var firstWords = Bits256()

    /// Adds a phrase; an existing value for the same keys is replaced only when `replace`.
    mutating func insert(_ keys: [String], _ value: Value, replace: Bool = false) {
        guard !keys.isEmpty else { return }
        firstWords.insert(Bits256.sketch(keys[0]))
        var node = root
        for key in keys {
            if let next = node.child(key) {
                node = next
            } else {
                let next = Node()
                if key == Self.numberSlot { node.slot = next } else { node.children[key] = next }
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
            var keys = Array(node.children.keys)
            if node.slot != nil { keys.append(Self.numberSlot) }
            for key in keys.sorted() { walk(node.child(key)!, path + [key]) }
        }
        walk(root, [])
        return result
    }

    func value(for keys: [String]) -> Value? {
        var node = root
        for key in keys {
            guard let next = node.child(key) else { return nil }
            node = next
        }
        return node.value
    }

    /// Whether a phrase may start with `key` (a number slot may start any): false rules out
    /// every `longestMatch` from a unit with that key, found from its sketch alone.
    func mayStart(with key: String) -> Bool { root.slot != nil || firstWords.contains(Bits256.sketch(key)) }

    /// The longest phrase starting at `start` in `units`. `numberAt(i)` tells whether a
    /// number starts at unit i and how many units it covers (for number slots).
    /// Returns the value, the end (exclusive) and the numbers that filled slots.
    func longestMatch(
        in units: [String], from start: Int, numberAt: (Int) -> (length: Int, value: Double)? = { _ in nil }
    ) -> (value: Value, end: Int, slots: [Double])? {
        guard start < units.count else { return nil }
        // A phrase opens with one of the first words (most units are ruled out by their
        // sketch, unhashed) or, if some phrase opens with a number, with a number.
        guard firstWords.contains(Bits256.sketch(units[start])) || (root.slot != nil && numberAt(start) != nil) else { return nil }
        var best: (Value, Int, [Double])?
        func walk(_ node: Node, _ i: Int, _ slots: [Double]) {
            if let value = node.value, best == nil || i > best!.1 { best = (value, i, slots) }
            guard i < units.count else { return }
            if let next = node.child(units[i]) { walk(next, i + 1, slots) }
            if let slot = node.slot, let number = numberAt(i) {
                walk(slot, i + number.length, slots + [number.value])
            }
        }
        walk(root, start, [])
        return best
    }
}
