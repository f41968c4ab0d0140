import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser

/// The trained tier: the tagger learns and decodes legal BIO sequences, the model file
/// round-trips and refuses damage, and the shipped models read whole frames.
@Suite struct TrainedTierTests {
    static let time = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")

    static func input(_ words: [String], known: [String?]? = nil) -> TaggerInput {
        TaggerInput(
            keys: words, shapes: words.map { TaggerInput.shape($0) }, entities: words.map { _ in nil },
            known: known ?? words.map { _ in nil }, app: words.map { _ in false }, function: words.map { ["to", "the", "a"].contains($0) })
    }

    @Test func theTaggerLearnsWhereNamesStandAndGeneralizesToNewOnes() {
        let names = ["ana", "rob", "dana", "li", "marc", "eva", "tom", "ines"]
        var examples: [FrameTaggerTrainer.Example] = []
        for (n, name) in names.enumerated() {
            let words = n % 2 == 0 ? ["send", "a", "message", "to", name, "saying", "hi", "there"] : ["text", name, "saying", "see", "you"]
            let gold = words.enumerated().map { i, w -> String in
                if w == name { return "B-recipients" }
                if let s = words.firstIndex(of: "saying"), i == s + 1 { return "B-content" }
                if let s = words.firstIndex(of: "saying"), i > s + 1 { return "I-content" }
                return "O"
            }
            examples.append(.init(input: Self.input(words), intent: "sendMessage", parameters: ["recipients", "content"], gold: gold))
        }
        let tagger = FrameTaggerTrainer.train(examples, epochs: 8, capitalsCarrySignal: false)
        let tags = tagger.tag(
            Self.input(["send", "a", "message", "to", "zoe", "saying", "call", "me"]), intent: "sendMessage",
            parameters: ["recipients", "content"])
        #expect(tags == ["O", "O", "O", "O", "B-recipients", "O", "B-content", "I-content"])
        // Restricted to one intent's parameters: labels of others never appear.
        let only = tagger.tag(Self.input(["text", "zoe", "saying", "hi"]), intent: "sendMessage", parameters: ["content"])
        #expect(!only.contains { $0.hasSuffix("recipients") })
    }

    @Test func viterbiNeverPutsAnInsideLabelAfterAnotherParameterOrNothing() {
        let labels = ["O", "B-a", "I-a", "B-b", "I-b"]
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let n = Int(rng.next() % 7) + 1
            let emissions = (0..<n).map { _ in (0..<5).map { _ in Float(Int(rng.next() % 2001) - 1000) / 100 } }
            let transitions = (0..<30).map { _ in Float(Int(rng.next() % 201) - 100) / 100 }
            let path = Viterbi.decode(
                emissions: emissions, transitions: transitions, labels: labels, allowed: [true, true, true, true, true]
            ).map { labels[$0] }
            for (i, label) in path.enumerated() where label.hasPrefix("I-") {
                #expect(i > 0 && path[i - 1].dropFirst(2) == label.dropFirst(2) && path[i - 1] != "O", "\(path)")
            }
        }
    }

    @Test func theModelFileRoundTripsAndRefusesDamage() throws {
        guard let url = FrameModel.url(for: "en") else {
            Issue.record("no en model in the bundle")
            return
        }
        let data = try Data(contentsOf: url)
        let model = try FrameModel(decoding: data, file: "en.plm")
        #expect(model.encoded() == data, "decode then encode gives the same bytes")
        #expect(model.classifier.classes.contains("none") && model.classifier.classes.contains("sendMessage"))
        #expect(model.tagger != nil)
        #expect(throws: GrammarError.self) { try FrameModel(decoding: data.prefix(data.count / 2), file: "cut.plm") }
        var other = data
        other[0] = UInt8(ascii: "X")
        #expect(throws: GrammarError.self) { try FrameModel(decoding: other, file: "bad.plm") }
        #expect(throws: GrammarError.self) { try FrameModel(decoding: data + Data([0]), file: "long.plm") }
    }

    /// What the decision stage reads of a distribution (`IntentParser.Ranking`: its first
    /// entry, single classes' probabilities) is what the ranked distribution says, for the
    /// shipped model's rows of many feature sets, with and without a named app's intents only;
    /// a tie goes to the class whose name sorts first, as in the ranked list.
    @Test func aRankingsFirstEntryAndProbabilitiesAreThoseOfTheRankedDistribution() throws {
        let url = try #require(FrameModel.url(for: "en"))
        let model = try FrameModel(decoding: Data(contentsOf: url), file: "en.plm")
        let words = [
            "send", "a", "message", "to", "call", "mom", "pay", "the", "bill", "play", "photos", "run", "start", "my", "workout", "book"
        ]
        var rng = SplitMix64(seed: 11)
        var features: [[String]] = [[]]
        for _ in 0..<60 {
            let n = Int(rng.next() % 6) + 1
            let chosen = (0..<n).map { _ in words[Int(rng.next() % UInt64(words.count))] }
            features.append(chosen.map { "w:" + $0 } + zip(["^"] + chosen, chosen + ["$"]).map { "b:\($0) \($1)" })
        }
        let restrictions: [((String) -> Bool)?] = [nil, { ["sendMessage", "startCall"].contains($0) }, { _ in false }]
        var compared = 0
        for chosen in features {
            let rows = chosen.compactMap { model.classifier.rows[$0] }
            for allowed in restrictions {
                let ranking = IntentParser.ranking(model, rows: rows, allowed: allowed)
                let ranked = IntentParser.distribution(model, rows: rows, allowed: allowed)
                #expect(ranking.ranked.map(\.label) == ranked.map(\.label))
                #expect(ranking.top?.label == ranked.first?.label && ranking.top?.p == ranked.first?.p, "\(chosen)")
                for (label, p) in ranked { #expect(ranking.p(of: label) == p) }
                #expect(ranking.p(of: "noSuchIntent") == nil)
                compared += ranked.count
            }
        }
        #expect(compared > 1_000)
        // Equal probabilities: the name that sorts first, wherever it stands.
        let tie = IntentParser.Ranking(classes: ["b", "a", "c", "d"], kept: [0, 2, 1, 3], p: [0.3, 0.1, 0.3, 0.3])
        #expect(tie.top?.label == "a" && tie.top?.label == tie.ranked.first?.label)
        #expect(IntentParser.Ranking(classes: ["a"], kept: [], p: []).top == nil)
    }

    /// The classes an app handles, kept per app by the language cache, are those
    /// `AppDefinition.handles` says, class by class; an app of the same name that handles other
    /// intents gets its own; and a ranking restricted by them is the one restricted by `handles`.
    @Test func theClassesAnAppHandlesAreThoseHandlesSays() throws {
        let parser = try IntentParser(context: Self.context)
        let cache = try parser.resources(for: "en")
        let model = try #require(try cache.model())
        let classes = model.classifier.classes
        let rows = ["w:send", "w:message", "w:call", "b:^ call"].compactMap { model.classifier.rows[$0] }
        for app in Self.context.apps {
            for _ in 0..<2 {
                let handled = cache.classesHandled(by: app, in: model)
                #expect(handled == classes.map { app.handles($0) })
                #expect(handled.contains(true))
                let byMask = IntentParser.ranking(model, rows: rows, allowedClasses: handled)
                let byClosure = IntentParser.ranking(model, rows: rows, allowed: { app.handles($0) })
                #expect(byMask.kept == byClosure.kept && byMask.p == byClosure.p)
            }
        }
        var renamed = try #require(Self.context.apps.first)
        let before = cache.classesHandled(by: renamed, in: model)
        renamed.intents = try JSONDecoder().decode([IntentDeclaration].self, from: Data(#"["startCall", "requestRide"]"#.utf8))
        let after = cache.classesHandled(by: renamed, in: model)
        #expect(after == classes.map { renamed.handles($0) } && after != before)
    }

    static let context = try! ParserContext.decode(
        Data(
            """
            {"apps": [
              {"name": "Chatterbox", "intents": ["sendMessage"], "userVocabulary": {"contactName": ["Nadia", "Rob"]}},
              {"name": "Dialer", "intents": ["startCall"], "userVocabulary": {"contactName": ["Nadia", "Rob"]}},
              {"name": "Hopper", "intents": ["requestRide"]}]}
            """.utf8), file: "tier.json")

    @Test func theTrainedTierReadsWholeFramesNoTemplateReads() throws {
        let parser = try IntentParser(context: Self.context)
        let call = try parser.parse("initiate a call with Rob", locale: ParlanceLocale("en-US"), referenceTime: Self.time)
        #expect(call.explanation.decidedBy == "trained")
        #expect(call.intent?.name == "startCall")
        #expect(call.intent?.values("contacts").map(\.raw) == ["Rob"])
    }

    @Test func nearMissesAreRejectedEvenWhenATemplateReadsThem() throws {
        let parser = try IntentParser(context: Self.context)
        for text in ["set an alarm to call Rob at five", "add lunch with Rob to my calendar tomorrow", "set an alarm to call mom"] {
            let result = try parser.parse(text, locale: ParlanceLocale("en-US"), referenceTime: Self.time)
            #expect(result.intent == nil, "\(text) → \(String(describing: result.intent?.name))")
        }
    }
}
