# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

def one_hot(indices: ArrayLike, depth: int, *, axis: int = -1, values: Union[Sequence[float], np.ndarray] = (0, 1),
            dtype: Optional[DTypeLike] = None, out: Optional[np.ndarray] = None) -> np.ndarray: ...
