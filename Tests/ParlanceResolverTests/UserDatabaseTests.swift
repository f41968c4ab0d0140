import Foundation
import GRDB
import Parlance
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// The users' database: what a user has outlasts the process, what they remove is gone from
/// the files, one user never changes another's results, and a damaged or locked file is a
/// clear error that loses nothing.
@Suite struct UserDatabaseTests {
    static let reference = try! ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")

    /// A fresh folder for one test's database files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The list the user's request lands in, as parsing and resolution both see it, or nil.
    static func list(_ request: String, _ store: VocabularyStore) throws -> String? {
        let chain = try ResolvingParser(context: try Support.jotter(), store: store)
        let result = try chain.parse(request, locale: Support.en, referenceTime: reference)
        guard let list = result.intent?.values("targetTaskList").first, list.resolution?.kind == .success else { return nil }
        return list.resolution?.items.first?.id
    }

    @Test func whatTheUserHasOutlastsTheProcess() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("users.sqlite").path
        do {
            let store = try VocabularyStore(path: path, user: "ana", context: try Support.jotter())
            // Seeded once from the context.
            #expect(store.userVocabulary(app: "Jotter", type: "notebookItemTitle").map(\.id) == ["l1"])
            try store.setUserVocabulary(
                [VocabularyItem("l2", "Attic"), VocabularyItem("l1", "Rainy Day")], app: "Jotter", type: "notebookItemTitle")
        }
        // A new process: a new database object over the same file.
        let reopened = try VocabularyStore(path: path, user: "ana", context: try Support.jotter())
        #expect(reopened.userVocabulary(app: "Jotter", type: "notebookItemTitle").map(\.id) == ["l2", "l1"])
        #expect(try Self.list("add Tom Waits to attic", reopened) == "l2")

        // Sign-out stays signed out: the context does not seed the user again.
        try reopened.removeAllUserVocabulary(app: "Jotter")
        let again = try VocabularyStore(path: path, user: "ana", context: try Support.jotter())
        #expect(again.userVocabulary(app: "Jotter", type: "notebookItemTitle").isEmpty)
        #expect(try Self.list("add Tom Waits to rainy day", again) == nil)
    }

    @Test func removedPhrasesAndDeletedDonationsLeaveNoBytesOnDisk() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("users.sqlite").path
        let database = try UserDatabase(path: path)
        let store = try VocabularyStore(database: database, user: "ana", context: try Support.jotter())
        let log = try DonationLog(database: database, user: "ana")
        let secret = "Zorblatt Quinvexa"
        let note = "Plumvex Ardentine"
        try store.setUserVocabulary(
            [VocabularyItem("l1", "Rainy Day"), VocabularyItem("s1", secret)], app: "Jotter", type: "notebookItemTitle")
        try log.record(
            Donation(
                id: "d1", group: "g", app: "Jotter", intent: "createNote", parameters: ["content": .text(note)], date: Self.reference))
        func files() throws -> [String: Data] {
            var found: [String: Data] = [:]
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                found[suffix] = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
            }
            return found
        }
        func said(_ phrase: String) throws -> [String] {
            try files().filter { $0.value.range(of: Data(phrase.utf8)) != nil }.map { "users.sqlite" + $0.key }.sorted()
        }
        // Stored: the bytes are there to be removed.
        #expect(try !said(secret).isEmpty)
        #expect(try !said(note).isEmpty)

        try store.removeUserVocabulary(ids: ["s1"], app: "Jotter", type: "notebookItemTitle")
        try log.delete(ids: ["d1"])
        // Before anything else runs: gone from the database, its WAL and its shared memory.
        #expect(try said(secret) == [], "the removed phrase is still on disk")
        #expect(try said(note) == [], "the deleted donation is still on disk")
        #expect(try !said("Rainy Day").isEmpty)
        #expect(store.userVocabulary(app: "Jotter", type: "notebookItemTitle").map(\.id) == ["l1"])
        #expect(log.all.isEmpty)
    }

    @Test func oneUserNeverChangesAnothersResults() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try UserDatabase(path: folder.appendingPathComponent("users.sqlite").path)
        let ana = try VocabularyStore(database: database, user: "ana", context: try Support.jotter())
        let ben = try VocabularyStore(database: database, user: "ben", context: try Support.jotter())
        try ana.removeAllUserVocabulary(app: "Jotter")
        try ana.setUserVocabulary([VocabularyItem("a1", "Attic")], app: "Jotter", type: "notebookItemTitle")
        let anaDonations = try DonationLog(database: database, user: "ana")
        try anaDonations.record(
            Donation(id: "d1", group: nil, app: "Jotter", intent: "createNote", parameters: [:], date: Self.reference))

        #expect(try Self.list("add Tom Waits to rainy day", ben) == "l1")
        #expect(try Self.list("add Tom Waits to attic", ben) == nil)
        #expect(try Self.list("add Tom Waits to attic", ana) == "a1")
        // Read again from the file: still each their own.
        let benAgain = try VocabularyStore(database: database, user: "ben", context: try Support.jotter())
        #expect(benAgain.userVocabulary(app: "Jotter", type: "notebookItemTitle").map(\.id) == ["l1"])
        #expect(try DonationLog(database: database, user: "ben").all.isEmpty)
        #expect(try DonationLog(database: database, user: "ana").all.map(\.id) == ["d1"])
        #expect(try database.users() == ["ana", "ben"])
    }

    @Test func aDamagedFileIsAClearErrorAndIsLeftAsItIs() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Not a database at all.
        let foreign = folder.appendingPathComponent("notes.sqlite")
        let text = Data(String(repeating: "these are my notes, not a database\n", count: 200).utf8)
        try text.write(to: foreign)
        #expect {
            _ = try UserDatabase(path: foreign.path)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .corrupt && error.description.contains(foreign.path)
        }
        #expect(try Data(contentsOf: foreign) == text)

        // A real database whose pages were damaged afterwards.
        let damaged = folder.appendingPathComponent("users.sqlite").path
        do {
            let store = try VocabularyStore(path: damaged, user: "ana", context: try Support.jotter())
            try store.setUserVocabulary(
                (0..<300).map { VocabularyItem("n\($0)", "Name number \($0) of a long list") }, app: "Jotter", type: "notebookItemTitle")
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        #expect(bytes.count > 8192)
        for i in 4096..<(bytes.count - 100) where i % 7 == 0 { bytes[i] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: damaged))
        #expect {
            _ = try VocabularyStore(path: damaged, user: "ana")
        } throws: { error in (error as? StoreError)?.kind == .corrupt }
        #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == bytes)
    }

    @Test func aLockedDatabaseIsAClearErrorAndLosesNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("users.sqlite").path
        let database = try UserDatabase(path: path, busyTimeout: 0.2)
        let store = try VocabularyStore(database: database, user: "ana", context: try Support.jotter())
        // Another connection (another process, say) holds the file locked.
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true  // the lock outlasts the call that takes it
        let other = try DatabaseQueue(path: path, configuration: holding)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        #expect {
            try store.setUserVocabulary([VocabularyItem("l9", "Garage")], app: "Jotter", type: "notebookItemTitle")
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.kind == .locked && error.description.contains("locked")
        }
        // Nothing changed, in memory or on disk.
        #expect(store.userVocabulary(app: "Jotter", type: "notebookItemTitle").map(\.id) == ["l1"])
        try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        let reopened = try VocabularyStore(path: path, user: "ana")
        #expect(reopened.userVocabulary(app: "Jotter", type: "notebookItemTitle").map(\.id) == ["l1"])
        // Once the lock is gone, the same update goes through.
        try store.setUserVocabulary([VocabularyItem("l9", "Garage")], app: "Jotter", type: "notebookItemTitle")
        #expect(try VocabularyStore(path: path, user: "ana").userVocabulary(app: "Jotter", type: "notebookItemTitle").map(\.id) == ["l9"])
    }
}
