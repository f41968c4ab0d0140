import Parlance

/// Vocabularies of people's names mixing languages and scripts, generated from a fixed seed
/// (nothing downloaded): Latin names from several languages with accents, hyphens and
/// particles, Chinese (hanzi), Japanese (kana), Russian (Cyrillic) and Greek names.
public enum GeneratedNames {
    static let first = [
        "Ana", "Bobo", "José", "María", "Jean-Pierre", "Chloé", "Jürgen", "Giovanni", "João", "Wei", "Sakura", "Dmitri",
        "Íñigo", "Siobhán", "Zoë", "Mary-Ann", "Lee", "Leigh", "Marc", "Mark", "Inés", "Beatriz", "Vicente", "Yolanda",
        "Renaud", "Sean", "Katherine", "Catherine", "Luis", "Lucía", "François", "Émilie", "Björn", "Søren", "Łukasz",
        "Agnieszka", "Mehmet", "Ayşe", "Nguyễn", "Priya", "Arjun", "Oluwaseun", "Kwame", "Fatima", "Omar", "Hana", "Yuki",
        "Kenji", "Min-jun", "Seo-yeon", "Thiago", "Gabriela", "Matteo", "Giulia", "Lukas", "Lena", "Noah", "Emma", "Liam",
        "Olivia", "Mateo", "Valentina", "Hugo", "Léa", "Paul", "Marie", "Jakob", "Anna", "Pedro", "Carmen", "Aoife", "Cian"
    ]
    static let syllables = [
        "ba", "bo", "ca", "del", "er", "fa", "ga", "gon", "ha", "ka", "lan", "le", "ma", "mor", "na", "no", "ol",
        "pa", "per", "qui", "ra", "ri", "ros", "sa", "san", "ta", "to", "tor", "va", "vi", "wal", "xe", "yo", "za",
        "zu", "ber", "chen", "dorf", "mann", "ez", "ini", "ov", "sky", "son", "ton", "ville", "eau", "ier"
    ]
    static let hanzi = Array(
        "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂")
    static let kana = Array("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわん")
    static let cyrillicFirst = ["Дмитрий", "Анна", "Сергей", "Ольга", "Иван", "Наталья", "Алексей", "Елена"]
    static let cyrillicLast = ["Петров", "Иванова", "Смирнов", "Кузнецова", "Попов", "Соколова", "Лебедев", "Козлова"]
    static let greek = ["Νίκος Παπαδόπουλος", "Μαρία Γεωργίου", "Γιώργος Νικολάου", "Ελένη Δημητρίου"]

    /// `count` items with ids "n0", "n1", …; the same seed gives the same names.
    public static func items(_ count: Int, seed: UInt64 = 42) -> [VocabularyItem] {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        func surname() -> String {
            var s = ""
            for _ in 0..<(2 + Int(random.next() % 2)) { s += pick(syllables) }
            return s.prefix(1).uppercased() + s.dropFirst()
        }
        return (0..<count).map { n in
            let roll = random.next() % 100
            let phrase: String
            switch roll {
            case 0..<8: phrase = String([pick(hanzi), pick(hanzi)] + (random.next() % 2 == 0 ? [pick(hanzi)] : []))
            case 8..<12: phrase = String((0..<(3 + Int(random.next() % 3))).map { _ in pick(kana) })
            case 12..<16: phrase = pick(cyrillicFirst) + " " + pick(cyrillicLast)
            case 16..<18: phrase = pick(greek)
            case 18..<30: phrase = pick(first) + " " + surname() + " " + surname()
            default: phrase = pick(first) + " " + surname()
            }
            return VocabularyItem(id: "n\(n)", phrase: phrase)
        }
    }

    /// Queries as people say them: exact names, lowercase without accents, one letter off,
    /// first or last name alone, and names that are not there.
    public static func queries(from items: [VocabularyItem], count: Int, seed: UInt64 = 7) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let item = items[Int(random.next() % UInt64(items.count))].phrase
            let words = item.split(separator: " ").map(String.init)
            switch random.next() % 10 {
            case 0..<4: return item
            case 4: return TextNormalizer.latin(item)
            case 5, 6:
                var letters = Array(item)
                let at = Int(random.next() % UInt64(letters.count))
                if letters[at].isLetter { letters[at] = "e" }
                return String(letters)
            case 7, 8: return words.count > 1 ? words[Int(random.next() % UInt64(words.count))] : item
            default: return "Zyx" + String(random.next() % 1000) + " Qwerty"
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
