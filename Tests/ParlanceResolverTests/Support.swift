import Foundation
import ParlanceText

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

enum Support {
    static let en = try! ParlanceLocale("en-US")
    static let es = try! ParlanceLocale("es-ES")

    /// A context with one app whose contactName set is `contacts` (strings or items).
    static func context(
        app: String = "MonkeyChat", contacts: [VocabularyItem], type: String = "contactName", intents: [String] = ["sendMessage"]
    ) throws -> ParserContext {
        let items = contacts.map { item -> [String: Any] in
            var d: [String: Any] = ["id": item.id, "phrase": item.phrase]
            if let p = item.pronunciation { d["pronunciation"] = p }
            if let n = item.nickname { d["nickname"] = n }
            if let r = item.relationship { d["relationship"] = r }
            return d
        }
        let json: [String: Any] = ["apps": [["name": app, "intents": intents, "userVocabulary": [type: items]]]]
        return try ParserContext.decode(JSONSerialization.data(withJSONObject: json), file: "test")
    }

    static func ids(_ r: Resolution) -> [String] { r.items.map(\.id) }

    /// A notes app, Jotter, whose user has one list, "Rainy Day" (id l1): "add Tom Waits to rainy
    /// day" reads as a list's only while the user has it.
    static func jotter() throws -> ParserContext {
        try ParserContext.decode(
            Data(
                """
                {"apps": [{"name": "Jotter", "intents": ["addTasks", "createNote", "searchForNotebookItems", "createTaskList"],
                  "userVocabulary": {"notebookItemTitle": [{"id": "l1", "phrase": "Rainy Day"}]}}]}
                """.utf8), file: "jotter.json")
    }
}

extension VocabularyItem {
    init(_ id: String, _ phrase: String, pronunciation: String? = nil) { self.init(id: id, phrase: phrase, pronunciation: pronunciation) }
}
