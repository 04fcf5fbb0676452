// The declaration in include/CFuzzer.h is all this module holds; libFuzzer defines it.
