import Foundation
import Parlance
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// One vocabulary store read by both stages: every update (replace, remove, remove all)
/// reaches parsing and resolution together.
@Suite struct SharedVocabularyTests {

    /// The request reads as a list's only while the user has a list of that name (a list said
    /// only by a name the user does not have is no list: the parser's knowledge of names).
    static let request = "add Tom Waits to rainy day"

    static func parser() throws -> ResolvingParser {
        try ResolvingParser(context: try Support.jotter())
    }

    /// What each stage knows of the list: the parser's reading and its phrase set, the
    /// resolver's answer.
    static func known(_ chain: ResolvingParser) throws -> (parsed: String?, phrase: Bool, resolved: Resolution) {
        let result = try chain.parse(request, locale: Support.en, referenceTime: ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00"))
        let list = result.intent?.values("targetTaskList").first
        let phrase = try chain.parser.vocabularies(for: "en")["notebookItemTitle"]?.contains(["rainy", "day"]) ?? false
        let resolved = try chain.resolver.resolve("Rainy Day", app: "Jotter", type: "notebookItemTitle", locale: Support.en).resolution
        return (result.intent.map { "\($0.name) \(list?.resolution?.kind.rawValue ?? "-")" }, phrase, resolved)
    }

    @Test func aRemovedNameIsUnknownToBoth() throws {
        let chain = try Self.parser()
        #expect(chain.parser.vocabulary === chain.resolver.store)
        let before = try Self.known(chain)
        #expect(before.parsed == "addTasks success")
        #expect(before.phrase)
        #expect(Support.ids(before.resolved) == ["l1"])

        try chain.store.removeUserVocabulary(ids: ["l1"], app: "Jotter", type: "notebookItemTitle")
        let after = try Self.known(chain)
        #expect(after.parsed == nil, "the parser still knows the removed list: \(after.parsed ?? "")")
        #expect(!after.phrase)
        #expect(after.resolved.kind == .unsupported)
    }

    @Test func aReplacedSetAndSignOutReachBoth() throws {
        let chain = try Self.parser()
        try chain.store.setUserVocabulary([VocabularyItem("l2", "Groceries")], app: "Jotter", type: "notebookItemTitle")
        let replaced = try Self.known(chain)
        #expect(replaced.parsed == nil && !replaced.phrase && replaced.resolved.kind == .unsupported)

        try chain.store.setUserVocabulary(
            [VocabularyItem("l3", "Rainy Day"), VocabularyItem("l2", "Groceries")], app: "Jotter", type: "notebookItemTitle")
        let back = try Self.known(chain)
        #expect(back.parsed == "addTasks success" && back.phrase)
        #expect(Support.ids(back.resolved) == ["l3"])

        try chain.store.removeAllUserVocabulary(app: "Jotter")
        let signedOut = try Self.known(chain)
        #expect(signedOut.parsed == nil && !signedOut.phrase && signedOut.resolved.kind == .unsupported)
    }

    @Test func theParserRebuildsOnlyWhenTheStoreMoves() throws {
        let chain = try Self.parser()
        let first = try chain.parser.resources(for: "en")
        #expect(try chain.parser.resources(for: "en") === first)
        try chain.store.setUserVocabulary([VocabularyItem("l9", "Attic")], app: "Jotter", type: "notebookItemTitle")
        let second = try chain.parser.resources(for: "en")
        #expect(second !== first)
        #expect(second.version > first.version)
        // The grammar, shortcuts and trained tier are not made again.
        #expect(second.base === first.base)
    }

    @Test func usersOfOneContextShareGrammarsNotNames() throws {
        let context = try Support.jotter()
        let ana = try IntentParser(context: context)
        let benStore = VocabularyStore(context: context)
        let ben = try IntentParser(sharingGrammarsOf: ana, vocabulary: benStore, donations: DonationLog())
        try benStore.removeAllUserVocabulary(app: "Jotter")
        let reference = try ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
        #expect(try ana.parse(Self.request, locale: Support.en, referenceTime: reference).intent?.name == "addTasks")
        #expect(try ben.parse(Self.request, locale: Support.en, referenceTime: reference).intent == nil)
        // One grammar compiled for both.
        #expect(try ben.resources(for: "en").base === ana.resources(for: "en").base)
    }
}
