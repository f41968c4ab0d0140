import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

@Suite struct VocabularyStoreTests {
    @Test func aRemovedContactIsNeverMatchedAgain() throws {
        let resolver = Resolver(context: .demo)
        #expect(
            Support.ids(try resolver.resolve("Bobo Jr.", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution) == [
                "bobo-jr"
            ])
        try resolver.store.removeUserVocabulary(ids: ["bobo-jr"], app: "MonkeyChat", type: "contactName")
        let after = try resolver.resolve("Bobo Jr.", app: "MonkeyChat", type: "contactName", locale: Support.en)
        #expect(!after.candidates.contains { $0.id == "bobo-jr" })
        #expect(!after.resolution.items.contains { $0.id == "bobo-jr" })
        #expect(resolver.store.userVocabulary(app: "MonkeyChat", type: "contactName").map(\.id) == ["bobo-great", "little-bobo", "bobo-1"])
    }

    @Test func replacingAndRemovingAllFollowSiriKit() throws {
        let resolver = Resolver(context: .demo)
        try resolver.store.setUserVocabulary([.init("k1", "Koko")], app: "MonkeyChat", type: "contactName")
        #expect(Support.ids(try resolver.resolve("Koko", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution) == ["k1"])
        // The whole set was replaced: the Bobos are gone.
        #expect(try resolver.resolve("Bobo", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution.kind == .unsupported)
        try resolver.store.removeAllUserVocabulary(app: "MonkeyChat")
        let gone = try resolver.resolve("Koko", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(gone.kind == .unsupported)
        // App vocabulary is not user vocabulary: sign-out leaves MonkeyFit's workouts.
        try resolver.store.removeAllUserVocabulary(app: "MonkeyFit")
        #expect(
            try resolver.resolve("Bananarific", app: "MonkeyFit", type: "workoutActivityName", locale: Support.en).resolution.kind
                == .success)
    }

    @Test func queriesDuringUpdatesSeeWholeSets() async throws {
        // Two sets with the same names and different ids: every answer must come wholly
        // from one of them, never a mixture, while a writer swaps them.
        let names = (0..<40).map { "Member \($0) Troop" }
        let a = names.enumerated().map { VocabularyItem("a\($0.offset)", $0.element) }
        let b = names.enumerated().map { VocabularyItem("b\($0.offset)", $0.element) }
        let resolver = Resolver(context: try Support.context(contacts: a))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for n in 0..<200 { try resolver.store.setUserVocabulary(n % 2 == 0 ? b : a, app: "MonkeyChat", type: "contactName") }
            }
            for _ in 0..<4 {
                group.addTask {
                    for n in 0..<100 {
                        let answer = try resolver.resolve(
                            "Member \(n % 40) Troop", app: "MonkeyChat", type: "contactName", locale: Support.en)
                        let prefixes = Set(answer.candidates.map { $0.id.prefix(1) })
                        #expect(prefixes.count == 1, "mixed sets: \(answer.candidates.map(\.id))")
                        #expect(answer.resolution.kind == .success)
                        #expect(answer.resolution.items.first.map { String($0.id.dropFirst()) } == String(n % 40))
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
