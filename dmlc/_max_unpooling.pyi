# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike

def max_unpool(x: ArrayLike, indices: ArrayLike, output_shape: Sequence[int], *,
               out: Optional[np.ndarray] = None) -> np.ndarray: ...
