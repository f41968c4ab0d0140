import Foundation
import FuzzSupport
import Parlance

/// What every input shares (static: made on first use, whichever `main` runs).
enum State {
    static let parser = try! ResolvingParser(context: .demo)
    static let lines = ResolveLineProcessor(
        resolver: parser.resolver, defaultLocale: "en-US", defaultApp: "MonkeyChat", defaultType: nil, explain: true)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = input(bytes, size)
    if data.first.map({ $0 & 1 == 0 }) ?? true {
        _ = State.lines.process([UInt8](data.dropFirst()))
    } else {
        let (locale, text) = localeAndText(data.dropFirst())
        _ = try? State.parser.parse(text, locale: locale, referenceTime: fuzzTime)
    }
    return 0
}
