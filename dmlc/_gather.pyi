# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

def gather(x: ArrayLike, indices: ArrayLike, axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray: ...
def gather_elements(x: ArrayLike, indices: ArrayLike, axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray: ...
def scatter_elements(x: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int, *,
                     out: Optional[np.ndarray] = None) -> np.ndarray: ...
