# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import DTypeLike

def fill_constant(shape: Union[int, Sequence[int]], value: float, dtype: DTypeLike, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray: ...
def fill_sequence(shape: Union[int, Sequence[int]], start: float, delta: float, dtype: DTypeLike, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray: ...
