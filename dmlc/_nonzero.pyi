# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
import numpy as np
from numpy.typing import ArrayLike, DTypeLike

def nonzero_coordinates(x: ArrayLike, *, indices_dtype: DTypeLike = "int64") -> np.ndarray: ...
