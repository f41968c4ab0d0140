import ParlanceContext
import ParlanceText

/// Sentences generated from templates: each alternative picked at random, each optional part
/// kept about half the time, `<rules>` expanded from the grammar, `{slots}` filled by the
/// caller. Deterministic for a seed. The custom-intent tier learns from such sentences (an
/// app's few example phrases, expanded with its parameters' values).
struct TemplateGenerator {
    let rules: [String: TemplatePattern]

    /// How deep rules may nest before a sentence is given up (a rule that refers to itself).
    static let maximumDepth = 12

    /// One sentence, or nil when a slot has no value (`fill` returned nil) or rules nest too
    /// deep. `fill` gets the slot's name and returns its words.
    func sentence(_ pattern: TemplatePattern, rng: inout SplitMix64, fill: (String, inout SplitMix64) -> String?) -> String? {
        var words: [String] = []
        guard expand(pattern, depth: 0, into: &words, rng: &rng, fill: fill) else { return nil }
        return words.joined(separator: " ")
    }

    private func expand(
        _ pattern: TemplatePattern, depth: Int, into words: inout [String], rng: inout SplitMix64,
        fill: (String, inout SplitMix64) -> String?
    ) -> Bool {
        guard depth <= Self.maximumDepth else { return false }
        switch pattern {
        case .word(let word):
            words.append(word)
        case .sequence(let items):
            for item in items where !expand(item, depth: depth + 1, into: &words, rng: &rng, fill: fill) { return false }
        case .alternatives(let options):
            guard !options.isEmpty else { return true }
            return expand(options[Int(rng.next() % UInt64(options.count))], depth: depth + 1, into: &words, rng: &rng, fill: fill)
        case .optional(let inner):
            if rng.next() % 2 == 0 { return expand(inner, depth: depth + 1, into: &words, rng: &rng, fill: fill) }
        case .rule(let name):
            guard let rule = rules[name] else { return false }
            return expand(rule, depth: depth + 1, into: &words, rng: &rng, fill: fill)
        case .slot(let name):
            guard let value = fill(name, &rng) else { return false }
            if !value.isEmpty { words.append(value) }
        }
        return true
    }
}
