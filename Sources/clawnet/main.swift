import Commands

// Everything the command line does is in the Commands library (tests run it in-process).
await Clawnet.main()
