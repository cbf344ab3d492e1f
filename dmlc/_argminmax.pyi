# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

def argmax(x: ArrayLike, axis: Union[None, int, Sequence[int]] = None, *, keepdims: bool = False,
           select_last_index: bool = False, indices_dtype: DTypeLike = "int64",
           out: Optional[np.ndarray] = None) -> np.ndarray: ...
def argmin(x: ArrayLike, axis: Union[None, int, Sequence[int]] = None, *, keepdims: bool = False,
           select_last_index: bool = False, indices_dtype: DTypeLike = "int64",
           out: Optional[np.ndarray] = None) -> np.ndarray: ...
