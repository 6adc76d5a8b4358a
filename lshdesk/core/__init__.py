"""The Qt-free core of lshdesk: shingling, MinHash, LSH banding, S-curve maths, corpus loading, the scan pipeline."""
