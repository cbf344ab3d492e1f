# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

def reverse_subsequences(x: ArrayLike, lengths: ArrayLike, axis: int, *,
                         out: Optional[np.ndarray] = None) -> np.ndarray: ...
