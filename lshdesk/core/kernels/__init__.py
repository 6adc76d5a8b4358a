"""The compiled inner loops (numba, ``nogil``): tokens, MinHash, banding, pairs; one module per kind of loop.

Importing this package points numba's cache of compiled kernels at the user's cache folder (see ``cache``), before
any kernel is defined, unless ``NUMBA_CACHE_DIR`` is already set.
"""

from lshdesk.core.kernels.cache import use_user_cache

use_user_cache()
