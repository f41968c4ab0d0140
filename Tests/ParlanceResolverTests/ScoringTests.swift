import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// Each scoring component on a small contact list, through the public resolver.
@Suite struct ScoringTests {
    static let contacts: [VocabularyItem] = [
        .init("jose", "José Álvarez"), .init("jean-pierre", "Jean-Pierre Dubois"), .init("wei", "Wei Zhang"),
        .init("ana-belen", "Ana Belén Ruiz"), .init("li-na", "李娜"), .init("inigo", "Íñigo Etxeberria", pronunciation: "inyigo echeberria"),
        .init("vicente", "Vicente Llorente"), .init("yolanda", "Yolanda Hidalgo"), .init("jon", "Jon Baker"),
        .init("sean", "Sean O'Connor"), .init("giovanni", "Giovanni Rossi"), .init("dmitri", "Дмитрий Петров")
    ]
    static let resolver = Resolver(context: try! Support.context(contacts: contacts))

    func resolve(_ said: String, _ locale: ParlanceLocale = Support.en) throws -> Resolver.Answer {
        try Self.resolver.resolve(said, app: "MonkeyChat", type: "contactName", locale: locale)
    }

    @Test(arguments: [
        ("jose alvarez", "jose"), ("JOSÉ ÁLVAREZ", "jose"), ("Jose Alvarez", "jose"),  // case and accents
        ("Jean Pierre Dubois", "jean-pierre"), ("jean-pierre", "jean-pierre"),  // hyphenated
        ("Zhang Wei", "wei"), ("Wei", "wei"), ("Etxeberria", "inigo"),  // reordered, first name, surname
        ("Ana Belén", "ana-belen"),  // compound first name
        ("Li Na", "li-na"), ("李娜", "li-na"), ("Dmitrij Petrov", "dmitri"),  // cross-script
        ("inyigo echeberria", "inigo")  // pronunciation hint
    ])
    func certainMatchesSucceed(said: String, id: String) throws {
        let r = try resolve(said).resolution
        #expect(r.kind == .success, "\(said): \(r)")
        #expect(Support.ids(r) == [id], "\(said)")
    }

    @Test(arguments: [
        ("Giovani Rossi", "giovanni", "en-US"),  // one letter
        ("Bicente Llorente", "vicente", "es-ES"),  // Spanish b/v
        ("Llolanda Hidalgo", "yolanda", "es-ES"),  // Spanish ll/y
        ("Vicente Lorente", "vicente", "es-ES"),
        ("John Baker", "jon", "en-US"),  // English Jon/John
        ("Shawn O'Connor", "sean", "en-US"),  // English Sean/Shawn (equivalents)
        ("J. Baker", "jon", "en-US")  // initial
    ])
    func approximateMatchesAskForConfirmation(said: String, id: String, locale: String) throws {
        let answer = try resolve(said, try ParlanceLocale(locale))
        #expect(answer.resolution.kind == .confirmationRequired, "\(said): \(answer.resolution)")
        #expect(Support.ids(answer.resolution) == [id], "\(said)")
        // The explanation says why: some word matched only approximately, or the name was read
        // otherwise (John, a form of Jon: `NameKnowledge`).
        let match = try #require(answer.candidates.first?.match)
        #expect(!match.certain)
        #expect(match.words.contains { $0.how != .exact } || match.variant != nil)
    }

    @Test func soundAlikesAreLanguageSpecific() throws {
        // b/v is one sound in Spanish, not in English.
        #expect(try resolve("Bicente", Support.es).resolution.kind == .confirmationRequired)
        let english = try resolve("Bicente", Support.en)
        #expect(english.candidates.first?.match.words.first?.how != .soundAlike)
    }

    @Test(arguments: ["Rodrigo", "Zorro Zapatero", "Bananas"])
    func unknownNamesAreUnsupportedWithAReason(said: String) throws {
        let r = try resolve(said).resolution
        #expect(r.kind == .unsupported)
        #expect(r.items.isEmpty)
        #expect(r.reason?.contains(said) == true)
    }

    @Test func explanationNamesEachComponent() throws {
        let answer = try resolve("Giovanni Rosti")
        let best = try #require(answer.candidates.first)
        #expect(best.id == "giovanni")
        #expect(best.match.basis == .words)
        #expect(best.match.words.map(\.how) == [.exact, .misspelling])
        #expect(best.match.words.map(\.matched) == ["giovanni", "rossi"])
        // A doubled letter is a sound-alike in English, better than a misspelling.
        #expect(try resolve("Giovani Rossi").candidates.first?.match.words.first?.how == .soundAlike)
        #expect(best.match.coverage == 1)
        #expect(best.prior > 0)
        // The JSON form is what `parlance resolve --explain` prints.
        let json = String(decoding: try JSONEncoder().encode(best), as: UTF8.self)
        #expect(json.contains("\"how\":\"misspelling\""))
    }

    @Test func priorityOrdersNearTiesOnly() throws {
        let resolver = Resolver(
            context: try Support.context(contacts: [.init("a1", "Ana Torres"), .init("a2", "Ana Gómez"), .init("x", "Anabel Ruiz")]))
        let r = try resolver.resolve("Ana", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution
        #expect(r.kind == .disambiguation)
        #expect(Support.ids(r).prefix(2) == ["a1", "a2"])
        // Reversing the set's order reverses the tie.
        let reversed = Resolver(context: try Support.context(contacts: [.init("a2", "Ana Gómez"), .init("a1", "Ana Torres")]))
        #expect(
            Support.ids(try reversed.resolve("Ana", app: "MonkeyChat", type: "contactName", locale: Support.en).resolution) == ["a2", "a1"])
    }

    @Test func emptyAndPunctuationOnlyQueries() throws {
        for said in ["", "   ", "!!", "—"] {
            let r = try resolve(said).resolution
            #expect(r.kind == .unsupported, "'\(said)'")
        }
    }
}
