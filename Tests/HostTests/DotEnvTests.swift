import Testing

@testable import Host

/// The env file as OpenClaw's dotenv reads it (`DotEnv`): each case is a file and the variables
/// the Gateway's process gets from it, in the file's order.
@Suite("the env file, read as OpenClaw's dotenv reads it")
struct DotEnvTests {
    static let cases: [(String, String, [(String, String)])] = [
        ("plain lines", "A=1\nB=two\n", [("A", "1"), ("B", "two")]),
        ("CR LF and a lone CR end lines", "A=1\r\nB=two\r\nC=3\rD=4", [("A", "1"), ("B", "two"), ("C", "3"), ("D", "4")]),
        ("export is dropped; a key may be named export", "export A=1\nexport=2\n", [("A", "1"), ("export", "2")]),
        ("white space around = and around the value", "  A  =  spaced value  \n", [("A", "spaced value")]),
        ("an inline comment ends an unquoted value", "A=abc # comment\nB=abc#x\n", [("A", "abc"), ("B", "abc")]),
        ("a # inside quotes is kept", "A=\"abc # not\" # comment\nB='x#y'\n", [("A", "abc # not"), ("B", "x#y")]),
        ("single, double and backtick quotes", "A='x y'\nB=\"x y\"\nC=`x y`\n", [("A", "x y"), ("B", "x y"), ("C", "x y")]),
        (
            "\\n and \\r expand in double quotes only", "A=\"a\\nb\\rc\"\nB='a\\nb'\nC=a\\nb\n",
            [("A", "a\nb\rc"), ("B", "a\\nb"), ("C", "a\\nb")]
        ),
        (
            "a double-quoted value runs across lines (a PEM key)",
            "KEY=\"-----BEGIN PRIVATE KEY-----\nMIIEabc\nXYZ123\n-----END PRIVATE KEY-----\"\nNEXT=1\n",
            [("KEY", "-----BEGIN PRIVATE KEY-----\nMIIEabc\nXYZ123\n-----END PRIVATE KEY-----"), ("NEXT", "1")]
        ),
        ("an unclosed quote is read as an unquoted value", "A=\"abc\nB=1\n", [("A", "\"abc"), ("B", "1")]),
        ("a quote after a backslash does not close; the backslash stays", "A=\"a\\\"b\"\n", [("A", "a\\\"b")]),
        ("a quote followed by more text is no quote", "A=\"x\" y\n", [("A", "\"x\" y")]),
        ("KEY: VALUE", "A: value\n", [("A", "value")]),
        ("empty values", "A=\nB=1\nC=   # nothing\n", [("A", ""), ("B", "1"), ("C", "")]),
        ("a quoted value may start on the next line", "A=\n\"x\"\n", [("A", "x")]),
        ("comments and lines that set nothing are skipped", "# A=1\njunk line\n\n   \nB=2\n", [("B", "2")]),
        ("a key given twice: both values, in order", "A=1\nA=2\n", [("A", "1"), ("A", "2")]),
        ("a single quote inside double quotes", "A=\"it's\"\n", [("A", "it's")]),
        ("keys of letters, digits, _, . and -", "a.b-c_1=v\n", [("a.b-c_1", "v")]),
        ("a byte order mark is white space", "\u{FEFF}A=1\n", [("A", "1")]),
    ]

    @Test("each case", arguments: cases.indices)
    func reads(index: Int) {
        let (name, text, expected) = Self.cases[index]
        let entries = DotEnv.parse(text).map { ($0.key, $0.value) }
        #expect(entries.map(\.0) == expected.map(\.0) && entries.map(\.1) == expected.map(\.1), "\(name): \(entries)")
    }

    @Test("50,000 quotes closed only after a backslash, blank lines between: read in linear time, all of it")
    func boundedTime() {
        let text = String(repeating: "A=\"x\\\"\n\n", count: 50_000)
        let clock = ContinuousClock()
        var entries: [DotEnv.Entry] = []
        let elapsed = clock.measure { entries = DotEnv.parse(text) }
        #expect(entries.count == 50_000, "\(entries.count) variables")
        #expect(entries.first?.value == "x\\", "the quote after the backslash closes it: \(String(describing: entries.first))")
        // Quadratic backtracking over 400 KB takes minutes; the linear pass well under this on any machine.
        #expect(elapsed < .seconds(20), "\(elapsed)")
    }
}
