"""The constants of the one 64-bit mixing of the compiled kernels (MurmurHash3's ``fmix64``, the word and band-key
absorbs), for the numpy code that must agree with them; the compiled functions themselves are in ``_mix.pxd``."""

from __future__ import annotations

import numpy as np

C0 = np.uint64(0x243F6A8885A308D3)  # every running hash starts here (pi's fraction)
C1 = np.uint64(0x9E3779B97F4A7C15)  # the odd multiplier of each absorb (golden ratio)
M1 = np.uint64(0xFF51AFD7ED558CCD)  # fmix64's two multipliers
M2 = np.uint64(0xC4CEB9FE1A85EC53)
