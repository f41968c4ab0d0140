import Foundation
import Parlance
import ParlanceICU

/// Every user the server has seen, each with their own vocabulary store and donation log (in
/// the users' database when there is one) and a parser and resolver over them. Users of the
/// context share its compiled grammars and trained tiers.
final class Users: Sendable {
    /// What one user is parsed and resolved with.
    struct User: Sendable {
        let chain: ResolvingParser
        let store: VocabularyStore
        let donations: DonationLog
    }

    let context: ParserContext
    let database: UserDatabase?
    /// The parser whose grammars every user's parser shares.
    private let shared: IntentParser
    private let users = Locked<[String: User]>([:])

    init(context: ParserContext, database: UserDatabase?) throws {
        self.context = context
        self.database = database
        shared = try IntentParser(context: context)
    }

    /// A user id as a path segment or query parameter may give it: 1 to 128 letters, digits,
    /// '-', '_', '.' or '@'.
    static func valid(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 128
            && id.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.@".unicodeScalars.contains($0) }
    }

    /// The user `id` of `tenant`, made on first use (read from the database when there is one).
    func user(_ id: String, tenant: String) throws(StoreError) -> User {
        let key = "\(tenant)/\(id)"
        if let known = users.withLock({ $0[key] }) { return known }
        let store: VocabularyStore
        let donations: DonationLog
        if let database {
            store = try VocabularyStore(database: database, user: key, context: context)
            donations = try DonationLog(database: database, user: key, context: context)
        } else {
            store = VocabularyStore(context: context)
            donations = DonationLog(context.donations)
        }
        let made: User
        do {
            let parser = try IntentParser(sharingGrammarsOf: shared, vocabulary: store, donations: donations)
            made = User(
                chain: ResolvingParser(parser: parser, resolver: Resolver(context: context, store: store, donations: donations)),
                store: store, donations: donations)
        } catch {
            throw StoreError(path: database?.path ?? "memory", kind: .unavailable, message: "cannot make the user's parser: \(error)")
        }
        return users.withLock { users in
            if let existing = users[key] { return existing }
            users[key] = made
            return made
        }
    }

    /// How many users are loaded.
    var count: Int { users.withLock { $0.count } }
}
