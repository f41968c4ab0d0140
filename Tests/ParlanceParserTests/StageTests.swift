import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser

/// The parser as ordered stages over one analyzed utterance: the readings every template
/// stage consumes, the stage that decides named in the explanation, and grammars found on disk.
@Suite struct StageTests {
    static let time = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")

    func utterance(_ text: String, _ parser: IntentParser, locale: String = "en-US") throws -> Utterance {
        let l = try ParlanceLocale(locale)
        let analysis = try parser.analyzer.analyze(text, locale: l, referenceTime: Self.time)
        let units = IntentParser.units(analysis.tokens, titles: try parser.grammar(for: l.language).titleWords)
        var notes: [String] = []
        var lookalikes: [String] = []
        let mentions = parser.findMentions(units, notes: &notes, lookalikes: &lookalikes)
        return Utterance(
            text: text, locale: l, referenceTime: Self.time, language: try parser.resources(for: l.language), units: units,
            scalars: Array(text.unicodeScalars), entities: analysis.entities, mentions: mentions, lookalikes: lookalikes, notes: notes,
            appInNames: false)
    }

    @Test func theReadingsOfALeadingAppNameIncludeTheAppAsTheVerb() throws {
        let parser = try IntentParser(context: .demo)
        let kinds = try parser.readings(utterance("MonkeyChat Bobo send more bananas", parser)).map(\.kind)
        #expect(kinds == [.plain, .removed, .asNoun, .verbified])
        // Named in the middle: no verbified reading; a comma adds readings from the clause boundary.
        let middle = try parser.readings(utterance("ok, send Bobo a message on MonkeyChat", parser))
        #expect(!middle.contains { $0.kind == .verbified })
        #expect(middle.contains { $0.onlyIfUnread && $0.kind == .removed })
        // No reading with the app mention in it lets a value cover the mention.
        for reading in middle where reading.kind == .plain && reading.units.count == middle[0].units.count {
            #expect(!reading.kept.isEmpty)
        }
        // A sentence after the request: a last-resort reading ends before it.
        let two = try parser.readings(utterance("get me a cab. I'm headed downtown", parser))
        #expect(two.contains { $0.lastResort && $0.units.map(\.key) == ["get", "me", "a", "cab"] })
    }

    @Test(arguments: [
        ("MonkeyChat Bobo send more bananas", "template"),
        ("send a message to Bobo on WhatsApp saying hi", "apps"),
        ("what's the weather like in Lisbon tomorrow", "trained")
    ])
    func theStageThatDecidesIsNamed(text: String, stage: String) throws {
        let result = try IntentParser(context: .demo).parse(text, locale: ParlanceLocale("en-US"), referenceTime: Self.time)
        #expect(result.explanation.decidedBy == stage, "\(text): \(result.explanation)")
    }

    @Test func cuesAndFillersInALexiconAreCheckedAgainstTheCatalogue() throws {
        let bundled = try #require(LanguageGrammar.directory)
        let tokenizer = try TextAnalyzer.shared.pack(for: ParlanceLocale("en")).tokenizer
        let grammar = try LanguageGrammar(language: "en", catalogue: .standard, tokenizer: tokenizer, directory: bundled)
        #expect(grammar.cues["callTypes"]?.anywhere.values(of: ["called", "me"]) == ["received"])
        #expect(grammar.cues["callTypes"]?.beforePerson.values(of: ["calls", "from"]) == ["received"])
        #expect(grammar.fillers.contains("um"))
        // A cue for a value the catalogue does not have, or a filler of two words: refused, naming the file.
        for (edit, message) in [
            (#""cues": {"callTypes": {"sideways": ["sideways"]}}"#, "sideways"),
            (#""fillers": ["you know"]"#, "you know")
        ] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-lexicon-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: bundled.appendingPathComponent("en"), to: folder.appendingPathComponent("en"))
            let url = folder.appendingPathComponent("en/lexicon.json")
            var lexicon = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
            let replacement = try JSONSerialization.jsonObject(with: Data("{\(edit)}".utf8)) as! [String: Any]
            for (key, value) in replacement { lexicon[key] = value }
            try JSONSerialization.data(withJSONObject: lexicon).write(to: url)
            do {
                _ = try LanguageGrammar(language: "en", catalogue: .standard, tokenizer: tokenizer, directory: folder)
                Issue.record("\(edit) was accepted")
            } catch let error as GrammarError {
                #expect("\(error)".contains("lexicon.json") && "\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test func valuesLoseWhatIsNotPartOfThem() throws {
        let parser = try IntentParser(context: .demo)
        let u = try utterance("um send a message to Bobo", parser)
        // Edges only: "um" and "a" at the start go, nothing inside does.
        #expect(parser.trimmedValue(0..<u.units.count, u) == 1..<u.units.count)
        #expect(parser.trimmedValue(2..<3, u) == 3..<3)  // "a" alone: nothing left
        // A capital article inside the sentence belongs to a name ("La Défense"); lower case does not.
        let fr = try utterance("emmène-moi à La Défense puis à la gare", parser, locale: "fr-FR")
        let la = try #require(fr.units.firstIndex { $0.token.text == "La" })
        #expect(parser.trimmedValue(la..<(la + 2), fr) == la..<(la + 2))
        let lower = try #require(fr.units.lastIndex { $0.token.text == "la" })
        #expect(parser.trimmedValue(lower..<(lower + 2), fr) == (lower + 1)..<(lower + 2))
    }

    @Test func aTemplateThatBentIsVetoedWhenTheTrainedTierPrefersNone() throws {
        // Read as written, a template reading stands unless the trained tier is sure it is none
        // (`nearMissVeto`); read only by bending, "none" as the trained tier's first choice is enough.
        #expect(IntentParser.bentVeto < IntentParser.nearMissVeto)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Corpora/contexts/monkey.json")
        let parser = try IntentParser(context: ParserContext.load(contentsOf: url))
        // A comment, not a request: a template reads it only by bending, and the trained tier
        // prefers "none".
        let result = try parser.parse(
            "Ho fatto un sacco di foto a Napoli con Bobo", locale: ParlanceLocale("it-IT"), referenceTime: Self.time)
        #expect(result.intent == nil, "\(result.explanation)")
        #expect(
            result.explanation.notes.contains { $0.contains("bent") } && result.explanation.notes.contains { $0.contains("vetoed") },
            "\(result.explanation)")
    }

    @Test func aWellKnownPlaceIsNoEvidenceForTheVeto() throws {
        let parser = try IntentParser(context: .demo)
        let text = "get me a cab to the train station"
        let result = try parser.parse(text, locale: ParlanceLocale("en-US"), referenceTime: Self.time)
        let frame = try #require(result.intent, "\(result.explanation)")
        #expect(frame.name == "requestRide")
        // The place's words (a gazetteer place) are left out of what the veto reads; a place the
        // gazetteers do not know is kept.
        let u = try utterance(text, parser)
        #expect(DecisionStage.knownPlaceUnits(frame, u, parser).map { u.units[$0].key }.sorted() == ["station", "train"])
        let other = "get me a cab to the old quarry"
        let otherFrame = try #require(try parser.parse(other, locale: ParlanceLocale("en-US"), referenceTime: Self.time).intent)
        #expect(DecisionStage.knownPlaceUnits(otherFrame, try utterance(other, parser), parser).isEmpty)
    }

    @Test func theOverruleIsJudgedWithoutTheWordsOfAnItem() throws {
        // What the template read as free text goes out of the trained tier's second reading,
        // except the words some template says ("call", "the"): those may tell the request.
        let parser = try IntentParser(context: .demo)
        for (text, left) in [("add fresh basil to my shopping list", ["basil", "fresh"]), ("add call the plumber to my list", ["plumber"])]
        {
            let result = try parser.parse(text, locale: ParlanceLocale("en-US"), referenceTime: Self.time)
            let frame = try #require(result.intent, "\(text): \(result.explanation)")
            #expect(frame.name == "addTasks")
            let u = try utterance(text, parser)
            #expect(DecisionStage.freeTextUnits(frame, u, parser).map { u.units[$0].key }.sorted() == left, "\(text)")
        }
    }

    @Test func aListSaidOnlyByAnUnknownNameIsFlagged() throws {
        let parser = try IntentParser(context: .demo)
        let cases: [(text: String, unknown: String?)] = [
            ("add milk to rainy day", "rainy day"),
            // A word for a list said, or a list the user has: no doubt.
            ("add milk to my rainy day list", nil),
            ("add bananas to banana recipes", nil)
        ]
        for c in cases {
            let result = try parser.parse(c.text, locale: ParlanceLocale("en-US"), referenceTime: Self.time)
            let frame = try #require(result.intent ?? result.alternatives.first, "\(c.text)")
            #expect(frame.name == "addTasks", "\(c.text)")
            #expect(DecisionStage.unknownBareItemName(frame, try utterance(c.text, parser), parser) == c.unknown, "\(c.text)")
        }
    }

    static let titled = try! ParserContext.decode(
        Data(
            #"""
            {"apps": [{"name": "MonkeyPay", "intents": ["sendPayment", "requestPayment"], "userVocabulary": {"contactName": [
              {"id": "sv", "phrase": "Svetlana Kuznetsova"}, {"id": "el", "phrase": "Dra. Elena Navarro"},
              {"id": "gr", "phrase": "Dott. Giorgio Rinaldi"}]}}, {"name": "MonkeyCall", "intents": ["startCall"]}]}
            """#.utf8), file: "titled")

    @Test func aKnownContactsNameIsNoEvidenceForTheVeto() throws {
        let parser = try IntentParser(context: Self.titled)
        let text = "pídele 30 euros a Svetlana Kuznetsova"
        let result = try parser.parse(text, locale: ParlanceLocale("es-ES"), referenceTime: Self.time)
        let frame = try #require(result.intent, "\(result.explanation)")
        #expect(frame.name == "requestPayment")
        // The name's words are left out of what the veto reads; a name nobody has is kept, and
        // so are the words of the person parameter that are not a known name's.
        let u = try utterance(text, parser, locale: "es-ES")
        #expect(DecisionStage.knownNameUnits(frame, u, parser).map { u.units[$0].key }.sorted() == ["kuznetsova", "svetlana"])
        let other = "pídele 30 euros a Ludmila Petrenko"
        let otherResult = try parser.parse(other, locale: ParlanceLocale("es-ES"), referenceTime: Self.time)
        let otherFrame = try #require(otherResult.intent ?? otherResult.alternatives.first)
        #expect(DecisionStage.knownNameUnits(otherFrame, try utterance(other, parser, locale: "es-ES"), parser).isEmpty)
    }

    @Test(arguments: [
        ("es-ES", "llama a la doctora Navarro", "doctora Navarro"), ("es-ES", "llama al doctor Navarro", "doctor Navarro"),
        ("es-ES", "llama a la señora Kuznetsova", "señora Kuznetsova"), ("it-IT", "chiama il dottor Rinaldi", "dottor Rinaldi"),
        ("it-IT", "chiama la dottoressa Navarro", "dottoressa Navarro"), ("pt-BR", "liga pra doutora Navarro", "doutora Navarro"),
        ("fr-FR", "appelle le docteur Rinaldi", "docteur Rinaldi")
    ])
    func aTitleWithItsArticleOpensAName(locale: String, text: String, name: String) throws {
        // An article never starts a name, but a title with its article does ("la doctora
        // Navarro"); the title is part of the name as said, the article is not.
        let result = try IntentParser(context: Self.titled).parse(text, locale: ParlanceLocale(locale), referenceTime: Self.time)
        let frame = try #require(result.intent, "\(text): \(result.explanation)")
        #expect(frame.name == "startCall" && frame.parameters.map(\.raw) == [name], "\(text): \(frame.parameters.map(\.raw))")
    }

    @Test(arguments: [
        ("en-US", "set an alarm to call mom"), ("en-US", "hey siri, wake me up at seven to call Bobo"),
        ("es-ES", "Oye, pon una alarma para llamar a Bobo mañana"), ("fr-FR", "Mets un réveil pour payer Bobo ce soir"),
        ("de-DE", "Stell einen Wecker, um Bobo zu schreiben"), ("it-IT", "metti una sveglia per chiamare Bobo"),
        ("pt-BR", "põe um alarme pra mandar mensagem pro Bobo")
    ])
    func aRequestOfAnotherKindIsNoIntent(locale: String, text: String) throws {
        // Alarms, timers and calendar events are SiriKit's and no domain of the catalogue:
        // their phrases (lexicon.json "elsewhere") end the parse. Reminders are addTasks since
        // the second wave (see remindersAreTasks).
        let result = try IntentParser(context: .demo).parse(text, locale: ParlanceLocale(locale), referenceTime: Self.time)
        #expect(result.intent == nil && result.explanation.decidedBy == "elsewhere", "\(text): \(result.explanation)")
    }

    @Test(arguments: [
        ("en-US", "remind me to call Bobo tomorrow"), ("es-ES", "Oye, recuérdame llamar a Bobo mañana"),
        ("fr-FR", "Rappelle-moi de payer Bobo ce soir"), ("de-DE", "Erinnere mich daran, Bobo zu schreiben"),
        ("it-IT", "ricordami di chiamare Bobo"), ("pt-BR", "me lembra de mandar mensagem pro Bobo")
    ])
    func remindersAreTasks(locale: String, text: String) throws {
        // "Remind me to X" is addTasks with the task X (ANNOTATION.md, second-wave domains), not
        // the intent of the verb inside it.
        let result = try IntentParser(context: .demo).parse(text, locale: ParlanceLocale(locale), referenceTime: Self.time)
        let frame = try #require(result.intent, "\(text): \(result.explanation)")
        #expect(frame.name == "addTasks", "\(text): \(frame.name)")
        #expect(frame.values("taskTitles").first?.raw.contains("Bobo") == true, "\(text): \(frame.parameters.map(\.raw))")
    }

    @Test func callBackIsStillACall() throws {
        // "Rappelle-moi" without "de" is "call me back": no phrase of another kind.
        let result = try IntentParser(context: .demo).parse("Rappelle Bobo", locale: ParlanceLocale("fr-FR"), referenceTime: Self.time)
        #expect(result.explanation.decidedBy != "elsewhere")
    }

    @Test func aSentenceFileAddedToALanguageFolderIsRead() throws {
        let bundled = try #require(LanguageGrammar.directory)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-grammar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: bundled.appendingPathComponent("en"), to: folder.appendingPathComponent("en"))
        try "intent sendMessage\n  zorblax {recipients} {content}\n".write(
            to: folder.appendingPathComponent("en/zz-extra.sentences"), atomically: true, encoding: .utf8)
        let tokenizer = try TextAnalyzer.shared.pack(for: ParlanceLocale("en")).tokenizer
        let grammar = try LanguageGrammar(language: "en", catalogue: .standard, tokenizer: tokenizer, directory: folder)
        #expect(grammar.templates.contains { $0.source.hasPrefix("en/zz-extra.sentences") })
        // Without common.sentences (the shared rules) the folder is refused, naming the file.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("en/common.sentences"))
        #expect(throws: GrammarError.self) {
            try LanguageGrammar(language: "en", catalogue: .standard, tokenizer: tokenizer, directory: folder)
        }
    }

    /// The words that go with an app's name (the mention rule's extent) are those of every run
    /// of the rule tried from each start and end around the name: the runs across a word the
    /// rule cannot read, which `mentionExtent` does not try, would have been refused.
    @Test func theMentionsExtentIsThatOfEveryRunAroundTheName() throws {
        let parser = try IntentParser(context: .demo)
        let said: [(String, String)] = [
            ("en-US", "MonkeyChat Bobo send more bananas"), ("en-US", "send a message to Bobo on MonkeyChat please"),
            ("en-US", "open MonkeyChat and tell Bobo hi"), ("en-US", "could you use MonkeyChat to text Bobo"),
            ("en-US", "hey on the MonkeyChat app send Bobo a note"), ("en-US", "using MonkeyChat, tell Bobo I am late"),
            ("de-DE", "Schick Bobo auf MonkeyChat mehr Bananen"), ("de-DE", "Öffne MonkeyChat und schreib Bobo"),
            ("de-DE", "Bitte mit MonkeyChat eine Nachricht an Bobo senden"),
            ("es-ES", "Oye Siri, manda un mensaje a Bobo en MonkeyChat que diga más plátanos"),
            ("fr-FR", "Envoyer un message à Bobo sur MonkeyChat"), ("it-IT", "Manda un messaggio a Bobo su MonkeyChat"),
            ("pt-BR", "Manda uma mensagem pro Bobo no app MonkeyChat agora")
        ]
        var tried = 0
        var refused = 0
        for (locale, text) in said {
            let u = try utterance(text, parser, locale: locale)
            let mention = try #require(u.mentions.first, "\(text)")
            let range = mention.range
            let oracle = SlotOracle(units: u.units, entities: [:], vocabularies: u.vocabularies, binding: SlotBinding(), app: range)
            let matcher = AutomatonMatcher(automaton: u.grammar.mention.shared, oracle: oracle)
            var best = range
            for start in stride(from: range.lowerBound, through: max(0, range.lowerBound - 5), by: -1) {
                for end in range.upperBound...min(u.units.count, range.upperBound + 3) {
                    let accepted = matcher.accepts(start: u.grammar.mention.start, from: start, to: end)
                    tried += 1
                    // A run across a word the rule cannot read is refused.
                    if (start..<range.lowerBound).contains(where: { !matcher.mayReadWord($0) })
                        || (range.upperBound..<end).contains(where: { !matcher.mayReadWord($0) })
                    {
                        refused += 1
                        #expect(!accepted, "\(text) \(start)..<\(end)")
                    }
                    if end - start > best.count, accepted { best = start..<end }
                }
            }
            // (The colon that follows an app addressed at a clause's start goes with it.)
            var expected = best
            if best.upperBound < u.units.count, u.units[best.upperBound].key == ":",
                best.lowerBound == 0 || u.units[best.lowerBound].commaBefore || u.units[best.lowerBound].sentenceBefore
            {
                expected = best.lowerBound..<(best.upperBound + 1)
            }
            let extent = parser.mentionExtent(mention, units: u.units, grammar: u.grammar, vocabularies: u.vocabularies)
            #expect(extent == expected, "\(text)")
        }
        #expect(tried > 100 && refused > 20)
    }

    /// A grammar's vocabularies, resolved once per binding (`LanguageCache.vocabularies(of:)`),
    /// are the context's vocabularies of those names, nil for a name the context has none of;
    /// asked again, the same.
    @Test func aBindingsVocabulariesAreTheContextsOfTheirNames() throws {
        let parser = try IntentParser(context: .demo)
        let cache = try parser.resources(for: "en")
        let binding = cache.grammar.main.binding
        #expect(binding.serial != 0 && binding.serial != cache.grammar.verbified.binding.serial)
        let bound = cache.vocabularies(of: binding)
        #expect(bound.count == binding.vocabularyNames.count && !bound.isEmpty)
        var found = 0
        for (n, name) in binding.vocabularyNames.enumerated() {
            let known = cache.vocabularies[name]
            #expect((bound[n] == nil) == (known == nil), "\(name)")
            guard let set = bound[n], let known else { continue }
            found += 1
            #expect(set.words == known.words && set.longest == known.longest, "\(name)")
        }
        #expect(found > 0)
        #expect(cache.vocabularies(of: binding).map { $0?.words } == bound.map { $0?.words })
        #expect(cache.vocabularies(of: SlotBinding()).isEmpty)
    }
}

/// Templates bend: a word no template has at that point, between template words, is skipped
/// at a cost and said in the explanation; never before the first template word.
@Suite struct BendingTests {
    static let context = try! ParserContext.decode(
        Data(
            """
            {"apps": [{"name": "Hopper", "intents": ["requestRide"]}]}
            """.utf8), file: "device.json")

    func parse(_ text: String, _ locale: String = "en-US") throws -> ParseResult {
        try IntentParser(context: Self.context).parse(text, locale: ParlanceLocale(locale), referenceTime: StageTests.time)
    }

    @Test(arguments: ["book me a nice cab to the airport", "book me a cab quickly to the airport"])
    func aWordBetweenTemplateWordsIsSkipped(text: String) throws {
        let result = try parse(text)
        let frame = try #require(result.intent, "\(text): \(result.reason ?? "")")
        #expect(frame.name == "requestRide")
        #expect(frame.values("dropOffLocation").map(\.raw) == ["airport"])
        #expect(result.explanation.decidedBy == "template")
        #expect(result.explanation.notes.contains { $0.contains("the template bent: 1 word") }, "\(result.explanation.notes)")
    }

    @Test func aCapitalizedWordIsANameNotAFiller() throws {
        // Lower case, "nice" is a filler the template skips; capitalized mid-sentence it is a
        // name (the city), and no template reads the request by skipping it.
        let named = try parse("book me a Nice cab to the airport")
        #expect(!named.explanation.notes.contains { $0.contains("the template bent") }, "\(named.explanation)")
        // In German every noun is capitalized: capitals say nothing, and the word is skipped.
        let parser = try IntentParser(context: Self.context)
        let u = try StageTests().utterance("bestell mir ein Taxi Schatz zum Flughafen", parser, locale: "de-DE")
        let bent = parser.readings(u).flatMap { parser.templateCandidates($0, u, bend: true) }
        let plain = parser.readings(u).flatMap { parser.templateCandidates($0, u, bend: false) }
        #expect(bent.contains { $0.name == "requestRide" } && !plain.contains { $0.name == "requestRide" })
    }

    @Test func nothingIsSkippedBeforeTheFirstTemplateWord() throws {
        // "TV" before "pausieren" is what is paused, not a filler: bending reads no pauseWorkout,
        // while a word between template words is skipped ("halte das TV an" is another matter).
        let parser = try IntentParser(
            context: ParserContext.decode(Data(#"{"apps": [{"name": "Jumpy", "intents": ["pauseWorkout"]}]}"#.utf8), file: "d.json"))
        let u = try StageTests().utterance("TV pausieren", parser, locale: "de-DE")
        let bent = parser.readings(u).flatMap { parser.templateCandidates($0, u, bend: true) }
        #expect(!bent.contains { $0.name == "pauseWorkout" })
        // Without the leading word, the template reads it.
        let plain = try StageTests().utterance("pausieren", parser, locale: "de-DE")
        #expect(parser.readings(plain).flatMap { parser.templateCandidates($0, plain, bend: false) }.contains { $0.name == "pauseWorkout" })
    }

}
