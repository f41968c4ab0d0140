import Foundation
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// `AppIntentVocabulary.plist` files: XML and binary, errors with file and key path.
@Suite struct AppVocabularyTests {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-plist-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static var good: [String: Any] {
        [
            "ParameterVocabularies": [
                [
                    "ParameterNames": [
                        "INStartWorkoutIntent.workoutName", "INEndWorkoutIntent.workoutName", "INPlayMediaIntent.mediaItems"
                    ],
                    "ParameterVocabulary": [
                        [
                            "VocabularyItemIdentifier": "bananarific",
                            "VocabularyItemSynonyms": [
                                [
                                    "VocabularyItemPhrase": "Bananarific", "VocabularyItemPronunciation": "ba nana ri fica",
                                    "VocabularyItemExamples": ["Start a Bananarific"]
                                ],
                                ["VocabularyItemPhrase": "Banana Blast"]
                            ]
                        ]
                    ]
                ]
            ],
            "IntentPhrases": [["IntentName": "INStartWorkoutIntent", "IntentExamples": ["Start a Bananarific with MonkeyFit"]]],
            "INAlternativeAppNames": [["INAlternativeAppName": "Monkey Fitness", "INAlternativeAppNamePronunciationHint": "monkey fitness"]]
        ]
    }

    func write(_ plist: Any, _ name: String, format: PropertyListSerialization.PropertyListFormat) throws -> URL {
        let url = Self.folder.appendingPathComponent(name)
        try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0).write(to: url)
        return url
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func readsBothFormats(format: PropertyListSerialization.PropertyListFormat) throws {
        let url = try write(Self.good, "good-\(format.rawValue).plist", format: format)
        let vocabulary = try AppIntentVocabulary.load(contentsOf: url)
        let items = try #require(vocabulary.items["workoutActivityName"])
        #expect(items.map(\.id) == ["bananarific", "bananarific"])
        #expect(items.map(\.phrase) == ["Bananarific", "Banana Blast"])
        #expect(items.first?.pronunciation == "ba nana ri fica")
        #expect(vocabulary.intentPhrases["startWorkout"] == ["Start a Bananarific with MonkeyFit"])
        #expect(vocabulary.examples["bananarific"] == ["Start a Bananarific"])
        #expect(vocabulary.alternativeAppNames.map(\.name) == ["Monkey Fitness"])
        // A parameter outside the catalogue is skipped with a warning, not an error.
        #expect(vocabulary.warnings.contains { $0.contains("INPlayMediaIntent.mediaItems") })
    }

    /// A broken copy of the good file, and the message its error must contain.
    static func broken(_ n: Int) -> ([String: Any], String) {
        var p = good
        switch n {
        case 0:
            p["ParameterVocabularies"] = "oops"
            return (p, "at ParameterVocabularies: expected an array, found a string")
        case 1:
            p["ParameterVocabularies"] = [
                [
                    "ParameterNames": ["INStartWorkoutIntent.workoutName"],
                    "ParameterVocabulary": [["VocabularyItemSynonyms": [["VocabularyItemPhrase": "X"]]]]
                ]
            ]
            return (
                p,
                "at ParameterVocabularies[0].ParameterVocabulary[0].VocabularyItemIdentifier: expected a string, found nothing (the key is missing)"
            )
        case 2:
            p["ParameterVocabularies"] = [["ParameterNames": ["workoutName"], "ParameterVocabulary": [[String: Any]]()]]
            return (p, "at ParameterVocabularies[0].ParameterNames[0]: expected 'INSomeIntent.parameterName', found 'workoutName'")
        default:
            p["IntentPhrases"] = [["IntentName": "INStartWorkoutIntent", "IntentExamples": [42]]]
            return (p, "at IntentPhrases[0].IntentExamples[0]: expected a string, found a number")
        }
    }

    @Test(arguments: 0..<4)
    func malformedFilesNameTheKeyPath(case n: Int) throws {
        let (plist, message) = Self.broken(n)
        let url = try write(plist, "bad-\(n).plist", format: .xml)
        #expect { try AppIntentVocabulary.load(contentsOf: url) } throws: { error in
            let text = "\(error)"
            return text.contains(url.path) && text.contains(message)
        }
    }

    @Test func aBadFileDoesNotStopAGoodOneNextToIt() throws {
        _ = try write(Self.good, "fit-en.plist", format: .binary)
        try Data("<plist><dict><key>ParameterVocabularies</key><string>".utf8).write(to: Self.folder.appendingPathComponent("fit-es.plist"))
        let context = """
            {"apps": [{"name": "MonkeyFit", "intents": ["startWorkout"],
                       "appVocabulary": {"en": "fit-en.plist", "es": "fit-es.plist", "fr": "missing.plist"}}]}
            """
        let url = Self.folder.appendingPathComponent("context.json")
        try Data(context.utf8).write(to: url)
        let loaded = try ParserContext.load(contentsOf: url)
        let errors = loaded.diagnostics.filter { !$0.message.hasPrefix("warning") }
        #expect(errors.count == 2)
        #expect(errors.contains { $0.file.hasSuffix("fit-es.plist") && $0.message.contains("not a property list") })
        #expect(errors.contains { $0.file.hasSuffix("missing.plist") && $0.message.contains("cannot read") })
        // The good file loaded: its items resolve, and its alternative app name is known.
        #expect(loaded.apps[0].allNames.contains("Monkey Fitness"))
        let r = try Resolver(context: loaded).resolve("banana blast", app: "MonkeyFit", type: "workoutActivityName", locale: Support.en)
            .resolution
        #expect(r.kind == .success && Support.ids(r) == ["bananarific"])
        // Spanish has no good file: nothing to resolve against.
        let es = try Resolver(context: loaded).resolve("banana blast", app: "MonkeyFit", type: "workoutActivityName", locale: Support.es)
            .resolution
        #expect(es.kind == .unsupported)
    }
}
