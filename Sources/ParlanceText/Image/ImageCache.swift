import Foundation
import ParlanceICU

/// Compiled images of a language's built data (its grammar's automata and lexicons), kept on
/// disk so that a start reads one file instead of parsing and compiling the sources again.
///
/// An image is keyed by a hash of everything it is built from: the source files' names and
/// bytes, the format's version, ICU's version and the build of the program itself (the
/// executable's size and modification time: a rebuilt program never trusts an image an
/// earlier build wrote). A file whose key differs is never read; one whose header or
/// checksum does not hold, or that cannot be read to its end, is built again and replaced. A
/// folder that cannot be written leaves the value built in memory, as before.
///
/// Where: `PARLANCE_CACHE_DIR`, else `$XDG_CACHE_HOME/parlance`, else `~/.cache/parlance`.
/// `PARLANCE_CACHE_DIR=off` turns the cache off (every start builds from the sources).
/// `parlance compile` makes the images ahead of the first parse.
package enum ImageCache {
    /// How many bytes the checksum reads before handing them back (`MappedFile.release`): a
    /// few pages, so that at no time is more than this of an image resident for the check.
    static let releaseStretch = 1 << 20

    /// The layout's version: bumped whenever any `ImageCodable` layout changes.
    package static let formatVersion = 7
    static let magic: [UInt8] = Array("PARLANCE-IMAGE\n\0".utf8)

    /// The folder images are kept in; nil when the cache is off.
    package static var directory: URL? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["PARLANCE_CACHE_DIR"], !chosen.isEmpty {
            return chosen == "off" ? nil : URL(fileURLWithPath: chosen)
        }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("parlance")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/parlance")
        }
        return nil
    }

    /// What tells one build of the program from another: the executable's size and
    /// modification time, read once.
    static let buildIdentity: String = {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path)|\(size)|\(modified)"
    }()

    /// How an image came to be: read from the cache, or built (and then written, or not).
    package enum Origin: String, Sendable {
        case read, built, rebuilt
    }

    /// The image of `kind` for `language`, read from the cache when one matches `sources`
    /// (the files it is built from, in a fixed order), else built by `build` and written.
    package static func load<T: ImageCodable>(
        _ kind: String, language: String, variant: String? = nil, sources: [URL], extra: String = "", in folder: URL?? = .none,
        build: () throws -> T
    ) throws -> (value: T, origin: Origin, file: URL?) {
        guard let directory = folder ?? directory, let key = try? key(kind: kind, sources: sources, extra: extra) else {
            return (try build(), .built, nil)
        }
        let file = directory.appendingPathComponent("\(kind)-\(language)-\(variant.map { "\($0)-" } ?? "")\(key).image")
        var damaged = false
        if let mapped = MappedFile(file) {
            do {
                return (try decode(T.self, from: mapped.data, release: mapped.release), .read, file)
            } catch {
                damaged = true
            }
        }
        let value = try build()
        let written = write(value, to: file)
        return (value, damaged ? .rebuilt : .built, written ? file : nil)
    }

    /// A short name for a variant of an image (what `text` says), for its file name.
    package static func variant(of text: String) -> String { String(ImageHash.hex(text).prefix(8)) }

    /// The cache key: a hash of the format, ICU's version, the program's build, and each
    /// source's name and bytes. Throws when a source cannot be read (the caller then builds
    /// without the cache, and reports the source's own error).
    static func key(kind: String, sources: [URL], extra: String) throws -> String {
        var hasher = ImageHash()
        hasher.combine(Array("\(kind)|\(formatVersion)|\(icuVersion)|\(buildIdentity)|\(extra)".utf8))
        for source in sources {
            hasher.combine(Array(source.lastPathComponent.utf8))
            // Mapped and handed back as it is read (a model file is megabytes): no copy.
            if let mapped = MappedFile(source) {
                mapped.data.withUnsafeBytes { hasher.combine($0, every: ImageCache.releaseStretch, mapped.release) }
            } else {
                hasher.combine(Array(try Data(contentsOf: source)))
            }
        }
        return String(hasher.value, radix: 16)
    }

    /// The bytes of an image file: the magic, the format's version, the payload's length and
    /// checksum, the payload.
    package static func encode<T: ImageCodable>(_ value: T) -> [UInt8] {
        var payload = ImageWriter()
        value.write(to: &payload)
        var file = ImageWriter()
        for byte in magic { file.write(byte) }
        file.write(formatVersion)
        file.write(payload.bytes.count)
        var hasher = ImageHash()
        hasher.combine(payload.bytes)
        file.write(Int(Int64(bitPattern: hasher.value)))
        return file.bytes + payload.bytes
    }

    /// Reads an image file's bytes; throws `ImageError` on any damage. `release`, when given,
    /// is told each stretch of bytes the checksum has read (`MappedFile.release`).
    package static func decode<T: ImageCodable>(_: T.Type, from data: Data, release: ((UnsafeRawBufferPointer) -> Void)? = nil)
        throws(ImageError) -> T
    {
        let result: Result<T, ImageError> = data.withUnsafeBytes { raw in
            do throws(ImageError) {
                var header = ImageReader(raw)
                for byte in magic where try header.read(UInt8.self) != byte { throw ImageError("not a Parlance image") }
                guard try header.read() == formatVersion else { throw ImageError("an image of another format version") }
                let length = try header.read()
                let checksum = UInt64(bitPattern: Int64(try header.read()))
                let start = magic.count + 24
                guard length == raw.count - start else { throw ImageError("the image's length does not hold") }
                let payload = UnsafeRawBufferPointer(rebasing: raw[start...])
                var hasher = ImageHash()
                hasher.combine(payload, every: ImageCache.releaseStretch) { release?($0) }
                guard hasher.value == checksum else { throw ImageError("the image's checksum does not hold") }
                var reader = ImageReader(payload, owner: data)
                let value = try T(from: &reader)
                guard reader.isAtEnd else { throw ImageError("the image has bytes past its end") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Writes an image atomically (a temporary file renamed into place); a folder that
    /// cannot be written is no error: the value stays built in memory.
    @discardableResult
    static func write<T: ImageCodable>(_ value: T, to file: URL) -> Bool {
        let bytes = encode(value)
        let directory = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A name of its own (process and call): two writers never share a temporary file.
            let temporary = directory.appendingPathComponent(
                ".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).tmp")
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, file.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return false
            }
            prune(besides: file)
            return true
        } catch {
            return false
        }
    }
}

extension ImageCache {
    /// Removes the other images of the same kind, language and variant (made from older
    /// sources or by another build): one image of each stays.
    static func prune(besides file: URL) {
        let name = file.lastPathComponent
        guard let cut = name.lastIndex(of: "-") else { return }
        let prefix = name[...cut]
        let directory = file.deletingLastPathComponent()
        for other in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where other != name && other.hasPrefix(prefix) && other.hasSuffix(".image") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(other))
        }
    }
}

/// A 64-bit hash of bytes, eight at a time (a multiply–xor mix in the manner of wyhash's
/// finalizer): fast enough to check a whole image at every start.
struct ImageHash {
    private(set) var value: UInt64 = 0x9E37_79B9_7F4A_7C15

    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    mutating func combine(_ bytes: [UInt8]) { bytes.withUnsafeBytes { combine($0) } }

    /// The hash of a text, as 16 hexadecimal digits.
    static func hex(_ text: String) -> String {
        var hasher = ImageHash()
        hasher.combine(Array(text.utf8))
        return String(hasher.value, radix: 16)
    }

    mutating func combine(_ bytes: UnsafeRawBufferPointer) { combine(bytes, every: Int.max) { _ in } }

    /// `combine(bytes)`, telling `done` each stretch of `every` bytes (rounded down to a
    /// multiple of 32, at least 32) once it is read, and the rest at the end: the hash is the
    /// same.
    mutating func combine(_ bytes: UnsafeRawBufferPointer, every: Int, _ done: (UnsafeRawBufferPointer) -> Void) {
        var index = 0
        var reported = 0
        let count = bytes.count
        // Four lanes of 64 bits, each a rotate–add–xor of its words (a few instructions per
        // eight bytes: an image of 30 MB is checked in a few milliseconds), mixed at the end.
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            value, value ^ 0x243F_6A88_85A3_08D3, value ^ 0x1319_8A2E_0370_7344, value ^ 0xA409_3822_299F_31D0
        )
        // Whole blocks of 32 bytes, a stretch at a time (the inner loop tests nothing else).
        let blocksEnd = count - count % 32
        let stretch = max(32, every / 32 * 32)
        while index < blocksEnd {
            let stop = blocksEnd - index <= stretch ? blocksEnd : index + stretch
            while index < stop {
                let a = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let b = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
                let c = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self))
                let d = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self))
                lanes.0 = ((lanes.0 << 23) | (lanes.0 >> 41)) &+ (a ^ 0x9E37_79B9_7F4A_7C15)
                lanes.1 = ((lanes.1 << 29) | (lanes.1 >> 35)) &+ (b ^ 0xC2B2_AE3D_27D4_EB4F)
                lanes.2 = ((lanes.2 << 31) | (lanes.2 >> 33)) &+ (c ^ 0x1656_67B1_9E37_79F9)
                lanes.3 = ((lanes.3 << 37) | (lanes.3 >> 27)) &+ (d ^ 0x85EB_CA77_C2B2_AE63)
                index += 32
            }
            if index - reported >= stretch {
                done(UnsafeRawBufferPointer(rebasing: bytes[reported..<index]))
                reported = index
            }
        }
        value = Self.mix(Self.mix(lanes.0 ^ lanes.1, 0xA076_1D64_78BD_642F) ^ lanes.2, Self.mix(lanes.3, 0xE703_7ED1_A0B4_28DB))
        while index + 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            value = Self.mix(value ^ word, 0xA076_1D64_78BD_642F)
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        value = Self.mix(value ^ tail ^ UInt64(count), 0xE703_7ED1_A0B4_28DB)
        if reported < count { done(UnsafeRawBufferPointer(rebasing: bytes[reported..<count])) }
    }
}

/// An image file mapped read-only into memory (private, never written), as `Data` that unmaps
/// it when the last copy goes.
///
/// Checking an image's checksum reads every page of it; `release` then hands the pages the
/// checksum has read back to the system (`madvise(MADV_DONTNEED)`): they stay in the page
/// cache, and only the ones a parse reads again (a few states' steps of a large automaton)
/// count in the process's memory. Pages of a private file mapping that were never written
/// come back from the file unchanged when touched again.
struct MappedFile {
    let data: Data
    private let base: UnsafeMutableRawPointer
    private let size: Int

    init?(_ file: URL) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else { return nil }
        self.base = base
        self.size = size
        data = Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Gives back the whole pages of `bytes` (a stretch of this file's mapping).
    func release(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        let page = Self.pageSize
        let from = (Int(bitPattern: start) + page - 1) / page * page
        let to = (Int(bitPattern: start) + bytes.count) / page * page
        // Only pages of this mapping (never memory a copy of the data would live in).
        guard to > from, Int(bitPattern: base) <= from, to <= Int(bitPattern: base) + size else { return }
        madvise(UnsafeMutableRawPointer(bitPattern: from), to - from, MADV_DONTNEED)
        madvise(UnsafeMutableRawPointer(bitPattern: from), to - from, MADV_RANDOM)
    }
}
