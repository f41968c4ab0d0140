import Testing

@testable import ParlanceICU

@Suite struct ICULayerTests {
    @Test func versionIsReported() {
        #expect(icuVersion.split(separator: ".").count >= 2)
    }

    @Test func dictionarySegmentationForJapaneseAndThai() throws {
        let ja = Array("昨日ボボにメッセージを送って".utf16)
        let segments = try WordBreaker(locale: "ja").segments(ja)
        #expect(segments.count >= 5)
        #expect(segments.first.map { String(decoding: ja[$0.start..<$0.end], as: UTF16.self) } == "昨日")
        let th = Array("สวัสดีครับ".utf16)
        #expect(try WordBreaker(locale: "th").segments(th).count == 2)
    }

    @Test func segmentsCoverTheText() throws {
        let text = Array("Hello, wörld 1.234,56 👍🏽".utf16)
        let segments = try WordBreaker(locale: "en").segments(text)
        #expect(segments.first?.start == 0 && segments.last?.end == text.count)
        for (a, b) in zip(segments, segments.dropFirst()) { #expect(a.end == b.start) }
    }

    @Test func oneBreakerServesManyThreads() async throws {
        let breaker = try WordBreaker(locale: "fr")
        let text = Array("Envoyer un message à Bobo sur MonkeyChat : plus de bananes".utf16)
        let expected = try breaker.segments(text)
        try await withThrowingTaskGroup(of: [WordSegment].self) { group in
            for _ in 0..<200 { group.addTask { try breaker.segments(text) } }
            for try await result in group { #expect(result == expected) }
        }
    }

    @Test func normalization() throws {
        #expect(try ICUNormalizer.foldKey("Íñigo") == "inigo")
        #expect(try ICUNormalizer.foldKey("Straße") == "strasse")
        #expect(try ICUNormalizer.nfkcCasefold("ＭｏｎｋｅｙＣｈａｔ") == "monkeychat")
        #expect(try ICUNormalizer.foldKey("ボボ") == "ボボ")
        #expect(try ICUNormalizer.nfc("e\u{301}") == "é")
    }

    @Test func transliteration() throws {
        let latin = try Transliterator(id: "Any-Latin; Latin-ASCII")
        #expect(try latin.transliterate("Ёлка").lowercased() == "elka")
        #expect(try latin.transliterate("北京") == "bei jing")
        #expect(throws: ICUError.self) { try Transliterator(id: "No-Such-Transform") }
    }

    @Test func spellOutStrictAndLenient() throws {
        #expect(try NumberFormat(locale: "es", style: .spellOut).format(21, ruleSet: "%spellout-cardinal-feminine") == "veintiuna")
        let lenient = try NumberFormat(locale: "de", style: .spellOut, lenient: true)
        #expect(lenient.parseWhole("dreiundzwanzig") == "23")
        #expect(try NumberFormat(locale: "fr", style: .decimal).parseWhole("1234,56") == "1234.56")
    }

    @Test func cldrData() throws {
        #expect(try CLDRDates.relative(-1, .monday, locale: "es") == "el lunes pasado")
        #expect(try CLDRDates.relative(-2, .day, locale: "fr") == "avant-hier")
        #expect(try CLDRDates.symbols(.months, locale: "it").count == 12)
        #expect(try CLDRDates.symbols(.weekdays, locale: "de").first == "Sonntag")
        #expect(try CLDRCurrencies.pluralName("CHF", locale: "fr", category: "other") == "francs suisses")
        #expect(CLDRCurrencies.currency(forLocale: "es_MX") == "MXN")
        #expect(try CLDRCurrencies.codes().contains("EUR"))
        #expect(try PluralRules.keywords(locale: "en").sorted() == ["one", "other"])
        #expect(try CLDRUnits.format(5, unit: "length-kilometer", width: .full, locale: "es") == "5 kilómetros")
        #expect(try CLDRLists.conjunction(["Ana", "Luis"], locale: "es") == "Ana y Luis")
    }

    @Test func confusables() throws {
        #expect(try Confusables.skeleton("MonkeyChat") == Confusables.skeleton("M\u{043E}nkeyChat"))
        #expect(Confusables.isSuspicious("M\u{043E}nkeyChat"))
        #expect(!Confusables.isSuspicious("MonkeyChat"))
    }
}
