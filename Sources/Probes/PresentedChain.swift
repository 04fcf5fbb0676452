extension TLSFacts {
    /// The certificates the server presented, read: the leaf first, then each one as it was
    /// sent (an intermediate, sometimes the root). One that does not parse is left out.
    package var presentedChain: [CertificateFacts] {
        chain.prefix(ChainTrust.maxIntermediates + 1).compactMap { CertificateFacts.read($0).0 }
    }
}
