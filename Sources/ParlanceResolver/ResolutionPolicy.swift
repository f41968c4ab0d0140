import Foundation
import ParlanceContext

/// The one place where scored candidates become a SiriKit resolution result
/// (intents.md "Resolution results"). Every threshold is a setting; the defaults were tuned on
/// `Corpora/resolution` and are listed in the "Resolution policy" article (Parlance.docc).
///
/// Given the candidates of one said name, each with a score from 0 to 1 (`NameMatch.score`)
/// plus the priority prior:
/// 1. Candidates under `minimumScore` are dropped. None left → `unsupported`, with the
///    closest item in the reason.
/// 2. Candidates whose whole name was said (all words equal after folding, or equal without
///    spaces, or equal to the pronunciation hint or the transliteration): exactly one →
///    `success`, whatever partial matches exist ("Bobo" picks the contact named just Bobo
///    over Bobo the Great); several → they are the group of step 4.
/// 3. Otherwise the group is every candidate within `groupMargin` of the best score.
/// 4. A group larger than `maximumOptions` → `needsMoreDetails` (80 contacts called Bobo);
///    2 to `maximumOptions` → `disambiguation`, best first by score plus prior (the item
///    scores shown include the prior, capped at 1).
/// 4a. Before that, donations: when one item of a group of 2 or more has a donation weight
///    `donationLead` above every other's (the user picks it often and recently), it is
///    offered alone as `confirmationRequired`.
/// 5. A group of one: `success` when every said word matched a word of the item exactly
///    ("Wei" for Wei Zhang), `confirmationRequired` when some matched only approximately
///    (sound-alike, misspelled, initial, prefix).
public struct ResolutionPolicy: Sendable, Hashable, Codable {
    /// Candidates scoring less are not considered at all.
    public var minimumScore: Double
    /// Candidates this close to the best are too close to pick between.
    public var groupMargin: Double
    /// The most options a disambiguation offers (SiriKit: 2 to 10).
    public var maximumOptions: Int
    /// How much the item's place in its ordered set adds: the first item gets all of it,
    /// the last none. Small, so that it only orders near-ties.
    public var priorWeight: Double
    /// At most this many candidate forms are scored per query (most promising first).
    public var maximumCandidates: Int
    /// How far one item's donation weight (0 to 1) must lead every other's in a tie for the
    /// donations to pick it: 0.3, so one donation today (0.5) decides a tie with an item
    /// never chosen, one four weeks old (0.2) does not.
    public var donationLead: Double = 0.3
    /// At most this many other readings of a name (short forms, the same given name in other
    /// languages, particles: `NameKnowledge.variants`) are searched per query, in the order
    /// `variants` gives them, among those whose words some vocabulary has: 8, which a contact
    /// list never reaches, and which bounds a query in a list of a million names where nearly
    /// every given name has someone.
    public var maximumReadings: Int = 8

    /// Creates a policy; every setting defaults to its tuned value. `donationLead` is not a parameter: set the property.
    public init(
        minimumScore: Double = 0.75, groupMargin: Double = 0.14, maximumOptions: Int = 10, priorWeight: Double = 0.02,
        maximumCandidates: Int = 32
    ) {
        self.minimumScore = minimumScore
        self.groupMargin = groupMargin
        self.maximumOptions = maximumOptions
        self.priorWeight = priorWeight
        self.maximumCandidates = maximumCandidates
    }

    /// The tuned defaults, listed in the "Resolution policy" article (Parlance.docc).
    public static let standard = ResolutionPolicy()

    /// A scored candidate item (its best form).
    public struct Candidate: Sendable, Hashable, Codable {
        /// The item's id.
        public let id: String
        /// How the item is shown: its phrase, or a custom enum case's name.
        public let display: String
        /// The best comparison of the said name with the item's forms (its phrase or its pronunciation hint).
        public let match: NameMatch
        /// 0 for the most important item of its set, rising.
        public let rank: Int
        /// The priority prior: `priorWeight` for the first item of a user vocabulary set, falling evenly to 0 for the last;
        /// always 0 for app vocabulary.
        public let prior: Double
        /// The donations' weight for the item (0 to 1): how often and recently the user chose
        /// it for this parameter. Decides ties only (`donationLead`).
        public var donation: Double = 0
        /// `match.score` plus `prior`: what candidates are ranked by.
        public var total: Double { match.score + prior }
    }

    /// Decides. `candidates` may be in any order; `type` and `said` word the reasons.
    public func decide(_ candidates: [Candidate], said: String, type: String) -> Resolution {
        let ranked = candidates.sorted { $0.total != $1.total ? $0.total > $1.total : $0.rank < $1.rank }
        let kept = ranked.filter { $0.match.score >= minimumScore }
        guard let best = kept.first else {
            if let closest = ranked.first {
                return Resolution(
                    kind: .unsupported,
                    reason: "no \(type) close enough to '\(said)' (closest: '\(closest.display)', \(format(closest.match.score)))")
            }
            return Resolution(kind: .unsupported, reason: "no \(type) close to '\(said)'")
        }
        let whole = kept.filter { $0.match.whole }
        // Every said word matched exactly ("Roberta" for Roberta Hartley): those items, and not
        // the ones that only sound alike or are a slip away (Robert Hart).
        let certain = kept.filter { $0.match.certain }
        let group: [Candidate]
        if whole.count == 1 {
            return Resolution(kind: .success, items: [item(whole[0])])
        } else if whole.count > 1 {
            group = whole
        } else if certain.count == 1 {
            return Resolution(kind: .success, items: [item(certain[0])])
        } else if certain.count > 1 {
            group = certain
        } else {
            group = kept.filter { $0.match.score >= best.match.score - groupMargin }
        }
        // Donations decide a tie when one item leads the rest clearly: a guess from habit,
        // so it is put to the user as a confirmation.
        if group.count >= 2 {
            let byDonation = group.sorted { $0.donation > $1.donation }
            if byDonation[0].donation - byDonation[1].donation >= donationLead {
                return Resolution(
                    kind: .confirmationRequired, items: [item(byDonation[0])],
                    reason:
                        "\(group.count) \(type) items match '\(said)'; '\(byDonation[0].display)' is the one chosen most (donations \(format(byDonation[0].donation)))"
                )
            }
        }
        if group.count > maximumOptions {
            return Resolution(
                kind: .needsMoreDetails,
                reason: "\(group.count)\(group.count >= maximumCandidates ? " or more" : "") \(type) items match '\(said)'")
        }
        if group.count >= 2 {
            return Resolution(kind: .disambiguation, items: group.map(item))
        }
        return Resolution(kind: best.match.certain ? .success : .confirmationRequired, items: [item(best)])
    }

    func item(_ c: Candidate) -> Resolution.Item {
        Resolution.Item(id: c.id, display: c.display, score: (min(1, c.total) * 1000).rounded() / 1000)
    }

    func format(_ x: Double) -> String { String(format: "%.2f", x) }
}
