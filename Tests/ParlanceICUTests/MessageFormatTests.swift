import Testing

@testable import ParlanceICU

@Suite struct MessageFormatTests {
    static let soupEN =
        "Your {quantity, plural, one {{soup} soup} other {# {soup} soups}} will be ready in {waitTime, plural, one {# minute} other {# minutes}}."
    static let soupES =
        "Tu {quantity, plural, one {sopa de {soup}} other {# sopas de {soup}}} estará{quantity, plural, one {} other {n}} lista{quantity, plural, one {} other {s}} en {waitTime, plural, one {# minuto} other {# minutos}}."

    @Test func pluralsFollowTheLocale() throws {
        #expect(
            try MessageFormat.format(
                Self.soupEN, locale: "en_US", arguments: ["quantity": .number(2), "soup": .string("tomato"), "waitTime": .number(1)])
                == "Your 2 tomato soups will be ready in 1 minute.")
        #expect(
            try MessageFormat.format(
                Self.soupES, locale: "es_ES", arguments: ["quantity": .number(1), "soup": .string("tomate"), "waitTime": .number(10)])
                == "Tu sopa de tomate estará lista en 10 minutos.")
        // French "one" covers 0 and 1; English does not.
        let fr = "{n, plural, one {# minute} other {# minutes}}"
        #expect(try MessageFormat.format(fr, locale: "fr_FR", arguments: ["n": .number(0)]) == "0 minute")
        #expect(try MessageFormat.format(fr, locale: "en_US", arguments: ["n": .number(0)]) == "0 minutes")
    }

    @Test func numbersAndCurrenciesUseTheLocaleFormats() throws {
        #expect(
            try MessageFormat.format("{total, number, currency}", locale: "de_DE@currency=EUR", arguments: ["total": .number(1234.5)])
                == "1.234,50\u{A0}€")
        #expect(try MessageFormat.format("{n, number}", locale: "fr_FR", arguments: ["n": .number(12345.5)]) == "12\u{202F}345,5")
    }

    @Test func aBadPatternSaysWhere() {
        #expect { try MessageFormat.format("Your {quantity, plural, one {soup}", locale: "en_US", arguments: [:]) } throws: { error in
            "\(error)".hasPrefix("bad message pattern at offset")
        }
    }
}
