import ArgumentParser
import DNSSD
import DNSUpdate

/// How a command words the options that name credentials and pins in its help.
protocol TokenFileWording {
    static var tokenFileHelp: String { get }
}

protocol PinWording {
    static var pinHelp: String { get }
}

protocol TSIGKeyWording {
    static var tsigKeyHelp: String { get }
}

/// `--token-file FILE`: a file whose first line is a Gateway's token (read by the command, never printed).
struct TokenFileOption<Wording: TokenFileWording>: ParsableArguments {
    @Option(
        name: .customLong("token-file"), help: ArgumentHelp(Wording.tokenFileHelp, valueName: "FILE"), completion: .file(),
        transform: Arguments.inputPath)
    var path: String?
}

/// `--pin SHA256`: the fingerprint a Gateway's certificate must have.
struct PinOption<Wording: PinWording>: ParsableArguments {
    @Option(name: .customLong("pin"), help: ArgumentHelp(Wording.pinHelp, valueName: "SHA256"), transform: Arguments.fingerprint)
    var pin: TLSFingerprint?
}

/// `--tsig-key FILE`: the TSIG key, read once as the command line is parsed.
struct TSIGKeyOption<Wording: TSIGKeyWording>: ParsableArguments {
    @Option(
        name: .customLong("tsig-key"), help: ArgumentHelp(Wording.tsigKeyHelp, valueName: "FILE"), completion: .file(),
        transform: Arguments.tsigKey)
    var key: TSIGKey?
}
