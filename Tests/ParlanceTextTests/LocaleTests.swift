import Foundation
import ParlanceICU
import Testing

@testable import ParlanceText

@Suite struct LocaleTests {
    @Test(
        arguments: [
            ("es-ES", "es", nil, "ES", "es-ES"), ("pt_br", "pt", nil, "BR", "pt-BR"), ("EN", "en", nil, nil, "en"),
            ("zh-Hans-CN", "zh", "Hans", "CN", "zh-Hans-CN"), ("es-419", "es", nil, "419", "es-419"), ("DE_at", "de", nil, "AT", "de-AT"),
            ("fr-cA", "fr", nil, "CA", "fr-CA"), ("pt_419", "pt", nil, "419", "pt-419"), ("zh-Hant", "zh", "Hant", nil, "zh-Hant")
        ] as [(String, String, String?, String?, String)])
    func parses(tag: String, language: String, script: String?, region: String?, canonical: String) throws {
        let locale = try ParlanceLocale(tag)
        #expect(locale.language == language)
        #expect(locale.script == script)
        #expect(locale.region == region)
        #expect(locale.identifier == canonical)
    }

    @Test(arguments: ["", "e", "es-", "-ES", "es--ES", "español", "es-ES-ES", "es-E", "12", "es_ES_x", "es ES", "es-E1", "es-4190", "es-@Z"]
    )
    func malformedTagsNameTheSupportedLanguages(tag: String) {
        #expect {
            try ParlanceLocale(tag)
        } throws: { error in
            guard case .malformed(let t, let supported) = error as? LocaleError else { return false }
            return t == tag && supported == ParlanceLocale.supportedLanguages
                && "\(error)".contains("supported languages: de, en, es, fr, it, ja, pt, zh")
        }
    }

    @Test(arguments: ["nl-NL", "ru", "xx"])
    func unknownLanguagesAreRefused(tag: String) {
        #expect {
            try ParlanceLocale(tag)
        } throws: { error in
            guard case .unsupported = error as? LocaleError else { return false }
            return "\(error)" == "unsupported locale '\(tag)': supported languages are de, en, es, fr, it, ja, pt, zh"
        }
    }

    @Test func everyLanguageFolderHasTheSameFiles() throws {
        for language in ParlanceLocale.supportedLanguages {
            let folder = try #require(LanguageResources.directory).appendingPathComponent(language)
            let files = try FileManagerShim.files(in: folder)
            #expect(files == LanguageResources.fileNames.sorted(), "Languages/\(language) must hold exactly \(LanguageResources.fileNames)")
            // And every file decodes.
            _ = try LanguagePack(language: language)
        }
    }

    /// The canonical tag and ICU's id: the language, script and region there are, each
    /// separator once.
    @Test func theIdentifiersJoinTheLanguageScriptAndRegionThereAre() throws {
        for (tag, canonical, icu) in [
            ("es-MX", "es-MX", "es_MX"), ("es", "es", "es"), ("zh-Hant-TW", "zh-Hant-TW", "zh_Hant_TW"),
            ("es-419", "es-419", "es_419")
        ] {
            let locale = try ParlanceLocale(tag)
            #expect(locale.identifier == canonical && locale.icuIdentifier == icu, "\(tag)")
        }
        #expect(CLDRCurrencies.currency(forLocale: try ParlanceLocale("es-MX").icuIdentifier) == "MXN")
    }
}

enum FileManagerShim {
    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }
}
