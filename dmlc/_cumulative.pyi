# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

def cumsum(x: ArrayLike, axis: int, *, exclusive: bool = False, reverse: bool = False,
           out: Optional[np.ndarray] = None) -> np.ndarray: ...
def cumprod(x: ArrayLike, axis: int, *, exclusive: bool = False, reverse: bool = False,
            out: Optional[np.ndarray] = None) -> np.ndarray: ...
