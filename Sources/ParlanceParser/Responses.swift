import Foundation
import ParlanceContext
import ParlanceICU
import ParlanceText

/// The value of a property of a custom intent's response. `CustomIntent.render(code:properties:locale:)`
/// renders the response in the user's language with ICU MessageFormat (plurals, numbers,
/// currencies): "Tu sopa de tomate estará lista en 10 minutos".
public enum ResponseValue: Sendable, Hashable {
    /// Text; an enum parameter's case id is said by its name in the language ("tomato" → "tomate").
    case string(String)
    /// A number, formatted (and pluralized) by the template.
    case number(Double)
}

extension CustomIntent {
    /// Why a response cannot be rendered: the intent has no such response code, the code has no
    /// template in the language, or ICU cannot format the template.
    public struct ResponseError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the intent, the response code and, when it applies, the language.
        public let message: String
        /// The message.
        public var description: String { message }
    }

    /// Renders the template of `code` for the locale's language. Properties that name an enum
    /// parameter's case ("tomato") are said in that language ("tomate").
    public func render(code: String, properties: [String: ResponseValue], locale: ParlanceLocale) throws(ResponseError) -> String {
        guard let response = responses[code] else {
            throw ResponseError(message: "\(name) has no response '\(code)' (it has \(responses.keys.sorted().joined(separator: ", ")))")
        }
        guard let template = response.templates[locale.language] else {
            throw ResponseError(
                message:
                    "\(name) response '\(code)' has no \(locale.language) template (it has \(response.templates.keys.sorted().joined(separator: ", ")))"
            )
        }
        var arguments: [String: MessageFormat.Argument] = [:]
        for (key, value) in properties {
            switch value {
            case .number(let n): arguments[key] = .number(n)
            case .string(let s):
                if let parameter = parameter(key), parameter.type == .enum {
                    arguments[key] = .string(parameter.caseName(s, language: locale.language))
                } else {
                    arguments[key] = .string(s)
                }
            }
        }
        do {
            return try MessageFormat.format(
                template, locale: locale.identifier.replacingOccurrences(of: "-", with: "_"), arguments: arguments)
        } catch {
            throw ResponseError(message: "\(name) response '\(code)' (\(locale.language)): \(error)")
        }
    }
}
