import Foundation
import GRDB
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
/// In memory by default; given a `UserDatabase` (an SQLite file) and a user, the user's sets
/// are read from it and every update is written to it before it takes effect, so they outlast
/// the process (see `UserDatabase` for what is guaranteed on disk). An update the database
/// refuses throws `StoreError` and changes nothing.
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
    /// Where user vocabulary is kept across launches, and whose it is; nil in memory.
    private let persistence: (database: UserDatabase, user: String)?

    /// Creates an empty store, in memory.
    public init() { persistence = nil }

    /// The context's vocabularies, in memory: each app's user vocabulary, inline app
    /// vocabulary (all languages) and loaded vocabulary files (per language).
    public init(context: ParserContext) {
        persistence = nil
        state.withLock { state in
            for app in context.apps {
                Self.noteApp(app.name, in: &state)
                for (type, items) in app.userVocabulary { state.sets[.user(app.name, type)] = VocabularySet(items) }
            }
        }
        loadAppVocabulary(context)
    }

    /// A user's store kept in a database: the user's sets as the database has them (on the
    /// user's first use, the context's user vocabulary, written there once), with the
    /// context's app vocabulary (inline and vocabulary files), which is the apps' and is not
    /// stored. Every update is written to the database before it takes effect.
    public init(database: UserDatabase, user: String, context: ParserContext? = nil) throws(StoreError) {
        persistence = (database, user)
        try database.ensureUser(user, context: context)
        let stored = try database.sets(user: user)
        state.withLock { state in
            for app in context?.apps ?? [] { Self.noteApp(app.name, in: &state) }
            for (app, type, items) in stored {
                Self.noteApp(app, in: &state)
                state.sets[.user(app, type)] = VocabularySet(items)
            }
        }
        if let context { loadAppVocabulary(context) }
    }

    /// A user's store kept in the SQLite file at `path` (created when missing).
    public convenience init(path: String, user: String, context: ParserContext? = nil) throws(StoreError) {
        try self.init(database: UserDatabase(path: path), user: user, context: context)
    }

    /// The database and user the store is kept for; nil in memory.
    public var storage: (database: UserDatabase, user: String)? { persistence }

    private func loadAppVocabulary(_ context: ParserContext) {
        state.withLock { state in
            for app in context.apps {
                Self.noteApp(app.name, in: &state)
                var types = Set(app.appVocabularyItems.keys)
                for file in app.appVocabularyFiles.values { types.formUnion(file.items.keys) }
                for type in types {
                    for language in app.appVocabularyFiles.keys {
                        state.sets[.app(app.name, type, language)] = VocabularySet(app.appVocabulary(type, language: language))
                    }
                    // Inline items also serve languages without a file.
                    if let inline = app.appVocabularyItems[type] { state.sets[.app(app.name, type, nil)] = VocabularySet(inline) }
                }
            }
        }
    }

    /// Moves on with every update: what was derived from an older version is stale.
    public var version: UInt64 { state.withLock { $0.version } }

    /// Writes `stored` to the database (when there is one) and then makes `change`, under the
    /// lock, so that the file and memory take updates in the same order; a write the database
    /// refuses changes neither.
    private func update(stored: ((Database, String) throws -> Void)? = nil, change: (inout State) -> Void) throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            if let persistence, let stored {
                try persistence.database.write { db in try stored(db, persistence.user) }
            }
            change(&state)
            state.version &+= 1
        }
    }

    private static func noteApp(_ app: String, in state: inout State) {
        if !state.apps.contains(app) { state.apps.append(app) }
    }

    /// Replaces an app's whole ordered set of one type (most important first).
    public func setUserVocabulary(_ items: [VocabularyItem], app: String, type: String) throws(StoreError) {
        let set = VocabularySet(items)
        try update(
            stored: { db, user in try UserDatabase.replaceSet(db, user: user, app: app, type: type, items: items) },
            change: { state in
                Self.noteApp(app, in: &state)
                state.sets[.user(app, type)] = set
            })
    }

    /// Removes an app's user vocabulary of every type (sign-out, reset), or of one type.
    public func removeAllUserVocabulary(app: String, type: String? = nil) throws(StoreError) {
        try update(
            stored: { db, user in try UserDatabase.removeSets(db, user: user, app: app, type: type) },
            change: { state in
                for key in state.sets.keys where key.app == app && key.scope == "user" && (type == nil || key.type == type) {
                    state.sets[key] = nil
                }
            })
    }

    /// Removes items by id from an app's set of one type (the set is replaced without them).
    public func removeUserVocabulary(ids: Set<String>, app: String, type: String) throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            guard let current = state.sets[.user(app, type)] else { return }
            let kept = current.items.filter { !ids.contains($0.id) }
            if let persistence {
                try persistence.database.write { db in
                    try UserDatabase.replaceSet(db, user: persistence.user, app: app, type: type, items: kept)
                }
            }
            state.sets[.user(app, type)] = VocabularySet(kept)
            state.version &+= 1
        }
    }

    /// Sets the app vocabulary of one type for a language ("en"), or for languages without
    /// their own (nil).
    public func setAppVocabulary(_ items: [VocabularyItem], app: String, type: String, language: String?) {
        let set = VocabularySet(items)
        // App vocabulary is the app's, read with the context: never stored, never refused.
        try? update(change: { state in
            Self.noteApp(app, in: &state)
            state.sets[.app(app, type, language)] = set
        })
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
