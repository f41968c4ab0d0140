import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// Names as people say them (issue 14): relations, nicknames, short forms, given names across
/// languages, particles and spelling conventions, from the languages' `names.json`.
@Suite struct NameKnowledgeTests {
    static let contacts = [
        VocabularyItem(id: "carmen", phrase: "Carmen López", relationship: "mother"),
        VocabularyItem(id: "tia", phrase: "Tía"),
        VocabularyItem(id: "robert", phrase: "Robert Hart", nickname: "Bobby"),
        VocabularyItem(id: "guillaume", phrase: "Guillaume Martin"),
        VocabularyItem(id: "bobo-grand", phrase: "Bobo le Grand"),
        VocabularyItem(id: "jorg", phrase: "Jörg Schäfer"),
        VocabularyItem(id: "inigo", phrase: "Íñigo Urrutia"),
        VocabularyItem(id: "jose", phrase: "José Ramírez"),
        VocabularyItem(id: "lena", phrase: "Lena Fischer")
    ]

    func resolve(_ said: String, _ locale: ParlanceLocale = Support.en) throws -> Resolver.Answer {
        let resolver = Resolver(context: try Support.context(contacts: Self.contacts))
        return try resolver.resolve(said, app: "MonkeyChat", type: "contactName", locale: locale)
    }

    @Test(arguments: [
        ("mom", "en-US"), ("my mom", "en-US"), ("mamá", "es-ES"), ("mi madre", "es-ES"), ("ma mère", "fr-FR"), ("maman", "fr-FR"),
        ("Mutti", "de-DE"), ("meine Mutter", "de-DE"), ("mia madre", "it-IT"), ("minha mãe", "pt-BR")
    ])
    func aRelationWordReachesTheContactWithThatRelationship(said: String, locale: String) throws {
        let answer = try resolve(said, ParlanceLocale(locale))
        #expect(answer.resolution.kind == .success && Support.ids(answer.resolution) == ["carmen"], "\(said): \(answer.resolution)")
        #expect(answer.candidates.first?.match.basis == .relationship)
    }

    @Test func aRelationNoContactHasIsUnsupportedWithTheReason() throws {
        let answer = try resolve("my dad")
        #expect(answer.resolution.kind == .unsupported)
        #expect(answer.resolution.reason?.contains("your father") == true, "\(answer.resolution)")
    }

    @Test func aContactNamedByARelationWordIsReachedByItsDiminutives() throws {
        let answer = try resolve("tita", try ParlanceLocale("es-ES"))
        #expect(answer.resolution.kind == .success && Support.ids(answer.resolution) == ["tia"], "\(answer.resolution)")
    }

    @Test func theContactsOwnNicknameIsThatContact() throws {
        let answer = try resolve("Bobby")
        #expect(answer.resolution.kind == .success && Support.ids(answer.resolution) == ["robert"], "\(answer.resolution)")
        #expect(answer.candidates.first?.match.form == "nickname")
    }

    @Test(arguments: [
        ("Bob Hart", "robert", "en-US"), ("Rob Hart", "robert", "en-US"), ("Pepe Ramírez", "jose", "es-ES"),
        ("William Martin", "guillaume", "en-US"), ("Guillermo Martin", "guillaume", "es-ES"), ("Bobo the Great", "bobo-grand", "en-US"),
        ("Bobo el Grande", "bobo-grand", "es-ES")
    ])
    func shortFormsGivenNamesAcrossLanguagesAndParticlesAskForConfirmation(said: String, id: String, locale: String) throws {
        let answer = try resolve(said, ParlanceLocale(locale))
        #expect(answer.resolution.kind == .confirmationRequired && Support.ids(answer.resolution) == [id], "\(said): \(answer.resolution)")
        #expect(answer.candidates.first?.match.variant != nil, "the explanation says how it was read")
    }

    @Test(arguments: [("Joerg Schaefer", "jorg"), ("Jorg Schafer", "jorg"), ("Inyigo Urrutia", "inigo")])
    func anotherSpellingConventionIsTheSameName(said: String, id: String) throws {
        let answer = try resolve(said, try ParlanceLocale("de-DE"))
        #expect(answer.resolution.kind == .success && Support.ids(answer.resolution) == [id], "\(said): \(answer.resolution)")
    }

    @Test func anExactNameIsNotReadOtherwise() throws {
        let answer = try resolve("Lena Fischer")
        #expect(answer.resolution.kind == .success && answer.candidates.allSatisfy { $0.match.variant == nil })
    }

    @Test func anUnknownRelationshipInAContextIsAnError() throws {
        let json =
            #"{"apps": [{"name": "A", "intents": ["sendMessage"], "userVocabulary": {"contactName": [{"id": "x", "phrase": "X", "relationship": "boss"}]}}]}"#
        #expect(throws: (any Error).self) { try ParserContext.decode(Data(json.utf8), file: "test") }
        do {
            _ = try ParserContext.decode(Data(json.utf8), file: "test")
        } catch {
            #expect("\(error)".contains("relationship") && "\(error)".contains("manager"), "\(error)")
        }
    }

    /// Every `respellings` entry of every language reads as the name it spells: "maikel" →
    /// "michael" (as a respelling, or by a stronger claim: "inyigo" is a spelling of "iñigo",
    /// "ralf" the German form of "ralph").
    @Test(arguments: LanguageResources.availableLanguages)
    func everyRespellingReadsAsItsName(language: String) throws {
        let knowledge = try NameKnowledge.shared.get()
        func words(_ text: String) -> [String] { NameWords.split(TextNormalizer.key(text)) }
        let respellings = try Self.respellings(language)
        for (name, forms) in respellings {
            for form in forms where words(form) != words(name) {
                let variants = knowledge.variants(of: words(form))
                #expect(
                    variants.contains { $0.words == words(name) },
                    "\(language)/names.json: \(form) does not read as \(name)")
            }
        }
    }

    /// The spellings one language's sound-alike rules hold equal ("Sean", "Shawn") read as
    /// each other in a request of any language.
    @Test(arguments: LanguageResources.availableLanguages)
    func soundAlikeEquivalentsReadAsEachOther(language: String) throws {
        let knowledge = try NameKnowledge.shared.get()
        func words(_ text: String) -> [String] { NameWords.split(TextNormalizer.key(text)) }
        let url = try #require(LanguageResources.directory?.appendingPathComponent(language).appendingPathComponent("soundalike.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let groups = try #require(object["equivalents"] as? [[String]])
        for group in groups {
            for a in group {
                let variants = knowledge.variants(of: words(a))
                for b in group where words(b) != words(a) {
                    #expect(variants.contains { $0.words == words(b) }, "\(language)/soundalike.json: \(a) does not read as \(b)")
                }
            }
        }
    }

    /// A foreign given name written as it sounds reaches the contact for confirmation, and says so.
    @Test(arguments: [("es", "es-ES"), ("it", "it-IT"), ("pt", "pt-BR")])
    func aRespelledGivenNameAsksForConfirmation(language: String, locale: String) throws {
        let respellings = try Self.respellings(language)
        #expect(respellings.count >= 100, "\(language)/names.json: respellings")
        let (name, forms) = try #require(respellings.sorted { $0.key < $1.key }.first { !$0.value.isEmpty })
        let resolver = Resolver(
            context: try Support.context(contacts: [VocabularyItem(id: "x", phrase: "\(name) Okonkwo")] + Self.contacts))
        let answer = try resolver.resolve("\(forms[0]) Okonkwo", app: "MonkeyChat", type: "contactName", locale: ParlanceLocale(locale))
        #expect(
            answer.resolution.kind == .confirmationRequired && Support.ids(answer.resolution) == ["x"], "\(forms[0]): \(answer.resolution)")
        #expect(
            answer.candidates.first?.match.variant?.hasPrefix("respelling:") == true,
            "\(String(describing: answer.candidates.first?.match))")
    }

    static func respellings(_ language: String) throws -> [String: [String]] {
        let url = try #require(LanguageResources.directory?.appendingPathComponent(language).appendingPathComponent("names.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return object["respellings"] as? [String: [String]] ?? [:]
    }

    @Test func variantsAreBoundedAndStable() throws {
        let knowledge = try NameKnowledge.shared.get()
        let first = knowledge.variants(of: ["bob", "hart"])
        #expect(first == knowledge.variants(of: ["bob", "hart"]))
        #expect(first.count <= NameKnowledge.maximumVariants)
        #expect(first.contains { $0.words == ["robert", "hart"] && $0.kind == .shortForm })
    }
}
