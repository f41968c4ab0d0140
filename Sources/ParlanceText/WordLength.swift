/// The longest word the stages after the tokenizer read whole: 64 scalars. No word of any
/// grammar, vocabulary, model or name is longer (German compounds stay under it), and some
/// stages cost the square of a word's length (ICU's rule-based transliteration) or compare a
/// word with every entry of a list, so a pasted or fuzzed "word" of 60,000 letters, digits or
/// combining marks is read as its first 64 scalars (issue 17).
public enum WordLength {
    /// The limit, in Unicode scalars.
    public static let longest = 64

    /// `word`'s first `longest` scalars, or nil when it has no more (a short word costs a byte
    /// count, nothing else).
    public static func cut(_ word: String) -> String? {
        guard word.utf8.count > longest else { return nil }
        let scalars = word.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: longest, limitedBy: scalars.endIndex), end != scalars.endIndex else {
            return nil
        }
        return String(scalars[..<end])
    }
}
