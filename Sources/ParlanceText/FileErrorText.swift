import Foundation

/// A file error in words: the system's reason ("Not a directory", "No space left on
/// device") and the path, rather than Foundation's "The operation could not be completed".
public enum FileErrorText {
    /// The error's reason in words, followed by the file's path in parentheses when the error names one ("No such file
    /// or directory (/tmp/x.json)"); for an error with no underlying system error, its own description without
    /// Foundation's generic opening.
    public static func describe(_ error: Error) -> String {
        let ns = error as NSError
        let path = ns.userInfo[NSFilePathErrorKey] as? String
        if let underlying = (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }) {
            return plain(underlying.localizedDescription) + (path.map { " (\($0))" } ?? "")
        }
        return plain(ns.localizedDescription)
    }

    /// Foundation on Linux puts "The operation could not be completed. " before the reason.
    private static func plain(_ message: String) -> String {
        let generic = "The operation could not be completed. "
        return message.hasPrefix(generic) && message.count > generic.count ? String(message.dropFirst(generic.count)) : message
    }
}
