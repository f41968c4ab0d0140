import Foundation
import FuzzSupport
import Parlance

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    let log = DonationLog(ParserContext.demo.donations)
    try? log.replay(String(decoding: data, as: UTF8.self), file: "journal.jsonl", context: .demo)
    _ = log.weight(app: "MonkeyChat", intent: "sendMessage", at: 1_764_000_000)
    return 0
}
