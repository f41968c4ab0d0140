import ParlanceContext

/// The work one parse may do (issue 17): a count of the template matcher's steps (a state of
/// a template automaton reached at a word), the only part of parsing whose work depends on
/// how the words combine rather than on their number. Counted, not timed, so that a budget
/// gives the same answer on any machine and under any load. A parse that spends its budget
/// stops matching and throws `IntentParser.TooSlow`; `parlance batch` writes it as the error
/// record `too_slow` and goes on.
final class WorkMeter: @unchecked Sendable {
    let limit: Int
    /// (Read and written by the one thread the parse runs on: no dynamic exclusivity check.)
    @exclusivity(unchecked) private(set) var spent = 0

    init(limit: Int) { self.limit = limit }

    /// Spends `steps` steps (a matcher run's, counted as it went); false once the budget is gone.
    @discardableResult func spend(_ steps: Int = 1) -> Bool {
        spent += steps
        return spent <= limit
    }

    var exceeded: Bool { spent > limit }

    /// The meter of the parse running on this thread (one parse runs on one thread).
    @TaskLocal static var current: WorkMeter?

    /// Runs `work` with no meter: for what a parse makes once and keeps for later parses (the
    /// custom-intent tier), which must not be cut short by the parse's budget nor counted in
    /// its steps.
    static func unmetered<T>(_ work: () throws -> T) rethrows -> T {
        try $current.withValue(nil) { try work() }
    }
}

extension IntentParser {
    /// The default budget of matcher steps per utterance. The team corpora's lines take at
    /// most a few thousand and the worst hostile 64 KiB line about ten thousand (the word cap
    /// bounds them), so this is a guard against a grammar or an input nobody foresaw, not a
    /// limit an utterance meets.
    public static let defaultWorkBudget = 1_000_000

    /// A parse that spent its work budget (`IntentParser(context:…, workBudget:)`).
    public struct TooSlow: Error, Sendable, CustomStringConvertible {
        /// The budget the parse went over, in matcher steps.
        public let budget: Int
        /// A message giving the budget.
        public var description: String { "the parse went over its work budget of \(budget) matcher steps" }
    }
}
