import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser

/// Importing Xcode intent definition files (`Intents.intentdefinition` and its `.strings`
/// tables) as custom intent declarations: the Soup Chef file of the corpus, and small inline
/// files for errors and warnings.
@Suite struct IntentDefinitionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let soupChefURL = repository.appendingPathComponent(
        "Corpora/contexts/intentdefinition/SoupChef/Base.lproj/Intents.intentdefinition")

    static func soupChef() throws -> IntentDefinitionFile { try IntentDefinitionFile.load(contentsOf: soupChefURL) }

    static func orderSoup() throws -> CustomIntent {
        try #require(try soupChef().intents.first { $0.name == "orderSoup" })
    }

    /// A property list with the given body inside its top-level dictionary.
    static func plist(_ body: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """.utf8)
    }

    /// One intent with the given keys (besides its name).
    static func intent(_ keys: String, name: String = "Ping") -> Data {
        plist("<key>INIntents</key><array><dict><key>INIntentName</key><string>\(name)</string>\(keys)</dict></array>")
    }

    static func decode(_ data: Data, strings: [String: [String: String]] = [:]) throws -> IntentDefinitionFile {
        try IntentDefinitionFile.decode(data, file: "Test.intentdefinition", strings: strings, baseLanguage: "en")
    }

    // MARK: The Soup Chef file

    /// The context naming the file (`intentDefinition`), with phrases added inline and a
    /// shortcut on the imported intent; its parse results are in `Cases/<lang>/parse.jsonl`.
    @Test func aContextImportsTheFileAndAddsPhrases() throws {
        let context = try ParserContext.load(contentsOf: Self.repository.appendingPathComponent("Corpora/contexts/intentdefinition.json"))
        let soupChef = try #require(context.apps.first { $0.name == "Soup Chef" })
        #expect(soupChef.customIntents.map(\.name) == ["orderSoup", "showMenu"])
        let order = try #require(soupChef.customIntents.first)
        // The file's phrases, then the context's.
        #expect(order.phrases["es"]?.prefix(2) == ["Pedir {quantity} {soup}", "Pedir {soup}"])
        #expect(order.phrases["es"]?.contains("Pide {quantity} {soup} en Soup Chef") == true)
        #expect(order.parameter("soup")?.type == .enum)
        #expect(context.shortcuts.first?.intent == "orderSoup")
        // Unsupported constructs are diagnostics naming them; the rest loads.
        #expect(
            context.diagnostics.contains { $0.description.contains("OrderSoup.deliveryTime") && $0.description.contains("DateComponents") })
    }

    /// What `parlance import-intents` prints reads back as the same declarations.
    @Test func importedDeclarationsRoundTripThroughJSON() throws {
        for intent in try Self.soupChef().intents {
            let json = try JSONEncoder().encode(intent)
            #expect(try JSONDecoder().decode(CustomIntent.self, from: json) == intent)
        }
    }

    @Test func aSupplementWithAnUnknownSlotIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let json =
            #"{"apps": [{"name": "Soup Chef", "intentDefinition": "DEF", "intents": [{"name": "orderSoup", "phrases": {"en": ["order {size} soup"]}}]}]}"#
            .replacingOccurrences(of: "DEF", with: Self.soupChefURL.path)
        let url = directory.appendingPathComponent("context.json")
        try Data(json.utf8).write(to: url)
        #expect { try ParserContext.load(contentsOf: url) } throws: {
            "\($0)".contains("names '{size}', which is not a parameter of orderSoup")
        }
    }

    @Test func theSoupChefFileDeclaresItsIntents() throws {
        let file = try Self.soupChef()
        #expect(file.intents.map(\.name) == ["orderSoup", "showMenu"])
        #expect(file.intents.map(\.category) == ["order", "information"])
        #expect(file.intents.map(\.confirmation) == [true, false])
        let order = try Self.orderSoup()
        #expect(order.title == ["en": "Order Soup", "es": "Pedir sopa", "fr": "Commander une soupe"])
        #expect(file.intents[1].title == ["en": "Show Menu", "es": "Ver el menú", "fr": "Afficher le menu"])
        // The file uses only keys the importer knows.
        #expect(!file.warnings.contains { $0.contains("unknown key") })
        // The declarations are well-formed.
        #expect(file.intents.allSatisfy { $0.problems().isEmpty })
    }

    @Test func parametersKeepTheirTypesAndTheUnsupportedOneIsLeftOut() throws {
        let order = try Self.orderSoup()
        #expect(order.parameters.map(\.name) == ["soup", "quantity", "options"])
        #expect(order.parameters.map(\.type) == [.enum, .integer, .object])
        #expect(order.parameters.map(\.list) == [false, false, true])
        // soup is the key parameter (and Siri asks for it); quantity may be left unsaid.
        #expect(order.parameters.map(\.required) == [true, false, false])
        #expect(order.parameter("options")?.vocabulary == "MenuItemOption")
        #expect(order.parameter("deliveryTime") == nil)
        let warnings = try Self.soupChef().warnings
        #expect(warnings.contains("OrderSoup.deliveryTime: parameter type 'DateComponents' is not supported; the parameter is left out"))
        #expect(warnings.contains { $0.hasPrefix("OrderSoup.options: dynamic options") })
    }

    @Test func aParameterIsRequiredAsKeyParameterOrWhenSiriAsksForIt() throws {
        func parameter(_ name: String, prompt: String?) -> String {
            let dialogs =
                prompt.map {
                    "<key>INIntentParameterPromptDialogs</key><array><dict><key>INIntentParameterPromptDialogType</key><string>\($0)</string></dict></array>"
                } ?? ""
            return
                "<dict><key>INIntentParameterName</key><string>\(name)</string><key>INIntentParameterType</key><string>String</string>\(dialogs)</dict>"
        }
        let data = Self.intent(
            """
            <key>INIntentKeyParameter</key><string>host</string>
            <key>INIntentParameters</key><array>
              \(parameter("host", prompt: nil))\(parameter("port", prompt: "Primary"))\(parameter("note", prompt: "Configuration"))\(parameter("tag", prompt: nil))
            </array>
            """)
        let ping = try #require(try Self.decode(data).intents.first)
        #expect(ping.parameters.map(\.name) == ["host", "port", "note", "tag"])
        #expect(ping.parameters.map(\.required) == [true, true, false, false])
    }

    @Test func enumCasesAreNamedInEveryLanguage() throws {
        let soup = try #require(try Self.orderSoup().parameter("soup"))
        // Xcode's `unknown` case (index 0) is not a case.
        #expect(soup.cases.map(\.id) == ["tomato", "chickenNoodle", "clamChowder"])
        #expect(soup.cases[0].names == ["en": ["Tomato Soup"], "es": ["sopa de tomate"], "fr": ["soupe à la tomate"]])
        // Synonyms follow the display name.
        #expect(
            soup.cases[1].names == [
                "en": ["Chicken Noodle Soup", "Chicken Soup"],
                "es": ["sopa de pollo con fideos", "sopa de pollo"],
                "fr": ["soupe au poulet et aux nouilles", "soupe au poulet"]
            ])
        #expect(soup.caseName("clamChowder", language: "es") == "crema de almejas")
        #expect(soup.caseName("clamChowder", language: "fr") == "chaudrée de palourdes")
    }

    @Test func parameterCombinationsBecomeShortcutTypes() throws {
        let order = try Self.orderSoup()
        #expect(
            order.shortcutTypes == [
                CustomIntent.ShortcutType(
                    parameters: ["soup", "quantity"],
                    title: ["en": "Order {quantity} {soup}", "es": "Pedir {quantity} {soup}", "fr": "Commander {quantity} {soup}"],
                    subtitle: [
                        "en": "Delivered hot by Soup Chef", "es": "Soup Chef te la lleva caliente", "fr": "Livrée bien chaude par Soup Chef"
                    ]
                ),
                CustomIntent.ShortcutType(
                    parameters: ["soup"],
                    title: ["en": "Order {soup}", "es": "Pedir {soup}", "fr": "Commander une {soup}"],
                    subtitle: ["en": "One bowl of {soup}", "es": "Un tazón de {soup}", "fr": "Un bol de {soup}"]
                )
            ])
        // The managed combination with deliveryTime is left out, and says so.
        let warnings = try Self.soupChef().warnings
        #expect(
            warnings.contains {
                $0.contains("INIntentManagedParameterCombinations[\"soup,quantity,options,deliveryTime\"]")
                    && $0.contains("OrderSoup.deliveryTime, which is left out")
            })
    }

    @Test func titlesBecomePhrasesPerLanguage() throws {
        let file = try Self.soupChef()
        let order = try Self.orderSoup()
        #expect(
            order.phrases == [
                "en": ["Order {quantity} {soup}", "Order {soup}", "Order Soup"],
                "es": ["Pedir {quantity} {soup}", "Pedir {soup}", "Pedir sopa"],
                "fr": ["Commander {quantity} {soup}", "Commander une {soup}", "Commander une soupe"]
            ])
        #expect(
            file.intents[1].phrases == [
                "en": ["Show the menu", "Show Menu"], "es": ["Mostrar el menú", "Ver el menú"],
                "fr": ["Afficher la carte", "Afficher le menu"]
            ])
        #expect(order.example("Pedir {quantity} {soup}", language: "es") == "Pedir 2 sopa de tomate")
        #expect(file.intents[1].shortcutTypes.map(\.parameters) == [[]])
        #expect(file.intents[1].shortcutTypes.first?.subtitle == nil)
    }

    @Test(arguments: [
        ("en-US", "success", "Your Tomato Soup will be ready in 10 minutes."),
        ("es-ES", "success", "Tu sopa de tomate estará lista en 10 minutos."),
        ("fr-FR", "success", "Votre soupe à la tomate sera prête dans 10 minutes."),
        ("en-US", "failureOutOfStock", "Sorry, Tomato Soup is sold out."),
        ("es-ES", "failureOutOfStock", "Lo sentimos, la sopa de tomate está agotada."),
        ("fr-FR", "failureOutOfStock", "Désolé, il n'y a plus de soupe à la tomate.")
    ])
    func responsesAreRenderedInEachLanguage(locale: String, code: String, expected: String) throws {
        let order = try Self.orderSoup()
        let text = try order.render(
            code: code, properties: ["soup": .string("tomato"), "waitTime": .number(10)], locale: ParlanceLocale(locale))
        #expect(text == expected)
    }

    @Test func responseCodesWithoutTextAreLeftOut() throws {
        let file = try Self.soupChef()
        let order = try Self.orderSoup()
        // Xcode's "failure" has no text here; ShowMenu's codes have none at all.
        #expect(order.responses.keys.sorted() == ["failureOutOfStock", "success"])
        #expect(order.responses["success"]?.success == true)
        #expect(order.responses["failureOutOfStock"]?.success == false)
        #expect(file.intents[1].responses.isEmpty)
        #expect(!file.warnings.contains { $0.contains("response 'failure'") })
    }

    @Test func aBaseLanguageTableAndRegionalFoldersAreRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("IntentDefinitionTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = Self.intent("<key>INIntentTitle</key><string>Ping</string><key>INIntentTitleID</key><string>t1</string>")
        for (folder, table) in [
            ("Base.lproj", nil), ("en.lproj", #""t1" = "Ping it";"#), ("es.lproj", #""t1" = "Haz ping";"#),
            ("es-MX.lproj", #""t1" = "Dale ping";"#), ("pt-BR.lproj", #""t1" = "Pingar";"#)
        ] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            if let table { try Data(table.utf8).write(to: directory.appendingPathComponent("\(folder)/Intents.strings")) }
        }
        try data.write(to: directory.appendingPathComponent("Base.lproj/Intents.intentdefinition"))
        let file = try IntentDefinitionFile.load(contentsOf: directory.appendingPathComponent("Base.lproj/Intents.intentdefinition"))
        // en.lproj overrides the base text; es-MX yields to es; pt-BR stands for pt.
        #expect(file.intents.first?.title == ["en": "Ping it", "es": "Haz ping", "pt": "Pingar"])
        #expect(file.warnings.contains { $0.hasPrefix("es-MX.lproj/Intents.strings: read as language 'es'") })

        // Without Base.lproj, the file's own folder gives the base language.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("de.lproj"), withIntermediateDirectories: true)
        try data.write(to: directory.appendingPathComponent("de.lproj/Intents.intentdefinition"))
        let german = try IntentDefinitionFile.load(contentsOf: directory.appendingPathComponent("de.lproj/Intents.intentdefinition"))
        #expect(german.intents.first?.title["de"] == "Ping")
        #expect(german.intents.first?.title["en"] == "Ping it")
    }

    // MARK: Errors

    @Test func notAPropertyListIsAClearError() {
        #expect { try Self.decode(Data("this is { not a property list".utf8)) } throws: { error in
            "\(error)".contains("Test.intentdefinition") && "\(error)".contains("not a property list")
        }
        #expect { try Self.decode(Data("<html><body>Intents</body></html>".utf8)) } throws: { error in
            "\(error)".contains("not a property list")
        }
    }

    @Test func aFileWithoutINIntentsIsAnError() {
        #expect { try Self.decode(Self.plist("<key>INEnums</key><array/>")) } throws: { error in
            "\(error)" == "intent definition Test.intentdefinition: at INIntents: expected an array, found nothing (the key is missing)"
        }
        #expect { try Self.decode(Data(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8)) } throws: { error in
            "\(error)".contains("at (top level): expected a dictionary, found an array")
        }
    }

    @Test func aParameterWithoutANameIsAnErrorWithItsKeyPath() {
        let data = Self.intent(
            """
            <key>INIntentParameters</key><array>
              <dict><key>INIntentParameterName</key><string>a</string><key>INIntentParameterType</key><string>String</string></dict>
              <dict><key>INIntentParameterType</key><string>String</string></dict>
            </array>
            """)
        #expect { try Self.decode(data) } throws: { error in
            "\(error)".hasSuffix(
                "at INIntents[0].INIntentParameters[1].INIntentParameterName: expected a string, found nothing (the key is missing)")
        }
        let wrongType = Self.intent("<key>INIntentUserConfirmationRequired</key><string>yes</string>")
        #expect { try Self.decode(wrongType) } throws: { error in
            "\(error)".hasSuffix("at INIntents[0].INIntentUserConfirmationRequired: expected a boolean, found a string")
        }
    }

    // MARK: Warnings

    @Test func unknownKeysAreWarnedAboutWithTheirPath() throws {
        let data = Self.plist(
            """
            <key>INFutureTopLevel</key><true/>
            <key>INIntents</key><array><dict>
              <key>INIntentName</key><string>Ping</string>
              <key>INFoo</key><string>bar</string>
              <key>INIntentVerb</key><string>Do</string>
              <key>INIntentParameters</key><array><dict>
                <key>INIntentParameterName</key><string>host</string>
                <key>INIntentParameterType</key><string>String</string>
                <key>INIntentParameterSparkle</key><true/>
                <key>INIntentParameterTag</key><integer>1</integer>
              </dict></array>
            </dict></array>
            """)
        let file = try Self.decode(data)
        #expect(file.intents.map(\.name) == ["ping"])
        #expect(file.intents.first?.parameters.map(\.type) == [.string])
        #expect(
            file.warnings == [
                "(top level): unknown key 'INFutureTopLevel', ignored",
                "INIntents[0]: unknown key 'INFoo', ignored",
                "INIntents[0].INIntentParameters[0]: unknown key 'INIntentParameterSparkle', ignored"
            ])
    }

    @Test func constructsParlanceCannotHonourAreNamed() throws {
        let data = Self.plist(
            """
            <key>INIntents</key><array>
              <dict>
                <key>INIntentName</key><string>PlayMedia</string>
                <key>INIntentType</key><string>System</string>
                <key>INIntentClassName</key><string>INPlayMediaIntent</string>
              </dict>
              <dict>
                <key>INIntentName</key><string>Ping</string>
                <key>INIntentCategory</key><string>teleport</string>
                <key>INIntentParameters</key><array>
                  <dict><key>INIntentParameterName</key><string>where</string><key>INIntentParameterType</key><string>Placemark</string></dict>
                  <dict><key>INIntentParameterName</key><string>count</string><key>INIntentParameterType</key><string>Integer</string>
                    <key>INIntentParameterMetadata</key><dict><key>INIntentParameterMetadataDefaultValue</key><integer>3</integer></dict></dict>
                </array>
                <key>INIntentParameterCombinations</key><dict>
                  <key>count</key><dict><key>INIntentParameterCombinationTitle</key><string>Ping ${count} times near ${where}</string></dict>
                </dict>
                <key>INIntentResponse</key><dict><key>INIntentResponseCodes</key><array>
                  <dict><key>INIntentResponseCodeName</key><string>failureOffline</string><key>INIntentResponseCodeFormatString</key><string></string></dict>
                </array></dict>
              </dict>
            </array>
            """)
        let file = try Self.decode(data)
        let ping = try #require(file.intents.first)
        #expect(file.intents.map(\.name) == ["ping"])
        #expect(ping.category == nil)
        #expect(ping.parameters.map(\.name) == ["count"])
        // The combination's title names a parameter left out: no shortcut type, no phrase.
        #expect(ping.shortcutTypes.isEmpty)
        #expect(ping.phrases.isEmpty)
        #expect(ping.responses.isEmpty)
        for expected in [
            "PlayMedia: customizes the SiriKit intent INPlayMediaIntent",
            "Ping: category 'teleport' is not one of",
            "Ping.where: parameter type 'Placemark' is not supported; the parameter is left out",
            "Ping.count: the default value (3) is not applied",
            "INIntentParameterCombinations[\"count\"]: uses Ping.where, which is left out; the shortcut type and its phrases ('Ping ${count} times near ${where}') are left out",
            "Ping response 'failureOffline': it has no text; left out"
        ] {
            #expect(file.warnings.contains { $0.contains(expected) }, "missing warning: \(expected)")
        }
    }

    @Test func titlesNamingNoParameterAreLeftOutThroughTheDeclarationCheck() throws {
        let data = Self.intent(
            """
            <key>INIntentParameters</key><array><dict><key>INIntentParameterName</key><string>host</string><key>INIntentParameterType</key><string>String</string></dict></array>
            <key>INIntentParameterCombinations</key><dict>
              <key>host</key><dict><key>INIntentParameterCombinationTitle</key><string>Ping ${hots}</string></dict>
              <key></key><dict><key>INIntentParameterCombinationTitle</key><string>Ping</string></dict>
            </dict>
            """)
        let file = try Self.decode(data)
        let ping = try #require(file.intents.first)
        #expect(ping.phrases == ["en": ["Ping"]])
        #expect(ping.problems().isEmpty)
        #expect(file.warnings.contains { $0.hasPrefix("Ping: phrase 'Ping {hots}' (en) names '{hots}', which is not a parameter of ping") })
    }

    @Test func managedCombinationsAddOnlyParameterSetsNotYetSeen() throws {
        let data = Self.intent(
            """
            <key>INIntentParameters</key><array>
              <dict><key>INIntentParameterName</key><string>host</string><key>INIntentParameterType</key><string>String</string></dict>
              <dict><key>INIntentParameterName</key><string>count</string><key>INIntentParameterType</key><string>Integer</string></dict>
            </array>
            <key>INIntentParameterCombinations</key><dict>
              <key>host,count</key><dict><key>INIntentParameterCombinationTitle</key><string>Ping ${host} ${count} times</string></dict>
            </dict>
            <key>INIntentManagedParameterCombinations</key><dict>
              <key>count,host</key><dict><key>INIntentParameterCombinationTitle</key><string>Ping ${host} (${count})</string></dict>
              <key>host</key><dict><key>INIntentParameterCombinationTitle</key><string>Ping ${host}</string></dict>
            </dict>
            """)
        let ping = try #require(try Self.decode(data).intents.first)
        #expect(ping.shortcutTypes.map(\.parameters) == [["host", "count"], ["host"]])
        #expect(ping.phrases == ["en": ["Ping {host} {count} times", "Ping {host}"]])
    }

    @Test func missingTranslationsAreLeftOutAndNamed() throws {
        let data = Self.intent("<key>INIntentTitle</key><string>Ping</string><key>INIntentTitleID</key><string>t1</string>")
        let file = try Self.decode(data, strings: ["es": ["t1": "Haz ping"], "fr": [:]])
        #expect(file.intents.first?.title == ["en": "Ping", "es": "Haz ping"])
        #expect(file.warnings == ["INIntents[0].INIntentTitle (ID 't1'): no fr translation of 'Ping'; left out in fr"])
    }

    // MARK: Text

    @Test func placeholdersBecomeSlotsAndTheRestStaysAsWritten() throws {
        #expect(IntentDefinitionFile.slotted("Order ${quantity} ${soup}") == "Order {quantity} {soup}")
        #expect(IntentDefinitionFile.slotted("Costs $5 or ${ price}") == "Costs $5 or ${ price}")
        #expect(IntentDefinitionFile.placeholders(in: "${a} and $b and ${c}.${d}") == ["a", "c", "d"])
        let pattern = IntentDefinitionFile.messagePattern("It's $5 for {x}, ${soup}'s ready")
        #expect(pattern == "It''s $5 for '{'x'}', {soup}''s ready")
        let intent = CustomIntent(name: "x", responses: ["success": .init(success: true, templates: ["en": pattern])])
        #expect(
            try intent.render(code: "success", properties: ["soup": .string("Tomato Soup")], locale: ParlanceLocale("en"))
                == "It's $5 for {x}, Tomato Soup's ready")
    }

    @Test func stringsTablesAreParsed() throws {
        let table = #"""
            /* A comment
               over two lines */
            "plain" = "Pedir ${quantity} ${soup}";
            // a line comment
            "escapes" = "say \"hi\" \\ \n\t\U00e9\U00A0x \UD83D\UDE00 \101";
            unquoted = value_1;
            "alone";
            """#
        let parsed = try IntentDefinitionFile.decodeStrings(Data(table.utf8), file: "es.lproj/Intents.strings")
        #expect(
            parsed == [
                "plain": "Pedir ${quantity} ${soup}",
                "escapes": "say \"hi\" \\ \n\té\u{A0}x 😀 A",
                "unquoted": "value_1",
                "alone": "alone"
            ])
        // UTF-16 with a byte-order mark, as older Xcode writes.
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(#""k" = "sopa de tomate";"#.data(using: .utf16LittleEndian) ?? Data())
        #expect(try IntentDefinitionFile.decodeStrings(utf16, file: "x.strings") == ["k": "sopa de tomate"])
        // A property-list table.
        #expect(try IntentDefinitionFile.decodeStrings(Self.plist("<key>k</key><string>v</string>"), file: "x.strings") == ["k": "v"])
    }

    @Test(arguments: [
        ("\"a\" = \"b\";\n\"c\" = \"d\"\n\"e\" = \"f\";", "line 3: expected ';' after the value of \"c\""),
        ("\"a\" = \"b\";\n\n\"c\" = \"unterminated;", "line 3: unterminated string"),
        ("/* open", "line 1: unterminated comment"),
        ("\"a\" \"b\";", "line 1: expected '=' or ';' after \"a\""),
        ("\"a\" = ;", "line 1: expected the value of \"a\" (a quoted string), found ';'")
    ])
    func malformedStringsTablesNameTheLine(table: String, message: String) {
        #expect { try IntentDefinitionFile.decodeStrings(Data(table.utf8), file: "fr.lproj/Intents.strings") } throws: { error in
            "\(error)" == "strings table fr.lproj/Intents.strings: \(message)"
        }
    }
}
