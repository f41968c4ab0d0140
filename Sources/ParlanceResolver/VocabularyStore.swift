import Foundation
import ParlanceICU
import ParlanceParser
import ParlanceText

/// One ordered vocabulary (most important first), immutable, with its candidate index built
/// per language on first use.
public final class VocabularySet: Sendable {
    /// The items, most important first.
    public let items: [VocabularyItem]
    private let indexes = Locked<[String: VocabularyIndex]>([:])

    /// Creates a set from items in priority order, most important first.
    public init(_ items: [VocabularyItem]) { self.items = items }

    /// The index for a language, built once (callers for the same language wait for it).
    public func index(language: String) throws -> VocabularyIndex {
        try indexes.withLock { indexes in
            if let index = indexes[language] { return index }
            let index = try VocabularyIndex(items: items, language: language)
            indexes[language] = index
            return index
        }
    }
}

/// The vocabularies the resolver matches against, with SiriKit's update semantics:
/// - user vocabulary, per app and vocabulary type, an ordered set that is only ever replaced
///   whole (`setUserVocabulary`, like `INVocabulary.setVocabularyStrings(_:of:)`) or removed
///   (`removeAllUserVocabulary`, like `removeAllVocabularyStrings()` at sign-out);
/// - app vocabulary, per app, type and language (`AppIntentVocabulary.plist`).
///
/// Thread-safe. An update swaps in a new immutable set under a lock, so a query running at
/// the same time sees either the old set or the new one, never a half-written one; a removed
/// item is never matched by any query that starts after the update returns.
public final class VocabularyStore: Sendable {
    private struct Key: Hashable, Sendable {
        let app: String
        let type: String
        /// "user", or "app:<language>", or "app:*" for app vocabulary of any language.
        let scope: String

        static func user(_ app: String, _ type: String) -> Key { Key(app: app, type: type, scope: "user") }
        static func app(_ app: String, _ type: String, _ language: String?) -> Key {
            Key(app: app, type: type, scope: "app:\(language ?? "*")")
        }
    }

    private let sets = Locked<[Key: VocabularySet]>([:])

    /// Creates an empty store.
    public init() {}

    /// The context's vocabularies: each app's user vocabulary, inline app vocabulary (all
    /// languages) and loaded vocabulary files (per language).
    public convenience init(context: ParserContext) {
        self.init()
        for app in context.apps {
            for (type, items) in app.userVocabulary { setUserVocabulary(items, app: app.name, type: type) }
            var types = Set(app.appVocabularyItems.keys)
            for file in app.appVocabularyFiles.values { types.formUnion(file.items.keys) }
            for type in types {
                for language in app.appVocabularyFiles.keys {
                    setAppVocabulary(app.appVocabulary(type, language: language), app: app.name, type: type, language: language)
                }
                // Inline items also serve languages without a file.
                if let inline = app.appVocabularyItems[type] { setAppVocabulary(inline, app: app.name, type: type, language: nil) }
            }
        }
    }

    /// Replaces an app's whole ordered set of one type (most important first).
    public func setUserVocabulary(_ items: [VocabularyItem], app: String, type: String) {
        let set = VocabularySet(items)
        sets.withLock { $0[.user(app, type)] = set }
    }

    /// Removes an app's user vocabulary of every type (sign-out, reset), or of one type.
    public func removeAllUserVocabulary(app: String, type: String? = nil) {
        sets.withLock { sets in
            for key in sets.keys where key.app == app && key.scope == "user" && (type == nil || key.type == type) {
                sets[key] = nil
            }
        }
    }

    /// Removes items by id from an app's set of one type (the set is replaced without them).
    public func removeUserVocabulary(ids: Set<String>, app: String, type: String) {
        sets.withLock { sets in
            let key = Key.user(app, type)
            guard let current = sets[key] else { return }
            sets[key] = VocabularySet(current.items.filter { !ids.contains($0.id) })
        }
    }

    /// Sets the app vocabulary of one type for a language ("en"), or for languages without
    /// their own (nil).
    public func setAppVocabulary(_ items: [VocabularyItem], app: String, type: String, language: String?) {
        let set = VocabularySet(items)
        sets.withLock { $0[.app(app, type, language)] = set }
    }

    /// An app's user vocabulary of a type, in priority order.
    public func userVocabulary(app: String, type: String) -> [VocabularyItem] {
        sets.withLock { $0[.user(app, type)]?.items ?? [] }
    }

    /// The sets a query for (app, type) in a language searches: the user's, then the app's
    /// for that language (or the language-independent one).
    func sets(app: String, type: String, language: String) -> (user: VocabularySet?, app: VocabularySet?) {
        sets.withLock { sets in
            let user = sets[.user(app, type)]
            let appSet = sets[.app(app, type, language)] ?? sets[.app(app, type, nil)]
            return (user, appSet)
        }
    }
}
