import Foundation
import ParlanceICU
import ParlanceText

/// One ordered vocabulary (most important first), immutable. What the stages derive from it
/// (the resolver's candidate index per language) is kept with it, made once.
public final class VocabularySet: Sendable {
    /// The items, most important first.
    public let items: [VocabularyItem]
    private let derived = Locked<[String: any Sendable]>([:])

    /// Creates a set from items in priority order, most important first.
    public init(_ items: [VocabularyItem]) { self.items = items }

    /// What a stage derives from the set, made by `make` the first time `key` is asked for
    /// (callers asking for the same key wait for it) and kept as long as the set. The key names
    /// the derivation and its type ("index:en").
    package func derived<T: Sendable>(_ key: String, _ make: () throws -> T) throws -> T {
        try derived.withLock { derived in
            if let made = derived[key] as? T { return made }
            let made = try make()
            derived[key] = made
            return made
        }
    }
}

/// The vocabularies that parsing and resolution both read, with SiriKit's update semantics:
/// - user vocabulary, per app and vocabulary type, an ordered set that is only ever replaced
///   whole (`setUserVocabulary`, like `INVocabulary.setVocabularyStrings(_:of:)`) or removed
///   (`removeAllUserVocabulary`, like `removeAllVocabularyStrings()` at sign-out);
/// - app vocabulary, per app, type and language (`AppIntentVocabulary.plist`).
///
/// Thread-safe. An update swaps in a new immutable set under a lock and moves `version` on, so
/// a query running at the same time sees either the old set or the new one, never a half-written
/// one; a removed item is neither matched by the resolver nor known to the parser in any query
/// that starts after the update returns. Give one store to the parser and the resolver
/// (`ResolvingParser(context:)` does).
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

    private struct State: Sendable {
        var sets: [Key: VocabularySet] = [:]
        /// The order apps were first given vocabulary in (the context's order of apps).
        var apps: [String] = []
        var version: UInt64 = 0
    }

    private let state = Locked(State())

    /// Creates an empty store.
    public init() {}

    /// The context's vocabularies: each app's user vocabulary, inline app vocabulary (all
    /// languages) and loaded vocabulary files (per language).
    public convenience init(context: ParserContext) {
        self.init()
        for app in context.apps {
            state.withLock { if !$0.apps.contains(app.name) { $0.apps.append(app.name) } }
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

    /// Moves on with every update: what was derived from an older version is stale.
    public var version: UInt64 { state.withLock { $0.version } }

    private func update(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            state.version &+= 1
        }
    }

    private static func noteApp(_ app: String, in state: inout State) {
        if !state.apps.contains(app) { state.apps.append(app) }
    }

    /// Replaces an app's whole ordered set of one type (most important first).
    public func setUserVocabulary(_ items: [VocabularyItem], app: String, type: String) {
        let set = VocabularySet(items)
        update { state in
            Self.noteApp(app, in: &state)
            state.sets[.user(app, type)] = set
        }
    }

    /// Removes an app's user vocabulary of every type (sign-out, reset), or of one type.
    public func removeAllUserVocabulary(app: String, type: String? = nil) {
        update { state in
            for key in state.sets.keys where key.app == app && key.scope == "user" && (type == nil || key.type == type) {
                state.sets[key] = nil
            }
        }
    }

    /// Removes items by id from an app's set of one type (the set is replaced without them).
    public func removeUserVocabulary(ids: Set<String>, app: String, type: String) {
        update { state in
            let key = Key.user(app, type)
            guard let current = state.sets[key] else { return }
            state.sets[key] = VocabularySet(current.items.filter { !ids.contains($0.id) })
        }
    }

    /// Sets the app vocabulary of one type for a language ("en"), or for languages without
    /// their own (nil).
    public func setAppVocabulary(_ items: [VocabularyItem], app: String, type: String, language: String?) {
        let set = VocabularySet(items)
        update { state in
            Self.noteApp(app, in: &state)
            state.sets[.app(app, type, language)] = set
        }
    }

    /// An app's user vocabulary of a type, in priority order.
    public func userVocabulary(app: String, type: String) -> [VocabularyItem] {
        state.withLock { $0.sets[.user(app, type)]?.items ?? [] }
    }

    /// The sets a query for (app, type) in a language searches: the user's, then the app's
    /// for that language (or the language-independent one).
    package func sets(app: String, type: String, language: String) -> (user: VocabularySet?, app: VocabularySet?) {
        state.withLock { state in
            let user = state.sets[.user(app, type)]
            let appSet = state.sets[.app(app, type, language)] ?? state.sets[.app(app, type, nil)]
            return (user, appSet)
        }
    }

    /// Everything the store holds, as of one version: what the parser derives its known names
    /// from.
    public func snapshot() -> Snapshot {
        state.withLock { state in
            var items: [String: [VocabularyItem]] = [:]
            for app in state.apps {
                let types = Set(state.sets.keys.filter { $0.app == app }.map(\.type)).sorted()
                for type in types {
                    // User vocabulary first, then the app's: the items for every language
                    // (inline in the context), then each language's file, by language code, less
                    // the items every language has.
                    var mine = state.sets[.user(app, type)]?.items ?? []
                    let everywhere = state.sets[.app(app, type, nil)]?.items ?? []
                    mine += everywhere
                    let shared = Set(everywhere)
                    let languages = state.sets.keys.filter {
                        $0.app == app && $0.type == type && $0.scope.hasPrefix("app:") && $0.scope != "app:*"
                    }
                    .map(\.scope).sorted()
                    for scope in languages {
                        mine += (state.sets[Key(app: app, type: type, scope: scope)]?.items ?? []).filter { !shared.contains($0) }
                    }
                    items[type, default: []] += mine
                }
            }
            return Snapshot(version: state.version, items: items)
        }
    }

    /// The store's items as of one version.
    public struct Snapshot: Sendable {
        /// The store's `version` when it was taken.
        public let version: UInt64
        private let items: [String: [VocabularyItem]]

        init(version: UInt64, items: [String: [VocabularyItem]]) {
            self.version = version
            self.items = items
        }

        /// Every item of a type, across apps (each app's user vocabulary first, in priority
        /// order, then its app vocabulary of every language).
        public func items(_ type: String) -> [VocabularyItem] { items[type] ?? [] }
    }
}
