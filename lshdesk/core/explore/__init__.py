"""The S-curve explorer's maths: re-banding stored signatures, the exact reference, auto-tune."""
