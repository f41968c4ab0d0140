import Foundation
import GRDB

/// Why the users' database cannot be opened or written: which file, and what is wrong. Nothing
/// already stored is changed when one is thrown.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a caller that must tell cases apart (an HTTP status, an exit code).
    public enum Kind: String, Sendable {
        /// The file is not an SQLite database, or its pages are damaged (SQLite's quick_check).
        case corrupt
        /// Another connection holds the database locked past the busy timeout.
        case locked
        /// The file cannot be opened, read or written (permissions, a missing folder, a full disk).
        case unavailable
    }

    /// The database file, as it was given.
    public let path: String
    /// What went wrong.
    public let kind: Kind
    /// What SQLite or the file system said.
    public let message: String

    /// "users' database db.sqlite is corrupt: file is not a database (…)".
    public var description: String {
        let what =
            switch kind {
            case .corrupt: "is corrupt (nothing in it was changed; restore it from a copy or move it away)"
            case .locked: "is locked by another connection (nothing was changed; try again)"
            case .unavailable: "cannot be used"
            }
        return "users' database \(path) \(what): \(message)"
    }

    init(path: String, _ error: any Error) {
        if let error = error as? StoreError {
            self = error
        } else if let error = error as? DatabaseError {
            let kind: Kind =
                switch error.resultCode {
                case .SQLITE_CORRUPT, .SQLITE_NOTADB: .corrupt
                case .SQLITE_BUSY, .SQLITE_LOCKED: .locked
                default: .unavailable
                }
            self.init(path: path, kind: kind, message: error.message ?? "\(error.resultCode)")
        } else {
            self.init(path: path, kind: .unavailable, message: "\(error)")
        }
    }

    /// An error about the database at `path`.
    public init(path: String, kind: Kind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }
}

/// The SQLite file that keeps each user's vocabulary sets and donations across launches
/// (GRDB). One file serves many users; every row belongs to one user, and nothing one user's
/// store does reads or changes another's rows.
///
/// - WAL journal; `secure_delete` on, and a truncating checkpoint after every write, so that a
///   removed phrase or a deleted donation is overwritten in the database and gone from the
///   `-wal` file before the call that removed it returns.
/// - Opening checks the file (SQLite's quick_check): a damaged or foreign file is a
///   `StoreError` of kind `corrupt`, and the file is left as it is.
/// - A write that fails (the file locked past `busyTimeout`, a full disk) throws and changes
///   nothing: neither the file nor the store in memory.
public final class UserDatabase: Sendable {
    /// The file, as given.
    public let path: String
    let queue: DatabaseQueue

    /// Opens (or creates) the database at `path` and brings its tables up to date.
    /// `busyTimeout`: how long a write waits for another connection's lock, in seconds.
    public init(path: String, busyTimeout: Double = 5) throws(StoreError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard check == ["ok"] else {
                    throw StoreError(path: path, kind: .corrupt, message: check.prefix(3).joined(separator: "; "))
                }
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            try Self.migrator.migrate(queue)
        } catch {
            throw StoreError(path: path, error)
        }
    }

    /// The tables, one migration per change of schema (never edited once released).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, apps, vocabulary sets, donations") { db in
            // A user row says the user's sets live here: the context's user vocabulary and
            // donations seed it once, and what the user removes stays removed.
            try db.execute(
                sql: """
                    CREATE TABLE user (id TEXT PRIMARY KEY NOT NULL);
                    CREATE TABLE app (
                        user TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        PRIMARY KEY (user, name));
                    CREATE TABLE vocabularySet (
                        user TEXT NOT NULL, app TEXT NOT NULL, type TEXT NOT NULL,
                        PRIMARY KEY (user, app, type),
                        FOREIGN KEY (user, app) REFERENCES app(user, name) ON DELETE CASCADE);
                    CREATE TABLE vocabularyItem (
                        user TEXT NOT NULL, app TEXT NOT NULL, type TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        id TEXT NOT NULL, phrase TEXT NOT NULL,
                        pronunciation TEXT, nickname TEXT, relationship TEXT,
                        PRIMARY KEY (user, app, type, position),
                        FOREIGN KEY (user, app, type) REFERENCES vocabularySet(user, app, type) ON DELETE CASCADE);
                    CREATE TABLE donation (
                        user TEXT NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        id TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        body TEXT NOT NULL,
                        PRIMARY KEY (user, id));
                    """)
        }
        return migrator
    }

    /// Runs `body` in one transaction, then checkpoints the WAL into the database and truncates
    /// it, so that what `body` deleted is nowhere in the files when this returns.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            let result = try queue.write(body)
            try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            return result
        } catch {
            throw StoreError(path: path, error)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try queue.read(body) } catch { throw StoreError(path: path, error) }
    }

    // MARK: - Users

    /// Makes the user's rows on first use: the context's user vocabulary and donations seed
    /// them, once; from then on the database is what the user has (what they remove stays
    /// removed when the context is read again).
    func ensureUser(_ user: String, context: ParserContext?) throws(StoreError) {
        let known = try read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ?", arguments: [user]) ?? false }
        guard !known else { return }
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ?", arguments: [user]) != true else { return }
            try db.execute(sql: "INSERT INTO user (id) VALUES (?)", arguments: [user])
            for app in context?.apps ?? [] {
                for (type, items) in app.userVocabulary.sorted(by: { $0.key < $1.key }) {
                    try Self.replaceSet(db, user: user, app: app.name, type: type, items: items)
                }
            }
            for donation in context?.donations ?? [] { try Self.record(db, user: user, donation: donation) }
        }
    }

    /// Removes a user and every row of theirs (vocabulary and donations).
    public func removeUser(_ user: String) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [user]) }
    }

    /// The users that have rows, sorted.
    public func users() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT id FROM user ORDER BY id") }
    }

    // MARK: - Vocabulary

    static func replaceSet(_ db: Database, user: String, app: String, type: String, items: [VocabularyItem]) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO app (user, name) VALUES (?, ?)", arguments: [user, app])
        try db.execute(sql: "DELETE FROM vocabularySet WHERE user = ? AND app = ? AND type = ?", arguments: [user, app, type])
        try db.execute(sql: "INSERT INTO vocabularySet (user, app, type) VALUES (?, ?, ?)", arguments: [user, app, type])
        for (position, item) in items.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO vocabularyItem (user, app, type, position, id, phrase, pronunciation, nickname, relationship)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [user, app, type, position, item.id, item.phrase, item.pronunciation, item.nickname, item.relationship])
        }
    }

    static func removeSets(_ db: Database, user: String, app: String, type: String?) throws {
        if let type {
            try db.execute(sql: "DELETE FROM vocabularySet WHERE user = ? AND app = ? AND type = ?", arguments: [user, app, type])
        } else {
            try db.execute(sql: "DELETE FROM vocabularySet WHERE user = ? AND app = ?", arguments: [user, app])
        }
    }

    /// A user's sets: (app, type) → items in priority order; apps in the order first stored.
    func sets(user: String) throws(StoreError) -> [(app: String, type: String, items: [VocabularyItem])] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.app, s.type, i.id, i.phrase, i.pronunciation, i.nickname, i.relationship
                    FROM vocabularySet s
                    JOIN app a ON a.user = s.user AND a.name = s.app
                    LEFT JOIN vocabularyItem i ON i.user = s.user AND i.app = s.app AND i.type = s.type
                    WHERE s.user = ?
                    ORDER BY a.rowid, s.type, i.position
                    """,
                arguments: [user])
            var result: [(app: String, type: String, items: [VocabularyItem])] = []
            for row in rows {
                let app: String = row["app"]
                let type: String = row["type"]
                if result.last?.app != app || result.last?.type != type { result.append((app, type, [])) }
                if let id: String = row["id"], let phrase: String = row["phrase"] {
                    result[result.count - 1].items.append(
                        VocabularyItem(
                            id: id, phrase: phrase, pronunciation: row["pronunciation"], nickname: row["nickname"],
                            relationship: row["relationship"]))
                }
            }
            return result
        }
    }

    // MARK: - Donations

    static func record(_ db: Database, user: String, donation: Donation) throws {
        let body = String(decoding: try JSONEncoder().encode(donation), as: UTF8.self)
        let next = (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM donation WHERE user = ?", arguments: [user]) ?? -1) + 1
        try db.execute(sql: "DELETE FROM donation WHERE user = ? AND id = ?", arguments: [user, donation.id])
        try db.execute(
            sql: "INSERT INTO donation (user, id, position, body) VALUES (?, ?, ?, ?)", arguments: [user, donation.id, next, body])
    }

    func donations(user: String) throws(StoreError) -> [Donation] {
        let bodies = try read { db in
            try String.fetchAll(db, sql: "SELECT body FROM donation WHERE user = ? ORDER BY position", arguments: [user])
        }
        do {
            return try bodies.map { try JSONDecoder().decode(Donation.self, from: Data($0.utf8)) }
        } catch {
            throw StoreError(path: path, kind: .corrupt, message: "a stored donation cannot be read: \(error)")
        }
    }
}
