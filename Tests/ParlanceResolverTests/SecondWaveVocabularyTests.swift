import Foundation
import Parlance
import ParlanceText
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceResolver

/// The second wave's vocabulary types (issue 13: SiriKit's notebookItemTitle, notebookItemGroupName,
/// paymentsOrganizationName, paymentsAccountNickname) resolve like contacts, with every kind of
/// answer.
@Suite struct SecondWaveVocabularyTests {
    static let context: ParserContext = {
        let json = """
            {"apps": [
              {"name": "MonkeyBank", "intents": ["payBill", "searchForBills", "transferMoney", "searchForAccounts"],
               "unusedParameters": ["payBill.fromAccount"],
               "userVocabulary": {
                 "paymentsOrganizationName": ["Banana Power", "Endesa", "Jungle Telecom", "Jungle Water"],
                 "paymentsAccountNickname": ["Savings", "Checking", "Holiday fund", "House fund"]}},
              {"name": "MonkeyNotes", "intents": ["createNote", "appendToNote", "addTasks", "createTaskList",
                 "searchForNotebookItems", "setTaskAttribute", "deleteTasks"],
               "userVocabulary": {
                 "notebookItemTitle": ["Shopping list", "Packing list", "Banana recipes", "Trip to Lisbon"],
                 "notebookItemGroupName": ["Work", "Home", "Jungle"]}}
            ]}
            """
        return try! ParserContext.decode(Data(json.utf8), file: "second-wave test context")
    }()
    static let resolver = Resolver(context: context)

    static func resolve(_ said: String, _ app: String, _ type: String) throws -> Resolution {
        try resolver.resolve(said, app: app, type: type, locale: Support.en).resolution
    }

    @Test(arguments: [
        ("Endesa", "MonkeyBank", "paymentsOrganizationName", "Endesa"),
        ("holiday fund", "MonkeyBank", "paymentsAccountNickname", "Holiday fund"),
        ("Banana recipes", "MonkeyNotes", "notebookItemTitle", "Banana recipes"),
        ("work", "MonkeyNotes", "notebookItemGroupName", "Work")
    ])
    func theWholeNameIsThatItem(said: String, app: String, type: String, id: String) throws {
        let r = try Self.resolve(said, app, type)
        #expect(r.kind == .success)
        #expect(Support.ids(r) == [id])
    }

    @Test(arguments: [
        ("Endessa", "MonkeyBank", "paymentsOrganizationName", "Endesa"),
        ("Holliday fund", "MonkeyBank", "paymentsAccountNickname", "Holiday fund"),
        ("Banana recipies", "MonkeyNotes", "notebookItemTitle", "Banana recipes"),
        ("Jungel", "MonkeyNotes", "notebookItemGroupName", "Jungle")
    ])
    func aSlipIsConfirmed(said: String, app: String, type: String, id: String) throws {
        let r = try Self.resolve(said, app, type)
        #expect(r.kind == .confirmationRequired)
        #expect(Support.ids(r) == [id])
    }

    @Test func aWordTwoItemsShareAsksWhichOne() throws {
        let payee = try Self.resolve("Jungle", "MonkeyBank", "paymentsOrganizationName")
        #expect(payee.kind == .disambiguation)
        #expect(Set(Support.ids(payee)) == ["Jungle Telecom", "Jungle Water"])
        let account = try Self.resolve("fund", "MonkeyBank", "paymentsAccountNickname")
        #expect(account.kind == .disambiguation)
        #expect(Set(Support.ids(account)) == ["Holiday fund", "House fund"])
        let list = try Self.resolve("list", "MonkeyNotes", "notebookItemTitle")
        #expect(list.kind == .disambiguation)
        #expect(Set(Support.ids(list)) == ["Shopping list", "Packing list"])
    }

    @Test func tooManyNeedMoreDetails() throws {
        let lists = (0..<30).map { VocabularyItem("list-\($0)", "Groceries \(String(UnicodeScalar(UInt8(65 + $0 % 26))))\($0)") }
        let resolver = Resolver(
            context: try Support.context(app: "MonkeyNotes", contacts: lists, type: "notebookItemTitle", intents: ["addTasks"]))
        let r = try resolver.resolve("Groceries", app: "MonkeyNotes", type: "notebookItemTitle", locale: Support.en).resolution
        #expect(r.kind == .needsMoreDetails)
        #expect(r.items.isEmpty)
    }

    @Test(arguments: [
        ("Iberdrola", "MonkeyBank", "paymentsOrganizationName"),
        ("brokerage", "MonkeyBank", "paymentsAccountNickname"),
        ("Wedding plans", "MonkeyNotes", "notebookItemTitle"),
        ("Garage", "MonkeyNotes", "notebookItemGroupName")
    ])
    func nothingCloseIsUnsupported(said: String, app: String, type: String) throws {
        #expect(try Self.resolve(said, app, type).kind == .unsupported)
    }

    @Test func parsedRequestsCarryTheirResolutions() throws {
        let parser = try ResolvingParser(context: Self.context)
        let time = try ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
        // A transfer with no account to put the money in: the required toAccount needs a value.
        let transfer = try parser.parse("Move 50 dollars from the Holiday fund with MonkeyBank", locale: Support.en, referenceTime: time)
        #expect(transfer.intent?.name == "transferMoney")
        #expect(transfer.intent?.values("fromAccount").first?.resolution?.kind == .success)
        #expect(transfer.intent?.missing.map(\.name) == ["toAccount"])
        #expect(transfer.intent?.missing.first?.resolution.kind == .needsValue)
        // MonkeyBank does not use payBill's fromAccount: the value is not required.
        let bill = try parser.parse("Pay the Endesa bill from Savings with MonkeyBank", locale: Support.en, referenceTime: time)
        #expect(bill.intent?.name == "payBill")
        #expect(bill.intent?.values("billPayee").first?.resolution?.kind == .success)
        #expect(bill.intent?.values("fromAccount").first?.resolution?.kind == .notRequired)
    }
}
