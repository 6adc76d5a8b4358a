"""The compiled inner loops (numba, ``nogil``): tokens, MinHash, banding, pairs; one module per kind of loop."""
