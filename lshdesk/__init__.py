"""lshdesk: find near-duplicate text documents with MinHash + LSH, and see how it works."""

__version__ = "0.1.0"
