# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

def top_k(x: ArrayLike, k: int, axis: int = -1, *, largest: bool = True, indices_dtype: DTypeLike = "int64",
          out: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> Tuple[np.ndarray, np.ndarray]: ...
