import Host

/// The secrets of a config that does not parse (a syntax error, a brace missing), for the
/// report: a pass over its tokens (`JSON5Tokens`) that follows keys as far as the text allows
/// and takes every value sitting where `ConfigRedaction` would replace it (under a secret's key,
/// in an env map, a SecretRef's id, a value that looks like a credential; a number as OpenClaw
/// writes it too). A value whose key cannot be known counts as a secret. `doubt` says why some
/// secret may still have been missed: the text is not UTF-8, a string or comment never ends, a
/// string holds a line break, brackets do not pair, a member has no colon or a value no key, an
/// `$include` names files the pass does not read, or the nesting is deeper than `maxDepth`.
struct ConfigLexicalSecrets {
    /// The values found where secrets sit.
    private(set) var secrets: Set<String> = []
    /// Every value, keys aside, and every word of each string: what to search for when in doubt.
    private(set) var values: Set<String> = []
    /// Why some secret may have been missed; nil when every value's place was known.
    private(set) var doubt: String?

    /// Foundation's JSON reader's nesting limit.
    static let maxDepth = 512

    private struct Frame {
        enum State {
            case key
            case colon(String)
            case value(String)
        }

        let isObject: Bool
        let place: ConfigRedaction.Place
        let isRoot: Bool
        var state = State.key
        var strings: [String: String] = [:]
        var keys: Set<String> = []

        /// Where the value of `key` sits; a value without a key counts as a secret.
        func child(_ key: String?) -> ConfigRedaction.Place {
            guard let key else { return .secret }
            return isObject ? place.child(key, atRoot: isRoot) : place
        }
    }

    private var frames: [Frame] = []
    private var rootSeen = false

    init(_ bytes: [UInt8]) {
        if !ConfigRedaction.isUTF8(bytes) { note("it is not UTF-8") }
        var tokens = JSON5Tokens(bytes)
        while let token = tokens.next() {
            guard frames.count <= Self.maxDepth else {
                note("it nests deeper than \(Self.maxDepth)")
                break
            }
            take(token)
        }
        if let problem = tokens.problem { note(problem) }
        if !frames.isEmpty { note("a bracket is never closed") }
    }

    private mutating func take(_ token: JSON5Tokens.Token) {
        guard let frame = frames.last else { return topLevel(token) }
        if !frame.isObject {
            return value(token, key: nil, in: frame)
        }
        switch (frame.state, token) {
        case (.key, .string(let key)), (.key, .word(let key)):
            let name = key.contains("\\") ? (try? JSON5Keys.decodedName(Array(key.utf8), from: 0).0) ?? key : key
            if name == ConfigIncludes.key { note("it includes files ($include) that are not read while it does not parse") }
            frames[frames.count - 1].state = .colon(name)
            frames[frames.count - 1].keys.insert(name)
        case (.key, .comma): break
        case (.key, .close): close(token)
        case (.key, _):
            note("a value has no key")
            value(token, key: nil, in: frame)
        case (.colon(let key), .colon):
            frames[frames.count - 1].state = .value(key)
        case (.colon(let key), _):
            // A missing quote before it may have made a value of what reads as a key.
            note("a key has no colon")
            values.insert(key)
            frames[frames.count - 1].state = .value(key)
            take(token)
        case (.value, .close):
            note("a key has no value")
            close(token)
        case (.value, .comma), (.value, .colon):
            note("a key has no value")
            frames[frames.count - 1].state = .key
        case (.value(let key), _):
            frames[frames.count - 1].state = .key
            value(token, key: key, in: frame)
        }
    }

    /// A value in `frame` (under `key` in an object; nil for a list's item, or a value without a key).
    private mutating func value(_ token: JSON5Tokens.Token, key: String?, in frame: Frame) {
        let place = frame.isObject ? frame.child(key) : frame.place
        switch token {
        case .string(let text):
            if let key { frames[frames.count - 1].strings[key] = text }
            scalar(text, quoted: true, place: place)
        case .word(let text): scalar(text, quoted: false, place: place)
        case .open(let object): frames.append(Frame(isObject: object, place: place, isRoot: false))
        case .close: close(token)
        case .colon: note("a colon stands where no key is")
        case .comma: break
        }
    }

    private mutating func topLevel(_ token: JSON5Tokens.Token) {
        if rootSeen { note("text follows the config's end") }
        switch token {
        case .open(let object):
            frames.append(Frame(isObject: object, place: .ordinary, isRoot: object))
            rootSeen = true
        case .string(let text): scalar(text, quoted: true, place: .secret)
        case .word(let text): scalar(text, quoted: false, place: .secret)
        case .close: note("a bracket closes that was never opened")
        case .colon, .comma: note("a colon or comma stands outside the config")
        }
    }

    private mutating func close(_ token: JSON5Tokens.Token) {
        guard let frame = frames.popLast() else { return note("a bracket closes that was never opened") }
        if token != .close(object: frame.isObject) { note("brackets do not pair") }
        // OpenClaw's SecretRef ({ source, provider?, id }): its id is redacted.
        if frame.isObject, let source = frame.strings["source"], ["env", "file", "exec"].contains(source),
            let id = frame.strings["id"], frame.keys.isSubset(of: ["source", "provider", "id"]), !ConfigRedaction.isPlaceholder(id)
        {
            add(id, quoted: true)
        }
    }

    private mutating func scalar(_ text: String, quoted: Bool, place: ConfigRedaction.Place) {
        if !text.isEmpty { values.insert(text) }
        if quoted { values.formUnion(Self.words(text)) }
        if quoted && ConfigRedaction.isPlaceholder(text) { return }
        switch place {
        case .plain: return
        case .secret, .envValue, .envBlock, .envMap: add(text, quoted: quoted)
        case .ordinary:
            if quoted && (ConfigRedaction.holdsKeyMaterial(text) || ConfigRedaction.Walk.looksLikeToken(text)) { add(text, quoted: quoted) }
        }
    }

    /// A secret; a number also as OpenClaw writes it (`0x1F` is `31`, `1.5e3` is `1500`).
    private mutating func add(_ text: String, quoted: Bool) {
        guard !text.isEmpty else { return }
        secrets.insert(text)
        if !quoted, let number = Double(text) { secrets.insert(JavaScriptNumber.text(number)) }
    }

    /// Every run of characters between white space, brackets, colons, commas and quotes: what a
    /// string whose quote is missing holds of the values after it.
    static func words(_ text: String) -> [String] {
        text.split { $0.isWhitespace || "{}[]:,\"'`".contains($0) }.map(String.init)
    }

    private mutating func note(_ problem: String) {
        if doubt == nil { doubt = problem }
    }
}
