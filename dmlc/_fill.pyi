# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

def fill_constant(shape: Union[int, Sequence[int]], value: float, dtype: DTypeLike, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray: ...
def fill_sequence(shape: Union[int, Sequence[int]], start: float, delta: float, dtype: DTypeLike, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray: ...
def diagonal_matrix(shape: Sequence[int], dtype: DTypeLike = "float32", *, offset: int = 0, value: float = 1,
                    out: Optional[np.ndarray] = None) -> np.ndarray: ...
def diagonal_fill(x: ArrayLike, begin: Optional[int], end: Optional[int], value: float = 0, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray: ...
